#pragma once
// What every C entry point that builds objects does with a C++ exception: it never crosses the C
// boundary. Running out of memory is BOOP_ERROR_OUT_OF_MEMORY, anything else BOOP_ERROR_INTERNAL.
// The bodies hold what they build in a std::unique_ptr until it is complete, so a throw halfway
// (a prepare() that allocates) leaks nothing.
#include <new>

#include "include/CAudioEngine.h"

namespace boop::capi {

template <class Body>
boop_status guarded(Body&& body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    } catch (...) {
        return BOOP_ERROR_INTERNAL;
    }
}

}  // namespace boop::capi
