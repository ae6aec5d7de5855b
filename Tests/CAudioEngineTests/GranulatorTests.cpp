#include <doctest/doctest.h>
#include <cmath>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "dsp/Granulator.hpp"
#include "rt/Denormals.hpp"

using boop::ambient::Granulator;

namespace {
void run(Granulator& g, const std::vector<float>& in, std::vector<float>& l, std::vector<float>& r, int block = 64) {
    l.assign(in.size(), 0.0f);
    r.assign(in.size(), 0.0f);
    boop::DenormalGuard guard;
    for (size_t i = 0; i < in.size(); i += static_cast<size_t>(block)) {
        const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(block), in.size() - i));
        g.process(in.data() + i, l.data() + i, r.data() + i, n);
    }
}
std::vector<float> sine(double f, double rate, size_t n, float a = 0.5f) {
    std::vector<float> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = a * static_cast<float>(std::sin(2.0 * M_PI * f * i / rate));
    return x;
}
// Power of x at frequency f (Goertzel), normalised by length.
double power(const std::vector<float>& x, size_t b, size_t e, double f, double rate) {
    const double w = 2.0 * M_PI * f / rate, c = 2.0 * std::cos(w);
    double s1 = 0, s2 = 0;
    for (size_t i = b; i < e; ++i) {
        const double s = x[i] + c * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    return (s1 * s1 + s2 * s2 - c * s1 * s2) / double(e - b) / double(e - b);
}
}  // namespace

TEST_CASE("Granulator: silence in, silence out") {
    Granulator g;
    g.prepare(44100.0, 1);
    std::vector<float> in(44100 * 2, 0.0f), l, r;
    run(g, in, l, r);
    CHECK(ambtest::rms(l) == 0.0);
    CHECK(g.activeGrains() > 0);  // grains run; they just read silence
}

TEST_CASE("Granulator: an untransposed cloud keeps the input's pitch; pitch spread adds octaves") {
    const double rate = 44100.0;
    auto in = sine(440.0, rate, 44100 * 4);
    Granulator g;
    g.prepare(rate, 5);
    g.setGrain(0.08, 20.0);
    g.setPitchSpread(0.0f);
    std::vector<float> l, r;
    run(g, in, l, r);
    const size_t b = 44100 * 2, e = 44100 * 4;
    CHECK(ambtest::rms(l, b, e) > 0.05);
    CHECK(power(l, b, e, 440.0, rate) > 100.0 * power(l, b, e, 880.0, rate));

    Granulator h;
    h.prepare(rate, 5);
    h.setGrain(0.08, 20.0);
    h.setPitchSpread(1.0f);
    run(h, in, l, r);
    CHECK(power(l, b, e, 880.0, rate) > 0.05 * power(l, b, e, 440.0, rate));
}

TEST_CASE("Granulator: windowed grains do not click, output is bounded") {
    const double rate = 48000.0;
    auto in = sine(200.0, rate, 48000 * 3, 1.0f);
    Granulator g;
    g.prepare(rate, 2);
    g.setGrain(0.5, 80.0);  // maximum overlap
    g.setPitchSpread(1.0f);
    std::vector<float> l, r;
    run(g, in, l, r, 1);
    CHECK(ambtest::nonFinite(l) == 0);
    CHECK(ambtest::peak(l) < 4.0);
    CHECK(g.activeGrains() <= Granulator::kMaxGrains);
    Granulator s;
    s.prepare(rate, 2);
    s.setGrain(0.01, 0.2);  // sparse and short
    run(s, in, l, r);
    // A 200 Hz sine at 1.0 changes by 0.026 per sample; Hann edges keep grains smooth.
    CHECK(ambtest::maxDiff(l.data(), l.size()) < 0.2);
}

TEST_CASE("Granulator: deterministic by seed, different across seeds, block-size independent") {
    auto in = sine(330.0, 44100.0, 44100 * 3);
    auto make = [](std::uint64_t seed) {
        Granulator g;
        g.prepare(44100.0, seed);
        g.setGrain(0.1, 15.0);
        g.setPitchSpread(0.5f);
        return g;
    };
    std::vector<float> l1, r1, l2, r2, l3, r3;
    Granulator a = make(7), b = make(7), c = make(8);
    run(a, in, l1, r1, 64);
    run(b, in, l2, r2, 3);
    run(c, in, l3, r3, 64);
    CHECK(ambtest::sameBytes(l1, l2));
    CHECK(ambtest::sameBytes(r1, r2));
    CHECK_FALSE(ambtest::sameBytes(l1, l3));
    a.reset();
    std::vector<float> l4, r4;
    run(a, in, l4, r4);
    CHECK(ambtest::sameBytes(l1, l4));
}
