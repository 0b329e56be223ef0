// heap_counter.h: how many times global operator new has run in this test program, on any thread. The
// replacement allocation functions live alone in heap_counter.cpp so that the compiler cannot inline them
// into (and misjudge) the code they count.
#pragma once

namespace s3up::test {

long heap_allocations();

}  // namespace s3up::test
