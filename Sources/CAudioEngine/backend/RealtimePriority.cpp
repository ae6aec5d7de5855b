#include "backend/RealtimePriority.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace boop {

namespace {

bool setFifo(int priority) noexcept {
    sched_param sp{};
    sp.sched_priority = std::clamp(priority, sched_get_priority_min(SCHED_FIFO), sched_get_priority_max(SCHED_FIFO));
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0;
}

// rtkit grants only to processes that bound their real-time CPU time (RLIMIT_RTTIME), so a runaway
// real-time thread is throttled instead of freezing the desktop; it also caps the priority.
bool askRtkit(int priority) noexcept {
    // BOOP_NO_RTKIT=1 skips the request (tests of the fallback path).
    const char* off = std::getenv("BOOP_NO_RTKIT");
    if (off != nullptr && off[0] == '1') return false;
    sd_bus* bus = nullptr;
    if (sd_bus_open_system(&bus) < 0) return false;
    const char* service = "org.freedesktop.RealtimeKit1";
    const char* path = "/org/freedesktop/RealtimeKit1";
    int32_t maxPriority = 0;
    int64_t maxRttime = 0;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    bool granted = false;
    if (sd_bus_get_property_trivial(bus, service, path, service, "MaxRealtimePriority", &error, 'i', &maxPriority) >=
            0 &&
        sd_bus_get_property_trivial(bus, service, path, service, "RTTimeUSecMax", &error, 'x', &maxRttime) >= 0 &&
        maxPriority > 0) {
        rlimit limit{};
        limit.rlim_cur = limit.rlim_max = static_cast<rlim_t>(std::max<int64_t>(maxRttime, 1000));
        if (setrlimit(RLIMIT_RTTIME, &limit) == 0) {
            const uint64_t tid = static_cast<uint64_t>(syscall(SYS_gettid));
            const uint32_t prio = static_cast<uint32_t>(std::clamp(priority, 1, static_cast<int>(maxPriority)));
            granted = sd_bus_call_method(bus, service, path, service, "MakeThreadRealtime", &error, nullptr, "tu", tid,
                                         prio) >= 0;
        }
    }
    sd_bus_error_free(&error);
    sd_bus_flush_close_unref(bus);
    return granted;
}

}  // namespace

boop_priority makeCurrentThreadRealtime(int priority) noexcept {
    if (priority <= 0) return BOOP_PRIORITY_NORMAL;
    if (setFifo(priority)) return BOOP_PRIORITY_FIFO;
    if (askRtkit(priority)) return BOOP_PRIORITY_RTKIT;
    return BOOP_PRIORITY_NORMAL;
}

const char* priorityName(boop_priority priority) noexcept {
    switch (priority) {
        case BOOP_PRIORITY_FIFO:
            return "SCHED_FIFO";
        case BOOP_PRIORITY_RTKIT:
            return "rtkit";
        default:
            return "normal";
    }
}

}  // namespace boop
