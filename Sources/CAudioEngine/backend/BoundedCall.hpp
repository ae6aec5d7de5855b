#pragma once
// A call into a client library that may wait for ever, made on a thread of its own so that the
// caller waits at most a time limit. libjack's jack_client_open has no time limit: it waits for the
// server's answer on a socket, and for JACK2's metadata database lock (one Berkeley DB in /dev/shm
// for the whole machine). A stopped or hung server, or a lock left held by a process killed inside
// it, made `boop edit` wait inside it with `q` dead and only SIGKILL ending it.
//
// A thread cannot be taken out of a library call, so a late call is left to finish on its own:
// what it returns then is handed to `disposeLate` (a client closed). While it runs, it may hold
// the library's own process-wide locks (libjack's open lock), so every later call through the same
// LateCalls fails at once with `busy` instead of queueing behind it; once it returns, calls are
// made again. Control threads only.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace boop {

// The late calls into one library still running (one object per library, living as long as the
// process: a late call's thread counts itself out of it when it returns).
class LateCalls {
  public:
    bool any() const noexcept { return running_.load(std::memory_order_acquire) > 0; }
    void add() noexcept { running_.fetch_add(1, std::memory_order_acq_rel); }
    void remove() noexcept { running_.fetch_sub(1, std::memory_order_acq_rel); }

  private:
    std::atomic<int> running_{0};
};

enum class BoundedOutcome {
    done,      // the call returned in time; its value is in `out`
    late,      // it had not returned by the limit: left running, its value to `disposeLate`
    busy,      // an earlier late call into the library still runs: not called
    noThread,  // no thread (or no memory for one) could be started: not called
};

// Runs `call` on a new thread and waits for it up to `seconds`. The thread is created with the caller's signal mask, so
// a caller that blocks the signals it handles keeps the library's own threads (started inside `call`) free of them.
template <class T>
BoundedOutcome callWithin(LateCalls& late, double seconds, std::function<T()> call, std::function<void(T)> disposeLate,
                          T& out) {
    if (late.any()) return BoundedOutcome::busy;
    struct Shared {
        std::mutex mutex;
        std::condition_variable returned;
        bool done = false;
        bool abandoned = false;
        T value{};
    };
    std::shared_ptr<Shared> shared;
    try {
        shared = std::make_shared<Shared>();
        std::thread([shared, &late, call = std::move(call), disposeLate = std::move(disposeLate)]() {
            T value = call();
            std::unique_lock<std::mutex> lock(shared->mutex);
            if (shared->abandoned) {
                lock.unlock();
                disposeLate(value);
                late.remove();
                return;
            }
            shared->value = value;
            shared->done = true;
            shared->returned.notify_all();
        }).detach();
    } catch (...) {
        // No thread (std::system_error) or no memory for it: the callers are noexcept closers.
        return BoundedOutcome::noThread;
    }
    std::unique_lock<std::mutex> lock(shared->mutex);
    if (!shared->returned.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return shared->done; })) {
        // Counted before the thread can see `abandoned`, so it never counts itself out first.
        late.add();
        shared->abandoned = true;
        return BoundedOutcome::late;
    }
    out = shared->value;
    return BoundedOutcome::done;
}

}  // namespace boop
