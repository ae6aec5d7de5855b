#include <doctest/doctest.h>
#include <cmath>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "TestSignals.hpp"
#include "ambient/FmLead.hpp"
#include "rt/Denormals.hpp"

using boop::ambient::FmLead;

static std::vector<float> run(FmLead& f, size_t frames, int block = 64) {
    std::vector<float> out(frames);
    boop::DenormalGuard guard;
    for (size_t i = 0; i < frames; i += static_cast<size_t>(block))
        f.process(out.data() + i, static_cast<int>(std::min<size_t>(static_cast<size_t>(block), frames - i)));
    return out;
}

TEST_CASE("FmLead with index 0 is a pure sine at the note's frequency") {
    FmLead f;
    f.prepare(44100.0);
    f.setIndex(0.0f);
    f.setEnvelope(0.001, 5.0);
    f.noteOn(523.25, 1.0f);
    auto x = run(f, 44100);
    CHECK(testsig::zeroCrossingFrequency(x, 44100.0, 441, 44100) == doctest::Approx(523.25).epsilon(0.001));
    CHECK(ambtest::peak(x) <= 1.0);
}

TEST_CASE("FmLead envelope: attack to the velocity, then 60 dB down after the decay time") {
    FmLead f;
    f.prepare(48000.0);
    f.setRatio(3.5);
    f.setIndex(3.0f);
    f.setEnvelope(0.01, 1.0);
    f.noteOn(440.0, 0.8f);
    auto x = run(f, 48000 * 2);
    const double early = ambtest::peak(std::vector<float>(x.begin() + 480, x.begin() + 960));
    const double atDecay = ambtest::peak(std::vector<float>(x.begin() + 48000 + 480, x.begin() + 48000 + 960));
    CHECK(early == doctest::Approx(0.8).epsilon(0.02));
    CHECK(20.0 * std::log10(atDecay / early) == doctest::Approx(-60.0).epsilon(0.05));
    CHECK_FALSE(f.active());  // done after 2 s
    CHECK(ambtest::rms(x, 48000 * 2 - 4800, 48000 * 2) < 1e-4);
}

TEST_CASE("FmLead: modulation adds harmonics (the index matters)") {
    auto hf = [](float index) {
        FmLead f;
        f.prepare(44100.0);
        f.setRatio(2.0);
        f.setIndex(index);
        f.setEnvelope(0.001, 10.0);
        f.noteOn(220.0, 1.0f);
        auto x = run(f, 8820);
        return ambtest::maxDiff(x.data() + 4410, 4410);
    };
    CHECK(hf(6.0f) > 2.0 * hf(0.0f));
}

TEST_CASE("FmLead: a retrigger under a ringing note does not click") {
    FmLead f;
    f.prepare(44100.0);
    f.setIndex(1.0f);
    f.setEnvelope(0.005, 2.0);
    f.noteOn(330.0, 0.9f);
    auto a = run(f, 4410);
    f.noteOn(440.0, 0.9f);
    auto b = run(f, 4410);
    std::vector<float> all(a);
    all.insert(all.end(), b.begin(), b.end());
    // A sine at 440 Hz and level 0.9 moves at most 2*pi*440/44100*0.9 = 0.056 per sample, more
    // with modulation; a click would jump by the signal level itself.
    CHECK(ambtest::maxDiff(all.data() + 4400, 40) < 0.25);
}

TEST_CASE("FmLead stays finite and bounded at extreme settings, independent of block size") {
    FmLead f, g;
    for (FmLead* l : {&f, &g}) {
        l->prepare(44100.0);
        l->setRatio(16.0);
        l->setIndex(20.0f);
        l->setEnvelope(0.0001, 0.001);
        l->noteOn(20000.0, 1.0f);
    }
    auto x = run(f, 44100, 64), y = run(g, 44100, 3);
    CHECK(ambtest::nonFinite(x) == 0);
    CHECK(ambtest::peak(x) <= 1.0);
    CHECK(ambtest::sameBytes(x, y));
    CHECK(ambtest::subnormals(x) == 0);
}
