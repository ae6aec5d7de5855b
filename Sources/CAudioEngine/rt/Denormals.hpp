#pragma once
#include "rt/Realtime.hpp"
#if defined(__SSE__) || defined(__x86_64__)
#include <pmmintrin.h>
#include <xmmintrin.h>
#endif

namespace boop {

// Filter and envelope tails decay towards zero and would otherwise spend thousands of cycles
// per sample in denormal arithmetic. Flush-to-zero/denormals-are-zero for the scope of a render
// call, restoring the caller's mode afterwards so embedding hosts are not surprised.
class DenormalGuard {
  public:
    DenormalGuard() BOOP_RT {
#if defined(__SSE__) || defined(__x86_64__)
        saved_ = _mm_getcsr();
        _mm_setcsr(saved_ | 0x8040u);  // FTZ (bit 15) | DAZ (bit 6)
#elif defined(__aarch64__)
        __asm__ __volatile__("mrs %0, fpcr" : "=r"(saved_));
        unsigned long long fz = saved_ | (1ull << 24);
        __asm__ __volatile__("msr fpcr, %0" : : "r"(fz));
#endif
    }
    ~DenormalGuard() {
#if defined(__SSE__) || defined(__x86_64__)
        _mm_setcsr(saved_);
#elif defined(__aarch64__)
        __asm__ __volatile__("msr fpcr, %0" : : "r"(saved_));
#endif
    }
    DenormalGuard(const DenormalGuard&) = delete;
    DenormalGuard& operator=(const DenormalGuard&) = delete;

  private:
#if defined(__aarch64__)
    unsigned long long saved_ = 0;
#else
    unsigned int saved_ = 0;
#endif
};

}  // namespace boop
