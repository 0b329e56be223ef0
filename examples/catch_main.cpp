// The Catch2 main of the examples' test program (Catch2 v2 ships none as a library).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
