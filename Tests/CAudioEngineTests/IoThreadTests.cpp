#include <doctest/doctest.h>
#include <poll.h>

#include <atomic>
#include <thread>
#include "Readable.hpp"
#include "backend/IoThread.hpp"

using boop::IoThread;

// The thread of a backend that no server calls: started with its scheduling settled before
// start() returns, asked to stop by a flag its loop polls, how it ended readable from any thread.
// Priority 0 asks for no real-time scheduling, so these tests need neither privileges nor rtkit.

namespace {

// The loop a backend runs: poll the flag, then report how it ended.
void pollUntilStopped(IoThread& t, std::atomic<long>& turns, boop_status ending) {
    while (!t.stopRequested()) {
        turns.fetch_add(1, std::memory_order_relaxed);
        std::this_thread::yield();
    }
    t.finish(ending);
}

}  // namespace

TEST_CASE("a fresh I/O thread has not started, runs nothing, and reports normal priority") {
    IoThread t;
    CHECK_FALSE(t.started());
    CHECK(t.running() == 0);
    CHECK(t.error() == BOOP_OK);
    CHECK(t.priority() == BOOP_PRIORITY_NORMAL);
    CHECK_FALSE(t.realtimeScheduling());
    t.join();  // joining a thread never started is harmless
}

TEST_CASE("start runs the loop, which stops when asked and reports how it ended") {
    IoThread t;
    std::atomic<long> turns{0};
    REQUIRE(t.start(0, [&] { pollUntilStopped(t, turns, BOOP_ERROR_DEVICE_LOST); }) == BOOP_OK);
    CHECK(t.started());
    // Running from start() until the loop calls finish().
    CHECK(t.running() == 1);
    // Priority 0 asks for nothing: settled (and normal) before start() returned.
    CHECK(t.priority() == BOOP_PRIORITY_NORMAL);
    CHECK_FALSE(t.realtimeScheduling());
    while (turns.load() < 3) std::this_thread::yield();  // the loop really runs
    t.requestStop();
    t.join();
    CHECK(t.running() == 0);
    CHECK(t.error() == BOOP_ERROR_DEVICE_LOST);
    CHECK_FALSE(t.started());
}

TEST_CASE("a second start while one runs is refused and leaves the first running") {
    IoThread t;
    std::atomic<long> turns{0};
    std::atomic<bool> secondRan{false};
    REQUIRE(t.start(0, [&] { pollUntilStopped(t, turns, BOOP_OK); }) == BOOP_OK);
    CHECK(t.start(0, [&] { secondRan = true; }) == BOOP_ERROR_ALREADY_RUNNING);
    CHECK(t.running() == 1);
    t.requestStop();
    t.join();
    CHECK_FALSE(secondRan.load());
    CHECK(t.error() == BOOP_OK);
}

TEST_CASE("after a join the thread starts again with the stop flag, error and running reset") {
    IoThread t;
    std::atomic<long> turns{0};
    REQUIRE(t.start(0, [&] { pollUntilStopped(t, turns, BOOP_ERROR_IO); }) == BOOP_OK);
    t.requestStop();
    t.join();
    REQUIRE(t.error() == BOOP_ERROR_IO);
    REQUIRE(t.stopRequested());

    std::atomic<bool> sawStop{true};
    std::atomic<bool> release{false};
    REQUIRE(t.start(0, [&] {
        sawStop = t.stopRequested();  // the new run begins unasked
        while (!release.load()) std::this_thread::yield();
        t.finish(BOOP_OK);
    }) == BOOP_OK);
    CHECK(t.running() == 1);
    CHECK(t.error() == BOOP_OK);
    release = true;
    t.join();
    CHECK_FALSE(sawStop.load());
    CHECK(t.running() == 0);
}

TEST_CASE("a loop that ends by itself reports its error without being asked to stop") {
    IoThread t;
    REQUIRE(t.start(0, [&] { t.finish(BOOP_ERROR_DEVICE_UNAVAILABLE); }) == BOOP_OK);
    t.join();
    CHECK_FALSE(t.stopRequested());
    CHECK(t.running() == 0);
    CHECK(t.error() == BOOP_ERROR_DEVICE_UNAVAILABLE);
}

TEST_CASE("destroying a started thread joins it") {
    std::atomic<bool> ended{false};
    {
        IoThread t;
        REQUIRE(t.start(0, [&] { ended = true; }) == BOOP_OK);
    }
    CHECK(ended.load());
}

using testfd::readable;

TEST_CASE("the ended descriptor: quiet while the loop runs, readable once it finished, quiet again after a new start") {
    IoThread t;
    REQUIRE(t.endedDescriptor() >= 0);
    CHECK_FALSE(readable(t.endedDescriptor()));
    std::atomic<long> turns{0};
    REQUIRE(t.start(0, [&] { pollUntilStopped(t, turns, BOOP_ERROR_DEVICE_LOST); }) == BOOP_OK);
    while (turns.load() < 3) std::this_thread::yield();
    CHECK_FALSE(readable(t.endedDescriptor()));
    t.requestStop();
    // A control thread asleep in poll() is woken by the loop's end, with no timeout to wait out.
    pollfd p{t.endedDescriptor(), POLLIN, 0};
    CHECK(::poll(&p, 1, -1) == 1);
    CHECK(t.error() == BOOP_ERROR_DEVICE_LOST);
    t.join();
    CHECK(readable(t.endedDescriptor()));  // stays readable: a second look sees it too
    REQUIRE(t.start(0, [&] { pollUntilStopped(t, turns, BOOP_OK); }) == BOOP_OK);
    CHECK_FALSE(readable(t.endedDescriptor()));
    t.requestStop();
    t.join();
    CHECK(readable(t.endedDescriptor()));
}
