#pragma once
// Real-time scheduling for a backend's I/O thread, the Linux way: SCHED_FIFO when the process may
// set it (root, CAP_SYS_NICE, an RLIMIT_RTPRIO), otherwise rtkit (org.freedesktop.RealtimeKit1 on
// the system bus), the daemon desktops run so that unprivileged audio clients (PulseAudio,
// PipeWire, JACK clients) can get real-time priority. Without a bus or rtkit the thread keeps its
// normal priority: never an error.
#include "include/CAudioEngine.h"

namespace boop {

// Raises the calling thread. Blocking (it may call D-Bus): call it once from the I/O thread before
// its loop, never from the render path. priority <= 0 asks for nothing.
boop_priority makeCurrentThreadRealtime(int priority) noexcept;

// "SCHED_FIFO", "rtkit" or "normal".
const char* priorityName(boop_priority priority) noexcept;

}  // namespace boop
