#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "dsp/Rng.hpp"
#include "engine/MidiArrival.hpp"

using boop::MidiArrivalClock;
using boop::MidiArrivalScheduler;
using boop::MidiMessage;

namespace {

constexpr double kRate = 48000;
constexpr uint32_t kPeriod = 256;
constexpr double kNsPerFrame = 1e9 / kRate;
constexpr int64_t kOneMsFrames = 48;

MidiMessage noteOn(uint8_t key) { return MidiMessage{0x90, key, 100}; }

// An ALSA I/O thread as the scheduler meets it: a block of one period rendered when the device's
// clock (`ppm` off the system's) reaches it, each wake-up up to `jitterNs` late (a late one
// followed by a prompt one renders two blocks close together). Events arrive at the given times;
// the frame each is played on comes back in `played`.
struct Simulation {
    uint64_t startNs = 1'000'000'000;
    uint64_t startFrame = 0;
    double ppm = 0;
    uint64_t jitterNs = 0;
    MidiArrivalScheduler scheduler{1024};
    std::vector<int64_t> played;

    void run(const std::vector<uint64_t>& arrivals, uint64_t blocks) {
        scheduler.clock().prepare(kRate, kPeriod);
        boop::dsp::Rng rng(7);
        const double devNsPerFrame = kNsPerFrame * (1.0 + ppm * 1e-6);
        std::size_t next = 0;
        uint64_t head = startFrame;
        for (uint64_t b = 0; b < blocks; ++b) {
            // The device has room for this block once the one before it started playing.
            uint64_t due = startNs + uint64_t(double(b) * kPeriod * devNsPerFrame);
            due += uint64_t(rng.uniform() * double(jitterNs));
            while (next < arrivals.size() && int64_t(arrivals[next] - due) <= 0) {
                scheduler.arrive(arrivals[next], noteOn(60));
                ++next;
            }
            uint32_t done = 0, at = 0;
            MidiMessage m;
            while (scheduler.next(head, kPeriod, done, at, m)) {
                played.push_back(int64_t(head - startFrame) + at);
                done = at;
            }
            head += kPeriod;
            scheduler.clock().observe(due, head);
        }
    }
};

std::vector<uint64_t> randomArrivals(uint64_t fromNs, int count, uint64_t maxGapNs, uint32_t seed) {
    boop::dsp::Rng rng(seed);
    std::vector<uint64_t> out;
    uint64_t t = fromNs;
    for (int i = 0; i < count; ++i) {
        t += 100'000 + uint64_t(rng.uniform() * double(maxGapNs));
        out.push_back(t);
    }
    return out;
}

void checkSpacing(const std::vector<uint64_t>& arrivals, const std::vector<int64_t>& played) {
    REQUIRE(played.size() == arrivals.size());
    int64_t worst = 0;
    for (std::size_t i = 1; i < played.size(); ++i) {
        const double wanted = double(arrivals[i] - arrivals[i - 1]) / kNsPerFrame;
        const int64_t error = std::llabs(std::llround(double(played[i] - played[i - 1]) - wanted));
        worst = std::max(worst, error);
    }
    MESSAGE("worst spacing error: " << worst << " frames");
    CHECK(worst <= kOneMsFrames);
}

}  // namespace

TEST_CASE("an event is placed by the formula: head + round((arrival - time) / ns per frame) + delay") {
    MidiArrivalClock clock;
    clock.prepare(kRate, kPeriod);
    MidiArrivalClock::Line line;
    CHECK_FALSE(clock.line(line));  // nothing reported yet
    clock.observe(5'000'000'000, 1024);
    REQUIRE(clock.line(line));
    CHECK(line.timeNs == 5'000'000'000);
    CHECK(line.head == 1024);
    CHECK(line.nsPerFrame == doctest::Approx(kNsPerFrame));
    CHECK(MidiArrivalClock::place(line, 5'000'000'000, kPeriod) == 1024 + kPeriod);
    CHECK(MidiArrivalClock::place(line, 5'001'000'000, kPeriod) == 1024 + 48 + kPeriod);  // 1 ms on
    CHECK(MidiArrivalClock::place(line, 5'000'010'416, kPeriod) == 1024 + 0 + kPeriod);   // just under half a frame
    CHECK(MidiArrivalClock::place(line, 5'000'010'417, kPeriod) == 1024 + 1 + kPeriod);   // just over
    CHECK(MidiArrivalClock::place(line, 4'999'000'000, kPeriod) == 1024 - 48 + kPeriod);  // stamped before
}

TEST_CASE("the formula holds across both clocks wrapping") {
    MidiArrivalClock::Line line{~uint64_t(0) - 500'000, ~uint64_t(0) - 10, kNsPerFrame};
    // 1 ms after the stamp's clock wrapped past zero: 48 frames on, the frame clock wrapped too.
    const uint64_t arrival = 500'000 + 1;
    CHECK(MidiArrivalClock::place(line, arrival, kPeriod) == ~uint64_t(0) - 10 + 48 + kPeriod);
    CHECK(MidiArrivalClock::place(line, arrival, kPeriod) == 48 + kPeriod - 11);
}

TEST_CASE("events keep their spacing within 1 ms through a jittery I/O thread") {
    Simulation sim;
    sim.jitterNs = 2'000'000;  // wake-ups up to 2 ms late, against a 5.3 ms period
    const auto arrivals = randomArrivals(sim.startNs + 50'000'000, 400, 30'000'000, 3);
    sim.run(arrivals, 3000);
    checkSpacing(arrivals, sim.played);
    CHECK(sim.scheduler.late() == 0);
    CHECK(sim.scheduler.clock().restarts() == 0);
}

TEST_CASE("a device clock 300 ppm off the system's is followed: spacing within 1 ms over a minute") {
    for (double ppm : {300.0, -300.0}) {
        Simulation sim;
        sim.ppm = ppm;
        sim.jitterNs = 1'000'000;
        const auto arrivals = randomArrivals(sim.startNs + 50'000'000, 600, 190'000'000, 5);
        sim.run(arrivals, 12000);  // 64 s
        checkSpacing(arrivals, sim.played);
        CHECK(sim.scheduler.late() == 0);
    }
}

TEST_CASE("placement and spacing hold when the frame clock and the stamps wrap mid-run") {
    Simulation sim;
    sim.startNs = ~uint64_t(0) - 200'000'000;  // the stamps wrap 0.2 s in
    sim.startFrame = ~uint64_t(0) - 20 * kPeriod;
    sim.jitterNs = 1'000'000;
    const auto arrivals = randomArrivals(sim.startNs + 20'000'000, 100, 10'000'000, 9);
    sim.run(arrivals, 400);
    checkSpacing(arrivals, sim.played);
    CHECK(sim.scheduler.late() == 0);
}

TEST_CASE("a late event is played at the start of the block, counted; out-of-order ones keep arrival order") {
    MidiArrivalScheduler s(64);
    s.clock().prepare(kRate, kPeriod);
    s.clock().observe(1'000'000'000, 1000);
    // Stamped 10 ms before the line's time: placed at 1000 - 480 + 256, before the block at 1000.
    s.arrive(990'000'000, noteOn(60));
    // Then one stamped later than the next (out of order): 2 ms on, then 1 ms on.
    s.arrive(1'002'000'000, noteOn(62));
    s.arrive(1'001'000'000, noteOn(64));
    uint32_t done = 0, at = 0;
    MidiMessage m;
    REQUIRE(s.next(1000, kPeriod, done, at, m));
    CHECK(at == 0);
    CHECK(m.data1 == 60);
    CHECK(s.late() == 1);
    done = at;
    // 1000 + 96 + 256 = 1352: in the next block.
    CHECK_FALSE(s.next(1000, kPeriod, done, at, m));
    REQUIRE(s.next(1256, kPeriod, done, at, m));
    CHECK(at == 96);
    CHECK(m.data1 == 62);
    done = at;
    // Placed on 1304, before the one just played: played after it, on its frame.
    REQUIRE(s.next(1256, kPeriod, done, at, m));
    CHECK(at == 96);
    CHECK(m.data1 == 64);
    CHECK(s.late() == 1);
    CHECK_FALSE(s.next(1256, kPeriod, done, at, m));
}

TEST_CASE("an event before the audio thread's first report is due at once; a stall restarts the line") {
    MidiArrivalScheduler s(64);
    s.clock().prepare(kRate, kPeriod);
    s.arrive(123, noteOn(60));
    uint32_t at = 99;
    MidiMessage m;
    REQUIRE(s.next(777, kPeriod, 0, at, m));
    CHECK(at == 0);
    CHECK(s.late() == 0);
    s.clock().observe(1'000'000'000, 256);
    s.clock().observe(1'000'000'000 + 500'000'000, 512);  // 0.5 s for 256 frames: a stall
    CHECK(s.clock().restarts() == 1);
    MidiArrivalClock::Line line;
    REQUIRE(s.clock().line(line));
    CHECK(line.head == 512);
    CHECK(line.timeNs == 1'500'000'000);
}

TEST_CASE("a full queue drops the event and counts it") {
    MidiArrivalScheduler s(4);
    s.clock().prepare(kRate, kPeriod);
    int pushed = 0;
    for (int i = 0; i < 10; ++i) pushed += s.arrive(uint64_t(i), noteOn(60)) ? 1 : 0;
    CHECK(pushed == 4);
    CHECK(s.dropped() == 6);
}

#include <time.h>

namespace {
// The ALSA synth's I/O thread stamps its reports with CLOCK_MONOTONIC (a vDSO read): under
// RealtimeSanitizer this test dies if that counts as a blocking call.
uint64_t stampLikeTheIoThread() BOOP_RT {
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
    return uint64_t(ts.tv_sec) * 1'000'000'000u + uint64_t(ts.tv_nsec);
}

void reportLikeTheIoThread(MidiArrivalScheduler& s, uint64_t head) BOOP_RT {
    uint32_t at = 0;
    MidiMessage m;
    while (s.next(head - kPeriod, kPeriod, 0, at, m)) {}
    s.clock().observe(stampLikeTheIoThread(), head);
}
}  // namespace

TEST_CASE("the audio thread's side (take due events, stamp, report) is real-time safe") {
    MidiArrivalScheduler s(64);
    s.clock().prepare(kRate, kPeriod);
    for (uint64_t head = kPeriod; head <= 8 * kPeriod; head += kPeriod) {
        s.arrive(stampLikeTheIoThread(), noteOn(60));
        reportLikeTheIoThread(s, head);
    }
    MidiArrivalClock::Line line;
    CHECK(s.clock().line(line));
    CHECK(line.head == 8 * kPeriod);
}
