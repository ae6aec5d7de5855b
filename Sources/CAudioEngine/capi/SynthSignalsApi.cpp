// SIGTSTP for boop synth on JACK (CAudioEngineSynth.h): the handler only writes a byte to a pipe,
// so the control loop takes the client out of the server's graph before the process stops.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "include/CAudioEngineSynth.h"

namespace {

std::atomic<int> stopWrite{-1};

void onStop(int) {
    const int saved = errno;
    const int fd = stopWrite.load(std::memory_order_relaxed);
    if (fd >= 0) {
        const char byte = 1;
        [[maybe_unused]] const ssize_t n = write(fd, &byte, 1);
    }
    errno = saved;
}

void handleStop() {
    struct sigaction action {};
    action.sa_handler = onStop;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTSTP, &action, nullptr);
}

}  // namespace

extern "C" {

int boop_synth_stop_signal_install(void) {
    struct sigaction old {};
    sigaction(SIGTSTP, nullptr, &old);
    if (old.sa_handler == SIG_IGN) return -1;  // a shell without job control: nothing may stop
    static int readEnd = -1;
    if (readEnd < 0) {
        int ends[2];
        if (pipe2(ends, O_NONBLOCK | O_CLOEXEC) != 0) return -1;
        readEnd = ends[0];
        stopWrite.store(ends[1], std::memory_order_relaxed);
    }
    handleStop();
    return readEnd;
}

void boop_synth_stop_now(void) {
    signal(SIGTSTP, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    raise(SIGTSTP);  // returns once continued
    handleStop();
}

}  // extern "C"
