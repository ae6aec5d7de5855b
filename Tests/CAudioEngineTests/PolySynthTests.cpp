#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "TestSignals.hpp"
#include "dsp/PolySynth.hpp"
#include "rt/Denormals.hpp"

using boop::dsp::PolySynth;

namespace {
struct Stereo {
    std::vector<float> l, r;
};
Stereo run(PolySynth& p, size_t frames, int block = 64) {
    Stereo s{std::vector<float>(frames), std::vector<float>(frames)};
    boop::DenormalGuard guard;
    for (size_t i = 0; i < frames; i += static_cast<size_t>(block)) {
        const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(block), frames - i));
        p.process(s.l.data() + i, s.r.data() + i, n);
    }
    return s;
}
}  // namespace

TEST_CASE("PolySynth is silent until a note starts, then plays the note's pitch") {
    PolySynth p;
    p.prepare(48000.0, 1);
    p.setDetuneCents(0.0f);
    p.setAttack(0.01);
    p.setFilter(300.0, 0.5);  // leaves the saw's fundamental nearly alone
    auto silent = run(p, 4800);
    CHECK(ambtest::rms(silent.l) == 0.0);
    p.noteOn(110.0, 0.5f);
    auto s = run(p, 48000);
    CHECK(ambtest::rms(s.l, 24000, 48000) > 0.01);
    const double f = testsig::zeroCrossingFrequency(s.l, 48000.0, 9600, 48000);
    CHECK(f == doctest::Approx(110.0).epsilon(0.005));
    CHECK(p.activeVoices() == 1);
}

TEST_CASE("PolySynth: a higher cutoff lets more high frequencies through") {
    auto brightness = [](double cutoff) {
        PolySynth p;
        p.prepare(44100.0, 3);
        p.setAttack(0.01);
        p.setFilter(cutoff, 0.7);
        p.noteOn(220.0, 0.3f);
        auto s = run(p, 22050);
        return ambtest::maxDiff(s.l.data() + 11025, 11025) / (ambtest::rms(s.l, 11025, 22050) + 1e-12);
    };
    CHECK(brightness(4000.0) > 2.0 * brightness(400.0));
}

TEST_CASE("PolySynth: voices release to silence and become free") {
    PolySynth p;
    p.prepare(44100.0, 2);
    p.setAttack(0.01);
    p.setRelease(0.2);
    for (int i = 0; i < 3; ++i) p.noteOn(220.0 * (i + 1), 0.2f);
    run(p, 4410);
    CHECK(p.activeVoices() == 3);
    p.releaseAll();
    auto s = run(p, 44100);
    CHECK(p.activeVoices() == 0);
    CHECK(ambtest::rms(s.l, 22050, 44100) == 0.0);
    CHECK(ambtest::maxDiff(s.l.data(), 44100) < 0.1);  // release is smooth
}

TEST_CASE("PolySynth: a seventh note reuses the quietest voice") {
    PolySynth p;
    p.prepare(44100.0, 2);
    p.setAttack(0.01);
    for (int i = 0; i < 6; ++i) p.noteOn(100.0 * (i + 1), 0.1f);
    CHECK(p.activeVoices() == 6);
    p.noteOn(1000.0, 0.1f);
    CHECK(p.activeVoices() == 6);
}

TEST_CASE("PolySynth stays finite and bounded at extreme settings") {
    PolySynth p;
    p.prepare(44100.0, 9);
    p.setDetuneCents(100.0f);
    p.setAttack(0.001);
    p.setFilter(30000.0, 20.0);  // clamped below Nyquist, maximum resonance
    for (int i = 0; i < 6; ++i) p.noteOn(15000.0 + 1000.0 * i, 1.0f);
    auto s = run(p, 44100, 13);
    CHECK(ambtest::nonFinite(s.l) == 0);
    CHECK(ambtest::nonFinite(s.r) == 0);
    CHECK(ambtest::peak(s.l) < 50.0);
    p.setFilter(5.0, 0.0);  // clamped the other way
    auto t = run(p, 4410);
    CHECK(ambtest::nonFinite(t.l) == 0);
}

TEST_CASE("PolySynth: output is independent of block size, and reset() equals a fresh instance") {
    auto make = [] {
        PolySynth p;
        p.prepare(44100.0, 11);
        p.setAttack(0.05);
        p.setFilter(1500.0, 2.0);
        p.noteOn(196.0, 0.3f);
        p.noteOn(293.7, 0.3f);
        return p;
    };
    PolySynth a = make(), b = make();
    auto x = run(a, 20000, 64);
    auto y = run(b, 20000, 7);
    CHECK(ambtest::sameBytes(x.l, y.l));
    CHECK(ambtest::sameBytes(x.r, y.r));
    a.reset();
    a.noteOn(196.0, 0.3f);
    a.noteOn(293.7, 0.3f);
    PolySynth c = make();
    CHECK(ambtest::sameBytes(run(a, 5000).l, run(c, 5000).l));
}

TEST_CASE("PolySynth: release tails never leave denormals (no slowdown)") {
    PolySynth p;
    p.prepare(44100.0, 5);
    p.setAttack(0.01);
    p.setRelease(0.05);
    p.noteOn(440.0, 0.5f);
    run(p, 4410);
    p.releaseAll();
    auto tail = run(p, 44100 * 5);
    CHECK(ambtest::subnormals(tail.l) == 0);
    CHECK(ambtest::subnormals(tail.r) == 0);
}

// The pad's kernel is compiled twice (baseline, and AVX2 + FMA chosen at run time); both must
// play the same music: only the rounding of fused multiply-adds may differ.
TEST_CASE("PolySynth: the baseline and the run-time selected kernels agree") {
    auto render = [](bool baseline) {
        if (baseline)
            setenv("BOOP_NO_AVX2", "1", 1);
        else
            unsetenv("BOOP_NO_AVX2");
        PolySynth p;
        p.prepare(48000.0, 7);
        p.setAttack(0.05);
        p.setRelease(0.2);
        p.setFilter(1500.0, 2.0);
        for (double f : {110.0, 164.8, 220.0, 277.2, 329.6, 440.0}) p.noteOn(f, 0.15f);
        auto a = run(p, 24000, 333);
        p.releaseAll();
        auto b = run(p, 24000, 333);
        a.l.insert(a.l.end(), b.l.begin(), b.l.end());
        a.r.insert(a.r.end(), b.r.begin(), b.r.end());
        return a;
    };
    const Stereo base = render(true), wide = render(false);
    unsetenv("BOOP_NO_AVX2");
    float worst = 0.0f;
    for (size_t i = 0; i < base.l.size(); ++i)
        worst = std::max({worst, std::fabs(base.l[i] - wide.l[i]), std::fabs(base.r[i] - wide.r[i])});
    INFO("worst difference " << worst);
    CHECK(ambtest::rms(base.l) > 0.01);
    CHECK(worst < 1e-4f);
}

// The FM lead's lowpass stepped inside the pad's kernel (processBeside) gives the samples of the
// pad and the lead rendered one after the other, bit for bit, in both kernels; through the pad's
// release to silence (where the lead is left to its own filter) and the lead's notes ending.
TEST_CASE("PolySynth: the lead stepped beside the pad gives the samples of the two apart") {
    using boop::dsp::FmLead;
    using boop::dsp::FmLeadTerms;
    using boop::dsp::PadBeside;
    for (bool baseline : {true, false}) {
        CAPTURE(baseline);
        if (baseline)
            setenv("BOOP_NO_AVX2", "1", 1);
        else
            unsetenv("BOOP_NO_AVX2");
        PolySynth pads[2];
        FmLead leads[2];
        for (int k = 0; k < 2; ++k) {
            pads[k].prepare(44100.0, 5);
            pads[k].setRelease(0.3);
            leads[k].prepare(44100.0);
            leads[k].setEnvelope(0.005, 0.2);
            for (double f : {110.0, 164.8, 220.0}) pads[k].noteOn(f, 0.2f);
        }
        std::vector<float> apart, beside;
        float l[32], r[32], o[32];
        for (int b = 0; b < 3000; ++b) {
            const int m = b % 7 == 0 ? 13 : 32;
            for (int k = 0; k < 2; ++k) {
                if (b % 150 == 0) leads[k].noteOn(440.0 + b, 0.6f);
                if (b == 1000) pads[k].releaseAll();
                if (k == 0) {
                    pads[0].process(l, r, m);
                    leads[0].process(o, m);
                } else {
                    FmLeadTerms t;
                    const int live = leads[1].terms(t, m);
                    if (!pads[1].processBeside(l, r, m, PadBeside{&leads[1].state(), &t, live, o}))
                        leads[1].filter(t, live, o, m);
                }
                auto& out = k == 0 ? apart : beside;
                out.insert(out.end(), l, l + m);
                out.insert(out.end(), r, r + m);
                out.insert(out.end(), o, o + m);
            }
        }
        CHECK(ambtest::rms(apart) > 0.01);
        CHECK(ambtest::sameBytes(apart, beside));
    }
    unsetenv("BOOP_NO_AVX2");
}
