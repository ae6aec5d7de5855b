#include <doctest/doctest.h>
#include <cmath>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "dsp/FdnReverb.hpp"
#include "dsp/Rng.hpp"
#include "rt/Denormals.hpp"

using boop::ambient::FdnReverb;

namespace {
void run(FdnReverb& rv, const std::vector<float>& inL, const std::vector<float>& inR, std::vector<float>& l,
         std::vector<float>& r, int block = 64) {
    l.assign(inL.size(), 0.0f);
    r.assign(inL.size(), 0.0f);
    boop::DenormalGuard guard;
    for (size_t i = 0; i < inL.size(); i += static_cast<size_t>(block)) {
        const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(block), inL.size() - i));
        rv.process(inL.data() + i, inR.data() + i, l.data() + i, r.data() + i, n);
    }
}

// RT60 from the Schroeder backward-integrated energy decay curve, fitted between -5 and -25 dB
// (T20) and extrapolated to 60 dB.
double rt60(const std::vector<float>& l, const std::vector<float>& r, double rate) {
    std::vector<double> edc(l.size());
    double acc = 0;
    for (size_t i = l.size(); i-- > 0;) {
        acc += double(l[i]) * l[i] + double(r[i]) * r[i];
        edc[i] = acc;
    }
    const double total = edc[0];
    double t5 = -1, t25 = -1;
    for (size_t i = 0; i < edc.size(); ++i) {
        const double db = 10.0 * std::log10(edc[i] / total);
        if (t5 < 0 && db <= -5.0) t5 = i / rate;
        if (t25 < 0 && db <= -25.0) {
            t25 = i / rate;
            break;
        }
    }
    return (t25 - t5) * 3.0;
}
}  // namespace

TEST_CASE("FdnReverb impulse response: nothing before the shortest line, then a dense stereo tail") {
    const double rate = 48000.0;
    FdnReverb rv;
    rv.prepare(rate);
    rv.setSize(0.5f);
    rv.setDecay(2.0);
    rv.setDamping(0.2f);
    std::vector<float> inL(96000, 0.0f), inR(96000, 0.0f), l, r;
    inL[0] = 1.0f;
    inR[0] = 1.0f;
    run(rv, inL, inR, l, r);
    int shortest = rv.lineLength(0);
    for (int i = 1; i < FdnReverb::kLines; ++i) shortest = std::min(shortest, rv.lineLength(i));
    CHECK(ambtest::rms(l, 0, static_cast<size_t>(shortest) - 1) == 0.0);
    CHECK(ambtest::rms(l, 4800, 9600) > 1e-3);
    CHECK(ambtest::rms(r, 4800, 9600) > 1e-3);
    // Left and right are decorrelated, which is what makes the tail wide.
    double lr = 0, ll = 0, rr = 0;
    for (size_t i = 4800; i < 48000; ++i) {
        lr += double(l[i]) * r[i];
        ll += double(l[i]) * l[i];
        rr += double(r[i]) * r[i];
    }
    CHECK(std::fabs(lr / std::sqrt(ll * rr)) < 0.5);
    // Density: by 100 ms most samples are non-zero.
    int zeros = 0;
    for (size_t i = 4800; i < 9600; ++i) zeros += std::fabs(l[i]) < 1e-9f ? 1 : 0;
    CHECK(zeros < 480);
}

TEST_CASE("FdnReverb energy decays at the set RT60") {
    const double rate = 44100.0;
    for (double decay : {0.8, 2.0, 5.0}) {
        for (float size : {0.2f, 0.9f}) {
            FdnReverb rv;
            rv.prepare(rate);
            rv.setSize(size);
            rv.setDecay(decay);
            rv.setDamping(0.0f);
            const size_t n = static_cast<size_t>(rate * decay * 1.5);
            std::vector<float> inL(n, 0.0f), inR(n, 0.0f), l, r;
            inL[0] = 1.0f;
            run(rv, inL, inR, l, r);
            const double measured = rt60(l, r, rate);
            CHECK_MESSAGE(measured == doctest::Approx(decay).epsilon(0.2), "decay " << decay << " size " << size);
        }
    }
}

TEST_CASE("FdnReverb damping shortens the tail") {
    auto measure = [](float damping) {
        FdnReverb rv;
        rv.prepare(44100.0);
        rv.setSize(0.6f);
        rv.setDecay(3.0);
        rv.setDamping(damping);
        std::vector<float> inL(44100 * 4, 0.0f), inR(44100 * 4, 0.0f), l, r;
        inL[0] = inR[0] = 1.0f;
        run(rv, inL, inR, l, r);
        return rt60(l, r, 44100.0);
    };
    CHECK(measure(0.8f) < 0.8 * measure(0.0f));
}

TEST_CASE("FdnReverb stays finite and bounded with the longest decay on loud noise") {
    FdnReverb rv;
    rv.prepare(44100.0);
    rv.setSize(1.0f);
    rv.setDecay(1000.0);  // clamped to 100 s
    rv.setDamping(0.0f);
    boop::ambient::Rng rng(9);
    std::vector<float> inL(44100 * 10), inR(44100 * 10), l, r;
    for (size_t i = 0; i < inL.size(); ++i) {
        inL[i] = rng.bipolar();
        inR[i] = rng.bipolar();
    }
    run(rv, inL, inR, l, r, 33);
    CHECK(ambtest::nonFinite(l) == 0);
    CHECK(ambtest::nonFinite(r) == 0);
    // A lossless-ish network accumulates energy: bounded by the input energy it has received.
    CHECK(ambtest::rms(l, l.size() - 44100, l.size()) < 100.0);
}

TEST_CASE("FdnReverb: block-size independence, reset, and no denormal slowdown in a dying tail") {
    FdnReverb a, b;
    for (FdnReverb* rv : {&a, &b}) {
        rv->prepare(44100.0);
        rv->setSize(0.4f);
        rv->setDecay(0.3);
        rv->setDamping(0.5f);
    }
    std::vector<float> inL(44100, 0.0f), inR(44100, 0.0f), l1, r1, l2, r2;
    inL[10] = 1.0f;
    inR[500] = -0.5f;
    run(a, inL, inR, l1, r1, 64);
    run(b, inL, inR, l2, r2, 5);
    CHECK(ambtest::sameBytes(l1, l2));
    CHECK(ambtest::sameBytes(r1, r2));
    a.reset();
    FdnReverb c;
    c.prepare(44100.0);
    c.setSize(0.4f);
    c.setDecay(0.3);
    c.setDamping(0.5f);
    run(a, inL, inR, l1, r1);
    run(c, inL, inR, l2, r2);
    CHECK(ambtest::sameBytes(l1, l2));

    // 20 s of silence after the impulse: 60 dB per 0.3 s takes the tail far below FLT_MIN.
    std::vector<float> silence(44100 * 20, 0.0f), sl, sr;
    run(a, silence, silence, sl, sr);
    CHECK(ambtest::subnormals(sl) == 0);
    CHECK(ambtest::subnormals(sr) == 0);
    if (!ambtest::sanitized()) {
        std::vector<float> block(44100, 0.0f), ol, orr;
        const double tail = ambtest::fastest(3, [&] { run(a, block, block, ol, orr); });
        FdnReverb fresh;
        fresh.prepare(44100.0);
        fresh.setSize(0.4f);
        const double clean = ambtest::fastest(3, [&] { run(fresh, block, block, ol, orr); });
        CHECK(tail < 3.0 * clean + 1e-3);
    }
}
