// The test suite's operator new replacement (tests/cpp/alloc_counter.cpp), compiled into the benchmark
// as well, so "allocations per step" is counted the same way as the test that requires 0.  Included
// rather than copied because the benchmark's sources are collected from src/bench/ only.
#include "../../tests/cpp/alloc_counter.cpp"
