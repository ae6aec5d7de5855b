#include <doctest/doctest.h>
#include <cmath>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "TestSignals.hpp"
#include "dsp/FmLead.hpp"
#include "rt/Denormals.hpp"

using boop::dsp::FmLead;

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

namespace {

// The lead as it is defined, one frame at a time in double phases with two scalar sines; FmLead
// computes eight frames per vector and must sound the same.
struct ReferenceLead {
    double sr = 48000.0, cPhase = 0.0, mPhase = 0.0, cInc = 0.0, mInc = 0.0;
    float indexTracked = 0.0f, env = 0.0f, peak = 0.0f, step = 0.0f, decay = 0.0f, attackFrames = 0.0f;
    bool attacking = false, active = false;
    boop::dsp::SvfCoeffs coeffs;
    boop::dsp::SvfState tone;

    void prepare(double rate, double ratio, float index, double attack, double decaySeconds) {
        sr = rate;
        coeffs.set(rate, 7000.0, 0.6);
        attackFrames = static_cast<float>(attack * rate);
        decay = static_cast<float>(std::exp(std::log(0.001) / (decaySeconds * rate)));
        ratioV = ratio;
        indexV = index;
    }
    void noteOn(double f, float velocity) {
        indexTracked = indexV * static_cast<float>(std::min(1.0, std::max(0.2, std::sqrt(400.0 / f))));
        cInc = f / sr;
        mInc = std::min(0.45, f * ratioV / sr);
        peak = velocity;
        step = std::max(0.0f, (peak - env) / attackFrames);
        attacking = step > 0.0f;
        active = true;
    }
    float next() {
        if (!active) return 0.0f;
        if (attacking) {
            env += step;
            if (env >= peak) {
                env = peak;
                attacking = false;
            }
        } else {
            env *= decay;
        }
        const double twoPi = 6.283185307179586;
        const float mod = static_cast<float>(std::sin(twoPi * mPhase));
        const float idx = indexTracked * (0.25f + 0.75f * env);
        const float raw = env * static_cast<float>(std::sin(twoPi * cPhase + static_cast<double>(idx * mod)));
        const float y = tone.lowpass(coeffs, raw);
        cPhase += cInc;
        cPhase -= std::floor(cPhase);
        mPhase += mInc;
        mPhase -= std::floor(mPhase);
        if (!attacking && env < 1e-5f) {
            env = 0.0f;
            active = false;
        }
        return y;
    }
    double ratioV = 2.0;
    float indexV = 2.0f;
};

}  // namespace

// Notes start at frames that are not multiples of eight and retrigger inside an attack and inside
// a decay; then many notes each ring out before the next (where a note ends decides the phase the
// next starts at). Blocks of awkward sizes, both kernels.
TEST_CASE("FmLead: the eight-frame vector rendering matches the frame-by-frame definition") {
    struct Note {
        int frame;
        double hz;
        float velocity;
    };
    std::vector<Note> retriggers = {
        {3, 440.0, 0.8f}, {203, 660.0, 0.9f}, {9001, 220.0, 0.5f}, {9500, 1318.5, 0.7f}, {40003, 523.25, 0.6f}};
    std::vector<Note> endings;
    for (int k = 0; k < 50; ++k)
        endings.push_back(
            {k * 8700 + k % 3, 300.0 + 37.0 * ((k * 7) % 19), 0.55f + 0.01f * static_cast<float>((k * 13) % 40)});
    for (int scenario = 0; scenario < 2; ++scenario) {
        const std::vector<Note>& notes = scenario == 0 ? retriggers : endings;
        const double decay = scenario == 0 ? 0.4 : 0.1;
        const int total = scenario == 0 ? 72000 : 50 * 8700;
        for (bool baseline : {true, false}) {
            if (baseline)
                setenv("BOOP_NO_AVX2", "1", 1);
            else
                unsetenv("BOOP_NO_AVX2");
            FmLead f;
            f.prepare(48000.0);
            f.setRatio(3.5);
            f.setIndex(5.0f);
            f.setEnvelope(0.01, decay);
            unsetenv("BOOP_NO_AVX2");
            ReferenceLead ref;
            ref.prepare(48000.0, 3.5, 5.0f, 0.01, decay);
            std::vector<float> got(static_cast<size_t>(total)), want(static_cast<size_t>(total));
            int frame = 0, b = 0;
            const int blocks[] = {5, 64, 13, 1, 32, 7};
            while (frame < total) {
                for (const auto& nt : notes)
                    if (nt.frame == frame) {
                        f.noteOn(nt.hz, nt.velocity);
                        ref.noteOn(nt.hz, nt.velocity);
                    }
                int n = blocks[b++ % 6];
                for (const auto& nt : notes)
                    if (nt.frame > frame && nt.frame - frame < n) n = nt.frame - frame;
                n = std::min(n, total - frame);
                f.process(got.data() + frame, n);
                for (int i = 0; i < n; ++i) want[static_cast<size_t>(frame + i)] = ref.next();
                frame += n;
            }
            double worst = 0.0;
            for (size_t i = 0; i < got.size(); ++i) worst = std::max(worst, double(std::fabs(got[i] - want[i])));
            INFO("scenario " << scenario << ", kernel " << (baseline ? "baseline" : "selected") << ", worst difference "
                             << worst);
            CHECK(ambtest::rms(want) > 0.05);
            // The envelope is the definition's own recursion, so notes start and end on the same
            // frames; the phases and sines differ by rounding only.
            CHECK(worst < 1e-5);
            CHECK_FALSE(f.active());
        }
    }
}
