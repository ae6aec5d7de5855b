// The capture backends' SPSC ring (rt/SampleRing): capacity rounded up to a power of two, writes
// that stop when full, reads that hand back the sequence index of their first frame, wrap-around
// across the end of the buffer, and two threads streaming a counter through it without a loss.
#include <doctest/doctest.h>
#include <cstdint>
#include <thread>
#include <vector>
#include "rt/SampleRing.hpp"

using boop::SampleRing;

namespace {

std::vector<float> ramp(size_t n, float from) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = from + static_cast<float>(i);
    return v;
}

}  // namespace

TEST_CASE("capacity is the next power of two, at least 2") {
    CHECK(SampleRing(0).capacity() == 2);
    CHECK(SampleRing(1).capacity() == 2);
    CHECK(SampleRing(2).capacity() == 2);
    CHECK(SampleRing(3).capacity() == 4);
    CHECK(SampleRing(1000).capacity() == 1024);
    CHECK(SampleRing(1024).capacity() == 1024);
}

TEST_CASE("a write stops at the free space; a read at what is there") {
    SampleRing ring(8);
    const auto data = ramp(12, 0.0f);
    CHECK(ring.write(data.data(), 5) == 5);
    CHECK(ring.available() == 5);
    CHECK(ring.write(data.data() + 5, 7) == 3);  // 8 - 5 free
    CHECK(ring.available() == 8);
    CHECK(ring.write(data.data(), 1) == 0);

    std::vector<float> out(16, -1.0f);
    uint64_t first = 99;
    CHECK(ring.read(out.data(), 16, &first) == 8);
    CHECK(first == 0);
    for (int i = 0; i < 8; ++i) CHECK(out[i] == static_cast<float>(i));
    CHECK(out[8] == -1.0f);
    CHECK(ring.available() == 0);
    CHECK(ring.read(out.data(), 4, &first) == 0);
    CHECK(first == 8);  // the index the next frame will carry
}

TEST_CASE("frames wrap across the buffer's end in order, with running sequence indices") {
    SampleRing ring(8);
    std::vector<float> out(8);
    uint64_t first = 0;
    float next = 0.0f;
    uint64_t expectedIndex = 0;
    // Steps of 5 against a capacity of 8 start every position of the buffer in turn.
    for (int round = 0; round < 40; ++round) {
        const auto data = ramp(5, next);
        REQUIRE(ring.write(data.data(), 5) == 5);
        REQUIRE(ring.read(out.data(), 5, &first) == 5);
        CHECK(first == expectedIndex);
        for (int i = 0; i < 5; ++i) CHECK(out[i] == next + static_cast<float>(i));
        next += 5.0f;
        expectedIndex += 5;
    }
}

TEST_CASE("a null index pointer is allowed") {
    SampleRing ring(4);
    const float x[2] = {1.0f, 2.0f};
    ring.write(x, 2);
    float y[2] = {};
    CHECK(ring.read(y, 2, nullptr) == 2);
    CHECK(y[1] == 2.0f);
}

TEST_CASE("a producer and a consumer thread pass a counter through without loss or reordering") {
    SampleRing ring(64);
    constexpr uint64_t total = 200000;
    std::thread producer([&] {
        uint64_t sent = 0;
        float block[37];
        while (sent < total) {
            const uint64_t n = std::min<uint64_t>(37, total - sent);
            for (uint64_t i = 0; i < n; ++i) block[i] = static_cast<float>((sent + i) % 1000003);
            sent += ring.write(block, static_cast<size_t>(n));
            if (sent < total) std::this_thread::yield();
        }
    });
    uint64_t received = 0;
    bool inOrder = true;
    float block[29];
    while (received < total) {
        uint64_t first = 0;
        const size_t n = ring.read(block, 29, &first);
        if (n > 0 && first != received) inOrder = false;
        for (size_t i = 0; i < n; ++i)
            if (block[i] != static_cast<float>((received + i) % 1000003)) inOrder = false;
        received += n;
        if (n == 0) std::this_thread::yield();
    }
    producer.join();
    CHECK(inOrder);
    CHECK(received == total);
    CHECK(ring.available() == 0);
}

TEST_CASE("waitForFrames returns as soon as enough frames are there or the producer has stopped") {
    SampleRing ring(16);
    const auto data = ramp(6, 0.0f);
    ring.write(data.data(), 6);
    // Already enough: no wait, whatever the timeout.
    CHECK(boop::waitForFrames(ring, 4, 60000, 1, [] { return true; }) == 6);
    // Not enough, and the producer is gone: what is there, at once.
    CHECK(boop::waitForFrames(ring, 10, 60000, 1, [] { return false; }) == 6);
    // Not enough and a zero timeout: what is there.
    CHECK(boop::waitForFrames(ring, 10, 0, 1, [] { return true; }) == 6);
}
