#pragma once
// A descriptor that becomes readable once a backend's audio has stopped (a lost device, a server
// gone, a stop asked for), so a control thread asleep in poll() with its other descriptors learns
// of it at once instead of asking the backend on a timer. Raised by the I/O thread as it leaves its
// loop, or by JACK's shutdown callback (which runs as a signal handler would: write(2) is safe
// there); never by a real-time path while it runs.
#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

namespace boop {

class EndedSignal {
  public:
    EndedSignal() noexcept : fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}
    ~EndedSignal() {
        if (fd_ >= 0) ::close(fd_);
    }
    EndedSignal(const EndedSignal&) = delete;
    EndedSignal& operator=(const EndedSignal&) = delete;

    // Readable from now on (until clear()); raising again changes nothing a reader sees.
    void raise() noexcept {
        if (fd_ < 0) return;
        const uint64_t one = 1;
        const ssize_t n = ::write(fd_, &one, sizeof one);
        (void)n;  // the counter is full only after 2^64 - 1 raises: it is readable then too
    }
    // Not readable again (a backend started anew).
    void clear() noexcept {
        if (fd_ < 0) return;
        uint64_t count = 0;
        const ssize_t n = ::read(fd_, &count, sizeof count);
        (void)n;  // EAGAIN: it was not raised
    }
    // -1 when the kernel gave no descriptor (out of descriptors): the caller then asks on a timer.
    int descriptor() const noexcept { return fd_; }

  private:
    int fd_;
};

}  // namespace boop
