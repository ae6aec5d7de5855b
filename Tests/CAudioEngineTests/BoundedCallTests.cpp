#include <doctest/doctest.h>

#include <condition_variable>
#include <functional>
#include <mutex>

#include "backend/BoundedCall.hpp"

// A library call that may wait for ever (jack_client_open on a stopped server) is waited for at
// most a time limit; a late one is left to finish, its value disposed of, and calls through the
// same library fail at once until it has.

namespace {

// A gate the test opens by hand: a call waiting on it stands for a server that does not answer.
struct Gate {
    std::mutex mutex;
    std::condition_variable changed;
    bool open = false;
    int disposed = 0;  // values handed to disposeLate
    int lastDisposed = 0;

    void release() {
        std::lock_guard<std::mutex> lock(mutex);
        open = true;
        changed.notify_all();
    }
    void waitOpen() {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return open; });
    }
    void dispose(int value) {
        std::lock_guard<std::mutex> lock(mutex);
        ++disposed;
        lastDisposed = value;
        changed.notify_all();
    }
    void waitDisposed() {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return disposed > 0; });
    }
};

}  // namespace

TEST_CASE("a call that returns in time gives its value, and nothing is left running") {
    boop::LateCalls late;
    int out = 0;
    const auto outcome = boop::callWithin<int>(
        late, 10.0, [] { return 42; }, [](int) { FAIL("not late"); }, out);
    CHECK(outcome == boop::BoundedOutcome::done);
    CHECK(out == 42);
    CHECK_FALSE(late.any());
}

TEST_CASE(
    "a call that does not return in time is left running, later calls are refused, and its value is disposed of") {
    boop::LateCalls late;
    Gate gate;
    int out = -1;
    const auto outcome = boop::callWithin<int>(
        late, 0.01,
        [&gate] {
            gate.waitOpen();
            return 7;
        },
        [&gate](int value) { gate.dispose(value); }, out);
    CHECK(outcome == boop::BoundedOutcome::late);
    CHECK(out == -1);  // nothing came back
    CHECK(late.any());

    // While it still waits inside the library, another call is not even made.
    bool called = false;
    const auto busy = boop::callWithin<int>(
        late, 10.0,
        [&called] {
            called = true;
            return 1;
        },
        [](int) {}, out);
    CHECK(busy == boop::BoundedOutcome::busy);
    CHECK_FALSE(called);

    // The library returns at last: what it gave is disposed of (a client closed), and the next
    // call goes through.
    gate.release();
    gate.waitDisposed();
    CHECK(gate.disposed == 1);
    CHECK(gate.lastDisposed == 7);
    // The late thread counts itself out just after disposing: wait for that without a timer.
    while (late.any()) std::this_thread::yield();
    const auto again = boop::callWithin<int>(
        late, 10.0, [] { return 3; }, [](int) {}, out);
    CHECK(again == boop::BoundedOutcome::done);
    CHECK(out == 3);
}
