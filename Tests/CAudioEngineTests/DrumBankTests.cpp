// The engine plays drums through DrumBank (tones in eight vector lanes, noise read from tables
// filtered when the engine is prepared); the scalar DrumVoice is the reference definition of each
// sound. Given the same noise tables, the two differ only in arithmetic: a 32-bit phase with
// truncated increments and the polynomial sine instead of a double phase and std::sin (phase
// error < 3e-5 turn after 2.6 s, sine error < 5e-8), the sweep decayed in float, the noise's
// decay taken eight frames at a time, and fused multiply-adds in the AVX2 kernel. So they must
// agree sample for sample to 2e-4 of full scale (-74 dB), which keeps every envelope window and
// every octave band of the spectrum within 0.05 dB wherever the sound is above -60 dB.
//
// That the tables are the noise DrumVoice generates (xorshift through the kind's filter) is held
// separately, by their spectra (DrumNoiseTests).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "TestSignals.hpp"
#include "dsp/DrumNoise.hpp"
#include "reference/DrumVoice.hpp"

using namespace testsig;

namespace {

constexpr double kRate = 44100.0;
constexpr float kMasterGain = 0.3f;  // the engine's; drum peaks stay under the soft clipper's knee

// The engine's rule, written plainly: a free voice, else the oldest hit.
struct ReferenceDrums {
    boop::reference::DrumVoice voices[8];
    uint64_t order = 0;
    uint32_t seed = 0;
    boop::dsp::DrumNoiseTables tables;
    ReferenceDrums() {
        tables.prepare(kRate);
        for (auto& v : voices) {
            v.prepare(kRate);
            v.useNoiseTables(&tables);
        }
    }
    void hit(uint32_t key, float gain) {
        boop::reference::DrumVoice* slot = nullptr;
        for (auto& v : voices)
            if (!slot && !v.isActive()) slot = &v;
        if (!slot) {
            slot = &voices[0];
            for (auto& v : voices)
                if (v.order() < slot->order()) slot = &v;
        }
        slot->trigger(key, gain, ++seed, ++order);
    }
    float process() {
        float sum = 0.0f;
        for (auto& v : voices) sum += v.process();
        return sum * kMasterGain;
    }
};

struct Comparison {
    float worstSample = 0;
    double worstEnvelopeDb = 0, worstBandDb = 0;
};

Comparison compare(const std::vector<float>& x, const std::vector<float>& ref) {
    Comparison c;
    for (size_t i = 0; i < x.size(); ++i) c.worstSample = std::max(c.worstSample, std::fabs(x[i] - ref[i]));
    const size_t window = static_cast<size_t>(0.01 * kRate);
    for (size_t at = 0; at + window <= x.size(); at += window) {
        const double r = rms(ref, at, at + window);
        if (r < 1e-3) continue;  // -60 dB
        c.worstEnvelopeDb = std::max(c.worstEnvelopeDb, std::fabs(20 * std::log10(rms(x, at, at + window) / r)));
    }
    const auto a = octaveProfile(x, kRate), b = octaveProfile(ref, kRate);
    for (size_t k = 0; k < a.size(); ++k)
        if (b[k] > -60) c.worstBandDb = std::max(c.worstBandDb, std::fabs(a[k] - b[k]));
    return c;
}

void forBothKernels(const std::function<void(const char*)>& body) {
    // The x86-64-v2 baseline and AVX2 + FMA (what this CPU selects when it has them).
    for (int kernel = 0; kernel < 2; ++kernel) {
        if (kernel == 0) setenv("BOOP_NO_AVX2", "1", 1);
        if (kernel == 1) unsetenv("BOOP_NO_AVX2");
        body(kernel == 0 ? "baseline kernel" : "run-time selected kernel");
    }
    unsetenv("BOOP_NO_AVX2");
}

}  // namespace

TEST_CASE("every drum key sounds as the scalar reference voice: samples, envelope, octave bands") {
    forBothKernels([](const char* kernel) {
        for (uint32_t key = 35; key <= 81; ++key) {
            const size_t frames = static_cast<size_t>(3 * kRate);
            ReferenceDrums reference;
            reference.hit(key, 1.0f);
            std::vector<float> ref(frames);
            for (float& v : ref) v = reference.process();

            EngineHandle engine(kRate);
            boop_engine_drum_hit(engine, 0, key, 1.0f);
            const auto x = engine.render(frames, 333);
            const Comparison c = compare(x, ref);
            INFO(std::string(kernel) << ", key " << key << ": worst sample " << c.worstSample << ", envelope "
                                     << c.worstEnvelopeDb << " dB, band " << c.worstBandDb << " dB");
            CHECK(c.worstSample < 2e-4f);
            CHECK(c.worstEnvelopeDb < 0.05);
            CHECK(c.worstBandDb < 0.05);
            // The hit ends (under -80 dB) when the reference's does.
            CHECK(boop_engine_active_voices(engine) == (reference.voices[0].isActive() ? 1u : 0u));
        }
    });
}

TEST_CASE("a busy kit: overlapping hits, the ninth steals the oldest, a fade ends them all") {
    forBothKernels([](const char* kernel) {
        const uint32_t keys[] = {36, 42, 38, 46, 49, 39, 45, 51, 36, 42, 37, 57};
        const size_t spacing = static_cast<size_t>(0.05 * kRate), frames = static_cast<size_t>(2 * kRate);
        const size_t fadeAt = static_cast<size_t>(1.2 * kRate);
        ReferenceDrums reference;
        std::vector<float> ref(frames);
        EngineHandle engine(kRate);
        for (size_t i = 0; i < frames; ++i) {
            if (i % spacing == 0 && i / spacing < std::size(keys)) {
                const uint32_t key = keys[i / spacing];
                const float gain = 0.4f + 0.05f * float(i / spacing);
                reference.hit(key, gain);
                boop_engine_drum_hit(engine, i, key, gain);
            }
            if (i == fadeAt)
                for (auto& v : reference.voices) v.fade(0.01);
            ref[i] = reference.process();
        }
        boop_engine_all_notes_off(engine, fadeAt, 0.01);
        const auto x = engine.render(frames, 256);
        const Comparison c = compare(x, ref);
        INFO(std::string(kernel) << ": worst sample " << c.worstSample << ", envelope " << c.worstEnvelopeDb
                                 << " dB, band " << c.worstBandDb << " dB");
        CHECK(c.worstSample < 2e-4f);
        CHECK(c.worstEnvelopeDb < 0.05);
        CHECK(c.worstBandDb < 0.05);
        CHECK(rms(x, fadeAt + static_cast<size_t>(0.011 * kRate), frames) == 0.0);
    });
}

TEST_CASE("drums give the same bits whatever the block size: hits on odd frames, ringing, a fade") {
    forBothKernels([](const char* kernel) {
        const uint32_t keys[] = {36, 42, 38, 46, 49, 39, 45, 37, 36, 42, 50, 36};
        std::vector<float> reference;
        for (uint32_t block : {1u, 7u, 64u, 333u, 1000u, 4096u}) {
            EngineHandle engine(kRate, 8, 1, 4096);
            for (size_t i = 0; i < std::size(keys); ++i)
                boop_engine_drum_hit(engine, 1 + 9973 * i, keys[i], 0.5f + 0.04f * float(i));
            boop_engine_all_notes_off(engine, 150001, 0.05);
            boop_engine_drum_hit(engine, 160003, 36, 1.0f);
            const auto x = engine.render(static_cast<size_t>(4.5 * kRate), block);
            INFO(std::string(kernel) << ", block " << block);
            CHECK(rms(x, 0, x.size()) > 0.01);
            if (reference.empty())
                reference = x;
            else {
                size_t first = 0;
                while (first < x.size() && reference[first] == x[first]) ++first;
                INFO("first difference at frame " << first);
                CHECK(first == x.size());
            }
        }
    });
}
