#include <doctest/doctest.h>
#include <thread>
#include "rt/LockFreeQueue.hpp"

TEST_CASE("queue: capacity rounds to a power of two; push fails when full, pop when empty") {
    boop::LockFreeQueue<int> q(5);
    CHECK(q.capacity() == 8);
    for (int i = 0; i < 8; ++i) CHECK(q.tryPush(i));
    CHECK_FALSE(q.tryPush(99));
    int v = -1;
    for (int i = 0; i < 8; ++i) {
        REQUIRE(q.tryPop(v));
        CHECK(v == i);
    }
    CHECK_FALSE(q.tryPop(v));
}

TEST_CASE("queue: two threads, 10 million events, order and count kept") {
    constexpr uint64_t kCount = 10'000'000;
    boop::LockFreeQueue<uint64_t> q(1024);
    uint64_t refused = 0;
    std::thread producer([&] {
        for (uint64_t i = 0; i < kCount;) {
            if (q.tryPush(i))
                ++i;
            else {
                ++refused;
                std::this_thread::yield();
            }
        }
    });
    uint64_t expected = 0;
    bool inOrder = true;
    while (expected < kCount) {
        uint64_t v;
        if (q.tryPop(v)) {
            if (v != expected) inOrder = false;
            ++expected;
        } else {
            std::this_thread::yield();
        }
    }
    producer.join();
    CHECK(inOrder);
    CHECK(expected == kCount);
    MESSAGE("pushes refused while full (retried): " << refused);
}
