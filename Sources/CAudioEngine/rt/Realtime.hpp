#pragma once
// One macro for every function that may run on the audio thread. With clang >= 20 the
// attribute makes the compiler (-Wfunction-effects) and RealtimeSanitizer (-fsanitize=realtime)
// check that nothing reachable from it allocates, locks or makes a blocking call.
#if defined(__clang__) && defined(__has_cpp_attribute)
#if __has_cpp_attribute(clang::nonblocking)
#define BOOP_RT noexcept [[clang::nonblocking]]
#endif
#endif
#ifndef BOOP_RT
#define BOOP_RT noexcept
#endif

// Around code that calls a library function that is real-time safe but not annotated (libjack's
// shared-memory accessors, CLOCK_MONOTONIC through the vDSO): the compiler's effect check is off
// between the two, allowed by name; a comment before BEGIN says why.
#if defined(__clang__)
#define BOOP_RT_UNCHECKED_BEGIN                                                                       \
    _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Wunknown-warning-option\"") \
        _Pragma("clang diagnostic ignored \"-Wfunction-effects\"")
#define BOOP_RT_UNCHECKED_END _Pragma("clang diagnostic pop")
#else
#define BOOP_RT_UNCHECKED_BEGIN
#define BOOP_RT_UNCHECKED_END
#endif
