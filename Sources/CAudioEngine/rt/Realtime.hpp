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
