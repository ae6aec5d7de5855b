#include <doctest/doctest.h>
#include <atomic>
#include <thread>
#include <vector>
#include "backend/RingCapture.hpp"

// What ALSA's and JACK's captures share: the audio thread mixes down to mono into a ring, the one
// reader takes the frames from it (read) or waits until enough are there (wait). A stand-in for
// the device side: the test writes into the ring as the audio thread would.

namespace {

class FakeCapture : public boop::RingCapture {
  public:
    boop_status start() override { return BOOP_OK; }
    void stop() override { filling_ = false; }
    boop_capture_info info() const override { return {}; }
    boop_capture_stats stats() const override { return {}; }

    void makeRing(std::size_t capacity) { ring_ = std::make_unique<boop::SampleRing>(capacity); }
    std::size_t deviceWrites(const float* data, std::size_t n) { return ring_->write(data, n); }

    std::atomic<bool> filling_{true};
    double period_ = 0.001;

  protected:
    bool filling() const noexcept override { return filling_.load(); }
    double periodSeconds() const noexcept override { return period_; }
};

}  // namespace

TEST_CASE("before the ring exists, read and wait return nothing and the first frame is 0") {
    FakeCapture c;
    float out[4] = {9, 9, 9, 9};
    uint64_t first = 77;
    CHECK(c.read(out, 4, &first) == 0);
    CHECK(first == 0);
    CHECK(c.read(out, 4, nullptr) == 0);
    CHECK(c.wait(1, 1000) == 0);  // no ring: returns at once, never sleeps the timeout
    CHECK(out[0] == 9.0f);
}

TEST_CASE("read returns the written frames in order, with each block's sequence index") {
    FakeCapture c;
    c.makeRing(16);
    std::vector<float> written(40);
    for (std::size_t i = 0; i < written.size(); ++i) written[i] = float(i) * 0.5f;
    std::vector<float> got;
    uint64_t expectedFirst = 0;
    // Write 10, read 7 a turn: the ring wraps several times.
    std::size_t w = 0;
    while (got.size() < written.size()) {
        if (w < written.size()) w += c.deviceWrites(written.data() + w, std::min<std::size_t>(10, written.size() - w));
        float buf[7];
        uint64_t first = 0;
        const std::size_t n = c.read(buf, 7, &first);
        if (n > 0) CHECK(first == expectedFirst);
        expectedFirst += n;
        got.insert(got.end(), buf, buf + n);
    }
    CHECK(got == written);
}

TEST_CASE("wait returns as soon as the frames asked for are there") {
    FakeCapture c;
    c.makeRing(64);
    const std::vector<float> x(20, 0.25f);
    c.deviceWrites(x.data(), x.size());
    CHECK(c.wait(20, 60000) == 20);  // already there: no waiting for the timeout
    CHECK(c.wait(5, 60000) == 20);   // reports all that is there
}

TEST_CASE("wait stops waiting once the audio thread no longer fills the ring") {
    FakeCapture c;
    c.makeRing(64);
    const std::vector<float> x(3, 1.0f);
    c.deviceWrites(x.data(), x.size());
    c.filling_ = false;
    CHECK(c.wait(50, 60000) == 3);  // what is there, without the minute's timeout
}

TEST_CASE("a reader waiting on another thread sees the frames the device writes") {
    FakeCapture c;
    c.period_ = 0.0;  // period not known yet: the wait steps 5 ms at a time
    c.makeRing(256);
    std::atomic<std::size_t> seen{0};
    std::thread reader([&] { seen = c.wait(100, 60000); });
    std::vector<float> x(25);
    for (int block = 0; block < 4; ++block) {
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(block * 25 + int(i));
        c.deviceWrites(x.data(), x.size());
    }
    reader.join();
    CHECK(seen.load() == 100);
    std::vector<float> got(100);
    uint64_t first = 1;
    REQUIRE(c.read(got.data(), got.size(), &first) == 100);
    CHECK(first == 0);
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == float(i));
}
