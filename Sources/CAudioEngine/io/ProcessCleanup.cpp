// Temporary files and stop signals for the boop tool (ProcessCleanup.hpp; the C API in
// capi/ProcessApi.cpp, CAudioEngineProcess.h).
//
// Every temporary file is made by createTemporary and remembered in a fixed table the signal
// handler can walk without allocating or locking, so every way out (a first signal while nothing
// polls it, a second signal's immediate exit) removes it. The handlers are plain sigaction ones:
// no libdispatch (which hangs for ever when it cannot start its manager thread, e.g. under
// `ulimit -v`), nothing started before the process needs it.
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <atomic>

#include "io/ProcessCleanup.hpp"

namespace {

// A slot is free (0), being filled or emptied (1), or names a live temporary file (2). Only the
// owner of a 0->1 or 2->1 transition touches the name, so the handler (which reads slots in state
// 2 only) never sees half a name.
constexpr int kSlots = 16;
struct Slot {
    std::atomic<int> state{0};
    char path[PATH_MAX];
};
Slot slots[kSlots];
// Temporary files being created right now. The creating thread blocks the stop signals, so a
// handler never runs inside the creation; a handler on another thread waits for it to finish
// (mkstemp takes microseconds), so a file made during a signal is still removed.
std::atomic<int> creating{0};

std::atomic<int> signalCount{0};
std::atomic<int> firstSignal{0};
std::atomic<int> armed{0};
std::atomic<int> wakeFd{-1};
// The terminal session's restore (CTerminal's boop_term_restore, set by PixelBoopCore): the one
// place that sets terminal modes, so a stop puts the terminal back as the session would.
std::atomic<void (*)()> restoreTerminal{nullptr};

// Every signal whose default action ends the process and that a user or the system sends to
// stop one (kill -USR1, alarm(1), ulimit -t's SIGXCPU): each is a stop, so none strands a
// temporary file. SIGPIPE and SIGXFSZ are ignored instead (a failed write is reported).
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGXCPU};

void blockStopSignals(sigset_t* old) {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kStopSignals) sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

bool remember(const char* path) {
    const size_t n = strlen(path);
    if (n >= PATH_MAX) return false;
    for (Slot& slot : slots) {
        int expected = 0;
        if (!slot.state.compare_exchange_strong(expected, 1, std::memory_order_acquire)) continue;
        memcpy(slot.path, path, n + 1);
        slot.state.store(2, std::memory_order_release);
        return true;
    }
    return false;
}

// Async-signal-safe: the terminal back as it was, every temporary file gone.
void cleanUp() {
    // Bounded: a creation that never ends (a hung network file system) must not hold the exit.
    for (int i = 0; i < 1000 && creating.load(std::memory_order_acquire) > 0; ++i) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, nullptr);
    }
    boop::process::removeAllTemporaries();
    if (void (*restore)() = restoreTerminal.load(std::memory_order_acquire)) restore();
}

void onStopSignal(int sig) {
    const int savedErrno = errno;
    const int n = signalCount.fetch_add(1) + 1;
    if (n == 1) firstSignal.store(sig);
    if (armed.load() == 0) {
        // Nothing is watching for a stop: end as SIGTERM would (SIGQUIT too: no core dump and no
        // runtime crash report), after removing what is ours.
        cleanUp();
        const int as = sig == SIGQUIT ? SIGTERM : sig;
        signal(as, SIG_DFL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, as);
        pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
        raise(as);
        _exit(128 + as);
    }
    if (n >= 2) {
        // The second signal means now.
        cleanUp();
        _exit(130);
    }
    const int fd = wakeFd.load();
    if (fd >= 0) {
        const char byte = 1;
        (void)!write(fd, &byte, 1);
    }
    errno = savedErrno;
}

}  // namespace

namespace boop::process {

int createTemporary(char* template_path) {
    if (template_path == nullptr) {
        errno = EINVAL;
        return -1;
    }
    sigset_t old;
    blockStopSignals(&old);
    creating.fetch_add(1, std::memory_order_acq_rel);
    int fd = mkstemp(template_path);
    int err = errno;
    if (fd >= 0 && !remember(template_path)) {
        // No slot: a file a signal could strand is not made at all.
        close(fd);
        unlink(template_path);
        fd = -1;
        err = EMFILE;
    }
    creating.fetch_sub(1, std::memory_order_acq_rel);
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    errno = err;
    return fd;
}

void forgetTemporary(const char* path) {
    if (path == nullptr) return;
    for (Slot& slot : slots) {
        if (slot.state.load(std::memory_order_acquire) != 2 || strcmp(slot.path, path) != 0) continue;
        int expected = 2;
        if (slot.state.compare_exchange_strong(expected, 1, std::memory_order_acquire)) {
            slot.path[0] = '\0';
            slot.state.store(0, std::memory_order_release);
        }
        return;
    }
}

void removeAllTemporaries() {
    for (Slot& slot : slots)
        if (slot.state.load(std::memory_order_acquire) == 2) unlink(slot.path);
}

int reserveStandardDescriptors() {
    static std::atomic<int> closedMask{-1};
    int mask = closedMask.load(std::memory_order_acquire);
    if (mask >= 0) return mask;
    mask = 0;
    // In order: open() takes the lowest free number, so each /dev/null lands on the one closed.
    for (int fd = 0; fd <= 2; ++fd) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        const int opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (opened >= 0 && opened != fd) close(opened);
        mask |= 1 << fd;
    }
    int expected = -1;
    return closedMask.compare_exchange_strong(expected, mask, std::memory_order_acq_rel) ? mask : expected;
}

int installStopSignals(int wake_fd) {
    if (wake_fd >= 0) wakeFd.store(wake_fd);
    for (int sig : kStopSignals) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = onStopSignal;
        sigemptyset(&action.sa_mask);
        for (int other : kStopSignals) sigaddset(&action.sa_mask, other);
        action.sa_flags = SA_RESTART;
        if (sigaction(sig, &action, nullptr) != 0) return -1;
    }
    return 0;
}

void armStopSignals() { armed.store(1); }

int stopSignalCount() { return signalCount.load(); }

int firstStopSignal() { return firstSignal.load(); }

void setTerminalRestore(void (*restore)()) { restoreTerminal.store(restore, std::memory_order_release); }

}  // namespace boop::process
