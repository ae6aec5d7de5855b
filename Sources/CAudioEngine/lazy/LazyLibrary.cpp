#include "lazy/LazyLibrary.hpp"

#include <dlfcn.h>

#include <cstdio>

namespace boop {

void* LazyLibrary::handle() noexcept {
    std::call_once(once_, [this] {
        handle_ = dlopen(soname_, RTLD_NOW | RTLD_LOCAL);
        if (handle_ == nullptr) {
            const char* why = dlerror();
            std::snprintf(why_, sizeof why_, "%s", why != nullptr ? why : soname_);
        }
    });
    return handle_;
}

void* LazyLibrary::symbol(const char* name) noexcept {
    void* h = handle();
    return h != nullptr ? dlsym(h, name) : nullptr;
}

const char* LazyLibrary::error() noexcept {
    handle();
    return why_;
}

LazyLibrary& sndfileLibrary() noexcept {
    static LazyLibrary lib("libsndfile.so.1");
    return lib;
}

LazyLibrary& systemdLibrary() noexcept {
    static LazyLibrary lib("libsystemd.so.0");
    return lib;
}

}  // namespace boop
