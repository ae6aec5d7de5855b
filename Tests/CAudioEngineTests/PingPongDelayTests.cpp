#include <doctest/doctest.h>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "dsp/PingPongDelay.hpp"
#include "dsp/Rng.hpp"
#include "rt/Denormals.hpp"

using boop::dsp::PingPongDelay;

namespace {
void run(PingPongDelay& d, const std::vector<float>& in, std::vector<float>& l, std::vector<float>& r, int block = 64) {
    l.assign(in.size(), 0.0f);
    r.assign(in.size(), 0.0f);
    boop::DenormalGuard guard;
    for (size_t i = 0; i < in.size(); i += static_cast<size_t>(block)) {
        const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(block), in.size() - i));
        d.process(in.data() + i, l.data() + i, r.data() + i, n);
    }
}
}  // namespace

TEST_CASE("PingPongDelay impulse response: echoes alternate left, right, left with the feedback gain") {
    const double rate = 48000.0;
    PingPongDelay d;
    d.prepare(rate, 2.0);
    d.setTime(0.25);
    d.setFeedback(0.5f);
    d.setDamping(0.0f);
    d.reset();  // start at the target time, no glide
    std::vector<float> in(48000, 0.0f), l, r;
    in[0] = 1.0f;
    run(d, in, l, r);
    const size_t t = 12000;
    CHECK(l[t] == doctest::Approx(1.0f));
    CHECK(r[t] == doctest::Approx(0.0f));
    CHECK(r[2 * t] == doctest::Approx(0.5f));
    CHECK(l[2 * t] == doctest::Approx(0.0f));
    CHECK(l[3 * t] == doctest::Approx(0.25f));
    double other = 0;
    for (size_t i = 0; i < in.size(); ++i)
        if (i != t && i != 2 * t && i != 3 * t) other += std::fabs(l[i]) + std::fabs(r[i]);
    CHECK(other < 1e-6);
}

TEST_CASE("PingPongDelay damping darkens each repeat") {
    PingPongDelay d;
    d.prepare(44100.0, 1.0);
    d.setTime(0.1);
    d.setFeedback(0.9f);
    d.setDamping(0.8f);
    d.reset();
    std::vector<float> in(44100, 0.0f), l, r;
    in[0] = 1.0f;
    run(d, in, l, r);
    // The first echo is undamped; later ones are smeared, so their peaks fall faster than 0.9^n.
    const size_t t = 4410;
    auto peakAround = [&](const std::vector<float>& x, size_t c) {
        double p = 0;
        for (size_t i = c - 50; i < c + 400; ++i) p = std::max(p, double(std::fabs(x[i])));
        return p;
    };
    CHECK(peakAround(l, 3 * t) < 0.5 * 0.81);
}

TEST_CASE("PingPongDelay stays finite and bounded at maximum feedback on loud noise") {
    PingPongDelay d;
    d.prepare(44100.0, 2.0);
    d.setTime(0.01);
    d.setFeedback(5.0f);  // clamped to 0.98
    d.setDamping(0.0f);
    boop::dsp::Rng rng(3);
    std::vector<float> in(44100 * 10), l, r;
    for (auto& x : in) x = rng.bipolar();
    run(d, in, l, r, 17);
    CHECK(ambtest::nonFinite(l) == 0);
    CHECK(ambtest::peak(l) < 100.0);
    CHECK(ambtest::peak(r) < 100.0);
}

TEST_CASE("PingPongDelay: changing the time glides (no jump) and silence leaves no denormals") {
    PingPongDelay d;
    d.prepare(44100.0, 2.0);
    d.setTime(0.2);
    d.setFeedback(0.6f);
    d.setDamping(0.3f);
    d.reset();
    std::vector<float> in(44100), l, r;
    for (size_t i = 0; i < in.size(); ++i) in[i] = 0.3f * static_cast<float>(std::sin(0.05 * i));
    run(d, in, l, r);
    d.setTime(0.5);
    std::vector<float> l2, r2;
    run(d, in, l2, r2);
    CHECK(ambtest::maxDiff(l2.data(), l2.size()) < 0.1);
    std::vector<float> silence(44100 * 30, 0.0f);
    run(d, silence, l, r);
    CHECK(ambtest::subnormals(l) == 0);
    CHECK(ambtest::subnormals(r) == 0);
}
