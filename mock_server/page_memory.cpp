// page_memory.cpp: mmap-backed PageMemory and the PagePool that recycles it.
#include "page_memory.h"

#include <sys/mman.h>

#include <new>

namespace s3up::mock {

PageMemory::PageMemory(std::size_t size) : size_(size) {
  void* mapping = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<std::byte*>(mapping);
  // Both are hints: on kernels without them the pages simply fault in as they are written.
  ::madvise(mapping, size, MADV_HUGEPAGE);
#ifdef MADV_POPULATE_WRITE
  ::madvise(mapping, size, MADV_POPULATE_WRITE);
#endif
}

PageMemory::~PageMemory() {
  if (data_) ::munmap(data_, size_);
}

PageMemory& PageMemory::operator=(PageMemory&& other) noexcept {
  if (this != &other) {
    if (data_) ::munmap(data_, size_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

PageMemory PagePool::take(std::size_t size) {
  {
    std::lock_guard lock(mutex_);
    std::size_t best = count_;
    for (std::size_t i = 0; i < count_; ++i) {
      std::size_t kept = kept_[i].size();
      if (kept >= size && kept / 2 <= size && (best == count_ || kept < kept_[best].size())) best = i;
    }
    if (best < count_) {
      PageMemory pages = std::move(kept_[best]);
      std::move(kept_.begin() + best + 1, kept_.begin() + count_, kept_.begin() + best);
      --count_;
      kept_bytes_ -= pages.size();
      return pages;
    }
  }
  return PageMemory(size);  // mapped and populated outside the lock
}

void PagePool::give(PageMemory pages) noexcept {
  if (pages.data() == nullptr || pages.size() > budget_) return;  // unmapped on return
  std::array<PageMemory, max_kept> evicted;                       // unmapped on return, outside the lock
  std::lock_guard lock(mutex_);
  for (std::size_t n = 0; count_ == max_kept || kept_bytes_ + pages.size() > budget_; ++n) {
    kept_bytes_ -= kept_[0].size();
    evicted[n] = std::move(kept_[0]);
    std::move(kept_.begin() + 1, kept_.begin() + count_, kept_.begin());
    --count_;
  }
  kept_bytes_ += pages.size();
  kept_[count_++] = std::move(pages);
}

}  // namespace s3up::mock
