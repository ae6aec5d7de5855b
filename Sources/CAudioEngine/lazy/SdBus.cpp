// sd-bus's functions that boop calls (MPRIS in Sources/CMpris, rtkit in RealtimePriority.cpp),
// opened on first use (see LazyLibrary.hpp). The variadic ones forward to their va_list forms
// (libsystemd 246 and later: Debian 11 has 247).
#include <systemd/sd-bus.h>

#include <cerrno>
#include <cstdarg>

#include "lazy/LazyLibrary.hpp"

using boop::systemdLibrary;

// SD_BUS_VTABLE_START takes this symbol's address; libsystemd reads the format from the vtable's
// own fields, so the address only has to exist (the value is the format the header describes).
extern "C" const unsigned sd_bus_object_vtable_format = 242;

BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_open_user, (sd_bus * *ret), (ret), -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_open_system, (sd_bus * *ret), (ret), -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_new, (sd_bus * *ret), (ret), -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_set_address, (sd_bus * bus, const char* address), (bus, address), -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_set_bus_client, (sd_bus * bus, int b), (bus, b), -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_start, (sd_bus * bus), (bus), -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, sd_bus*, sd_bus_flush_close_unref, (sd_bus * bus), (bus), nullptr)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_get_fd, (sd_bus * bus), (bus), -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_get_events, (sd_bus * bus), (bus), -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_get_timeout, (sd_bus * bus, uint64_t* timeout_usec), (bus, timeout_usec),
                  -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_process, (sd_bus * bus, sd_bus_message** r), (bus, r), -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_request_name, (sd_bus * bus, const char* name, uint64_t flags),
                  (bus, name, flags), -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_service_name_is_valid, (const char* p), (p), 0)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_add_object_vtable,
                  (sd_bus * bus, sd_bus_slot** slot, const char* path, const char* interface,
                   const sd_bus_vtable* vtable, void* userdata),
                  (bus, slot, path, interface, vtable, userdata), -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, sd_bus_slot*, sd_bus_slot_unref, (sd_bus_slot * slot), (slot), nullptr)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_get_property_trivial,
                  (sd_bus * bus, const char* destination, const char* path, const char* interface, const char* member,
                   sd_bus_error* ret_error, char type, void* ret_ptr),
                  (bus, destination, path, interface, member, ret_error, type, ret_ptr), -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_message_open_container,
                  (sd_bus_message * m, char type, const char* contents), (m, type, contents), -ENOSYS)
BOOP_LAZY_FORWARD(systemdLibrary, int, sd_bus_message_close_container, (sd_bus_message * m), (m), -ENOSYS)

extern "C" void sd_bus_error_free(sd_bus_error* e) {
    using Fn = void (*)(sd_bus_error*);
    static const Fn fn = reinterpret_cast<Fn>(systemdLibrary().symbol("sd_bus_error_free"));
    if (fn != nullptr) fn(e);
}

namespace {

template <typename Fn>
Fn systemdSymbol(const char* name) {
    return reinterpret_cast<Fn>(systemdLibrary().symbol(name));
}

}  // namespace

// A variadic function (PARAMS, then `...`) through its va_list form VNAME; PARAMS end in
// `const char* types`, the last named parameter.
#define BOOP_LAZY_FORWARD_VA(NAME, VNAME, PARAMS, ARGS)        \
    extern "C" int NAME(BOOP_LAZY_UNPAREN PARAMS, ...) {       \
        using Fn = int (*)(BOOP_LAZY_UNPAREN PARAMS, va_list); \
        static const Fn fn = systemdSymbol<Fn>(#VNAME);        \
        if (fn == nullptr) return -ENOSYS;                     \
        va_list ap;                                            \
        va_start(ap, types);                                   \
        const int r = fn(BOOP_LAZY_UNPAREN ARGS, ap);          \
        va_end(ap);                                            \
        return r;                                              \
    }
#define BOOP_LAZY_UNPAREN(...) __VA_ARGS__

BOOP_LAZY_FORWARD_VA(sd_bus_message_append, sd_bus_message_appendv, (sd_bus_message * m, const char* types), (m, types))
BOOP_LAZY_FORWARD_VA(sd_bus_message_read, sd_bus_message_readv, (sd_bus_message * m, const char* types), (m, types))
BOOP_LAZY_FORWARD_VA(sd_bus_reply_method_return, sd_bus_reply_method_returnv,
                     (sd_bus_message * call, const char* types), (call, types))
BOOP_LAZY_FORWARD_VA(sd_bus_call_method, sd_bus_call_methodv,
                     (sd_bus * bus, const char* destination, const char* path, const char* interface,
                      const char* member, sd_bus_error* ret_error, sd_bus_message** reply, const char* types),
                     (bus, destination, path, interface, member, ret_error, reply, types))

// The property names (a null-terminated list) gathered for the _strv form; MPRIS names at most a
// few at once.
extern "C" int sd_bus_emit_properties_changed(sd_bus* bus, const char* path, const char* interface, const char* name,
                                              ...) {
    using Fn = int (*)(sd_bus*, const char*, const char*, char**);
    static const Fn fn = systemdSymbol<Fn>("sd_bus_emit_properties_changed_strv");
    if (fn == nullptr) return -ENOSYS;
    constexpr int kMax = 16;
    char* names[kMax + 1] = {};
    int n = 0;
    va_list ap;
    va_start(ap, name);
    for (const char* p = name; p != nullptr; p = va_arg(ap, const char*)) {
        if (n == kMax) {
            va_end(ap);
            return -E2BIG;
        }
        names[n++] = const_cast<char*>(p);
    }
    va_end(ap);
    return fn(bus, path, interface, names);
}
