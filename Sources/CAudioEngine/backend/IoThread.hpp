#pragma once
// The thread of a backend that no server calls (ALSA playback and capture, the timer): started
// with its scheduling settled before start() returns (info() reports it), asked to stop by a flag
// its loop polls, and how it ended (running, error, the priority it got) readable from any thread,
// its end also as a descriptor a control thread can sleep on (endedDescriptor).
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "backend/EndedSignal.hpp"
#include "backend/RealtimePriority.hpp"
#include "include/CAudioEngine.h"

namespace boop {

// What a backend on an IoThread asks for: the period it wakes for, the periods its buffer holds
// and the SCHED_FIFO priority of its thread. The defaults are the backend's rows of the limits
// table, named when a backend's Config is made.
struct PeriodSettings {
    constexpr PeriodSettings(boop_limit_id framesRow, boop_limit_id periodsRow) noexcept
        : periodFrames(static_cast<uint32_t>(boop_limit_get(framesRow).default_value)),
          periods(static_cast<uint32_t>(boop_limit_get(periodsRow).default_value)) {}
    uint32_t periodFrames;
    uint32_t periods;
    int realtimePriority = 70;
    // A C config's choice: its period and periods where given (0: keep the default), its priority.
    void take(uint32_t frames, uint32_t count, int priority) noexcept {
        if (frames != 0) periodFrames = frames;
        if (count != 0) periods = count;
        realtimePriority = priority;
    }
};

class IoThread {
  public:
    IoThread() = default;
    ~IoThread() { join(); }
    IoThread(const IoThread&) = delete;
    IoThread& operator=(const IoThread&) = delete;

    // Control thread: runs `loop` on a new thread raised to `priority` (makeCurrentThreadRealtime).
    // ALREADY_RUNNING while one runs, INTERNAL when no thread can be made.
    template <class Loop>
    boop_status start(int priority, Loop loop) {
        if (thread_.joinable()) return BOOP_ERROR_ALREADY_RUNNING;
        stopRequested_.store(false);
        error_.store(BOOP_OK);
        running_.store(1);
        ended_.clear();
        std::mutex m;
        std::condition_variable cv;
        bool ready = false;
        try {
            thread_ = std::thread([this, priority, loop, &m, &cv, &ready]() mutable {
                realtime_.store(makeCurrentThreadRealtime(priority));
                {
                    std::lock_guard<std::mutex> lock(m);
                    ready = true;
                }
                cv.notify_one();
                loop();
            });
        } catch (...) {
            running_.store(0);
            return BOOP_ERROR_INTERNAL;
        }
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&ready] { return ready; });
        return BOOP_OK;
    }
    bool started() const noexcept { return thread_.joinable(); }
    // Control thread: asks the loop to end (the caller wakes it), and waits for it.
    void requestStop() noexcept { stopRequested_.store(true, std::memory_order_release); }
    void join() {
        if (thread_.joinable()) thread_.join();
    }

    // The loop: whether to end, and how it ended.
    bool stopRequested(std::memory_order order = std::memory_order_acquire) const noexcept {
        return stopRequested_.load(order);
    }
    void finish(boop_status error) noexcept {
        error_.store(error, std::memory_order_release);
        running_.store(0, std::memory_order_release);
        ended_.raise();  // after the state: a reader woken by it sees how the loop ended
    }

    // Any thread.
    int running() const noexcept { return running_.load(std::memory_order_acquire); }
    boop_status error() const noexcept { return static_cast<boop_status>(error_.load(std::memory_order_acquire)); }
    boop_priority priority() const noexcept { return static_cast<boop_priority>(realtime_.load()); }
    bool realtimeScheduling() const noexcept { return priority() != BOOP_PRIORITY_NORMAL; }
    // Readable once the loop has ended (finish), until the next start.
    int endedDescriptor() const noexcept { return ended_.descriptor(); }

  private:
    std::thread thread_;
    std::atomic<bool> stopRequested_{false};
    std::atomic<int> running_{0};
    std::atomic<int> error_{BOOP_OK};
    std::atomic<int> realtime_{BOOP_PRIORITY_NORMAL};
    EndedSignal ended_;
};

}  // namespace boop
