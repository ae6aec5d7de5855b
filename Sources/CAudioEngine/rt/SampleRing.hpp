#pragma once
// The capture backends' hand-off from the I/O thread to the reader: a single-producer /
// single-consumer ring of floats with bulk copies. Written by hand because it must be wait-free
// on the producer's side with a sequence index for the reader's timestamps; JACK's
// jack_ringbuffer has neither the index nor a typed interface.
#include <poll.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>

#include "rt/Realtime.hpp"

namespace boop {

// A fixed-size SPSC ring of floats with bulk write/read. Allocates in the constructor only.
class SampleRing {
  public:
    explicit SampleRing(std::size_t capacity);
    std::size_t capacity() const noexcept { return mask_ + 1; }

    // Producer: writes as much of `n` as fits; returns how many were written.
    std::size_t write(const float* data, std::size_t n) BOOP_RT;
    // Consumer: reads up to n; returns how many were read. *firstIndex = sequence index of data[0].
    std::size_t read(float* data, std::size_t n, uint64_t* firstIndex) BOOP_RT;
    // Either side: frames available to read now.
    std::size_t available() const noexcept;

  private:
    std::unique_ptr<float[]> buf_;
    std::size_t mask_ = 0;
    alignas(64) std::atomic<uint64_t> writePos_{0};
    alignas(64) std::atomic<uint64_t> readPos_{0};
};

inline SampleRing::SampleRing(std::size_t capacity) {
    std::size_t cap = 2;
    while (cap < capacity) cap <<= 1;
    mask_ = cap - 1;
    buf_.reset(new float[cap]());
}

inline std::size_t SampleRing::write(const float* data, std::size_t n) BOOP_RT {
    const uint64_t w = writePos_.load(std::memory_order_relaxed);
    const uint64_t r = readPos_.load(std::memory_order_acquire);
    const std::size_t space = capacity() - static_cast<std::size_t>(w - r);
    const std::size_t count = std::min(n, space);
    const std::size_t start = static_cast<std::size_t>(w) & mask_;
    const std::size_t first = std::min(count, capacity() - start);
    std::memcpy(buf_.get() + start, data, first * sizeof(float));
    std::memcpy(buf_.get(), data + first, (count - first) * sizeof(float));
    writePos_.store(w + count, std::memory_order_release);
    return count;
}

inline std::size_t SampleRing::read(float* data, std::size_t n, uint64_t* firstIndex) BOOP_RT {
    const uint64_t r = readPos_.load(std::memory_order_relaxed);
    const uint64_t w = writePos_.load(std::memory_order_acquire);
    const std::size_t count = std::min(n, static_cast<std::size_t>(w - r));
    const std::size_t start = static_cast<std::size_t>(r) & mask_;
    const std::size_t first = std::min(count, capacity() - start);
    std::memcpy(data, buf_.get() + start, first * sizeof(float));
    std::memcpy(data + first, buf_.get(), (count - first) * sizeof(float));
    if (firstIndex != nullptr) *firstIndex = r;
    readPos_.store(r + count, std::memory_order_release);
    return count;
}

inline std::size_t SampleRing::available() const noexcept {
    return static_cast<std::size_t>(writePos_.load(std::memory_order_acquire) -
                                    readPos_.load(std::memory_order_acquire));
}

// The reader's wait, for both capture backends: sleeps in steps of `stepMs` (the I/O thread never
// signals, so it stays free of syscalls) until the ring holds `minFrames`, `stillRunning()` turns
// false, or `timeoutMs` pass. Returns the frames available then.
template <typename StillRunning>
std::size_t waitForFrames(const SampleRing& ring, std::size_t minFrames, int timeoutMs, int stepMs,
                          StillRunning stillRunning) {
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + std::chrono::milliseconds(std::max(0, timeoutMs));
    for (;;) {
        const std::size_t available = ring.available();
        if (available >= minFrames || !stillRunning() || clock::now() >= deadline) return available;
        poll(nullptr, 0, stepMs);
    }
}

}  // namespace boop
