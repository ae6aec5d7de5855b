#include <doctest/doctest.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>
#include "dsp/GroupScan.hpp"
#include "dsp/SimdTypes.hpp"
#include "dsp/Svf.hpp"
#include "engine/InstrumentTone.hpp"

// One voice's tone before its envelope (InstrumentTone.cpp): eight frames at a time as the lanes
// of a vector, kToneAhead frames a call. Each voice's kernel must make what its formula says
// frame by frame: the phase in 2^-32 turns advanced by the increment each frame, the saw's
// polyBLEP, the pulse as two saws, the triangle, the sines, the FM bell's decaying index, the
// Karplus-Strong string's loop; the filtered kernels are the unfiltered ones through the track's
// lowpass, its state carried from group to group and call to call.

using boop::chooseToneKernel;
using boop::kToneAhead;
using boop::ToneKernel;
using boop::ToneShared;
using boop::ToneState;

namespace {

constexpr double kTwoTo32 = 4294967296.0;
constexpr double kRate = 48000.0;

float unsignedTurns(uint32_t p) { return static_cast<float>(p) * (1.0f / 4294967296.0f); }
float signedTurns(uint32_t p) { return static_cast<float>(static_cast<int32_t>(p)) * (1.0f / 4294967296.0f); }

// dsp::polyBlepSaw's formula, one frame.
float blepSaw(float t, float dt, float invDt) {
    const float u1 = t * invDt, u2 = (t - 1.0f) * invDt;
    const float early = u1 + u1 - u1 * u1 - 1.0f, late = u2 * u2 + u2 + u2 + 1.0f;
    const float blep = t < dt ? early : (t > 1.0f - dt ? late : 0.0f);
    return (t + t - 1.0f) - blep;
}

// A voice tuned as InstrumentBank::tune tunes it (the second oscillator at `ratio` x the pitch).
ToneState tuned(double hz, uint32_t phase, double ratio = 2.0) {
    ToneState t;
    const double increment = std::nearbyint(hz / kRate * kTwoTo32);
    t.increment = static_cast<uint32_t>(increment);
    t.dt = static_cast<float>(increment / kTwoTo32);
    t.invDt = 1.0f / std::max(t.dt, 1e-9f);
    const double increment2 = std::min(std::nearbyint(increment * ratio), kTwoTo32 / 2 - 1);
    t.increment2 = static_cast<uint32_t>(increment2);
    t.dt2 = static_cast<float>(increment2 / kTwoTo32);
    t.invDt2 = 1.0f / std::max(t.dt2, 1e-9f);
    t.phase = phase;
    t.phase2 = phase * 3u;
    return t;
}

// `calls` kernel calls from `state`, concatenated.
std::vector<float> run(ToneKernel kernel, ToneState& state, const ToneShared& shared, int calls) {
    std::vector<float> out(size_t(calls * kToneAhead));
    for (int c = 0; c < calls; ++c) kernel(state, shared, out.data() + c * kToneAhead);
    return out;
}

const double kPitches[] = {27.5, 261.63, 1234.5, 7040.0, 15000.0};

// The baseline kernel of `voice` against `reference(phase, phase2, state)` frame by frame, to the
// bit (the baseline has no fused multiply-adds: the same float operations in the same order).
template <class Reference>
void checkExact(boop_instrument_voice voice, const ToneShared& shared, Reference reference) {
    for (double hz : kPitches) {
        CAPTURE(hz);
        ToneState v = tuned(hz, 0x9e3779b9u);
        const ToneState start = v;
        const std::vector<float> out = run(chooseToneKernel(voice, false, false), v, shared, 4);
        uint32_t p = start.phase, p2 = start.phase2;
        for (size_t i = 0; i < out.size(); ++i, p += start.increment, p2 += start.increment2) {
            CAPTURE(i);
            REQUIRE(out[i] == reference(p, p2, start));
        }
        CHECK(v.phase == p);  // 128 frames' increments, wrapping modulo 2^32
        CHECK(v.phase2 == p2);
    }
}

}  // namespace

TEST_CASE("saw: the phase's polyBLEP saw, frame by frame, to the bit") {
    ToneShared shared;
    checkExact(BOOP_VOICE_SAW, shared,
               [](uint32_t p, uint32_t, const ToneState& s) { return blepSaw(unsignedTurns(p), s.dt, s.invDt); });
}

TEST_CASE("pulse: half the difference of two saws, the second offset by the width") {
    for (double width : {0.5, 0.1, 0.9}) {
        CAPTURE(width);
        ToneShared shared;
        shared.widthShift = static_cast<uint32_t>(width * kTwoTo32);
        checkExact(BOOP_VOICE_PULSE, shared, [&](uint32_t p, uint32_t, const ToneState& s) {
            return 0.5f * (blepSaw(unsignedTurns(p), s.dt, s.invDt) -
                           blepSaw(unsignedTurns(p + shared.widthShift), s.dt, s.invDt));
        });
    }
}

TEST_CASE("triangle: 4 |phase| - 1 over the signed phase, and pad: a saw with its octave at half") {
    ToneShared shared;
    checkExact(BOOP_VOICE_TRIANGLE, shared,
               [](uint32_t p, uint32_t, const ToneState&) { return std::fabs(signedTurns(p)) * 4.0f - 1.0f; });
    checkExact(BOOP_VOICE_PAD, shared, [](uint32_t p, uint32_t p2, const ToneState& s) {
        const float octave = blepSaw(unsignedTurns(p2), s.dt2, s.invDt2);
        return 0.6f * (blepSaw(unsignedTurns(p), s.dt, s.invDt) + 0.5f * octave);
    });
}

TEST_CASE("sine and sub: sin(2 pi phase) within the polynomial's error and the phase's float rounding") {
    // sinTurns is within 4.7e-8 of the sine (SimdTypes.hpp); the phase as a float is within half
    // an ulp (3e-8 turns, 1.9e-7 of the sine); the polynomial's float evaluation adds a few ulps:
    // 4e-7 in all. The sub, 1.2 x - 0.3 x^3, multiplies an error in x by at most 2.1.
    constexpr double kSine = 4e-7;
    ToneShared shared;
    for (double hz : kPitches) {
        CAPTURE(hz);
        ToneState a = tuned(hz, 12345u), b = a;
        const ToneState start = a;
        const std::vector<float> sine = run(chooseToneKernel(BOOP_VOICE_SINE, false, false), a, shared, 4);
        const std::vector<float> sub = run(chooseToneKernel(BOOP_VOICE_SUB, false, false), b, shared, 4);
        uint32_t p = start.phase;
        for (size_t i = 0; i < sine.size(); ++i, p += start.increment) {
            const double x = std::sin(2.0 * M_PI * double(static_cast<int32_t>(p)) / kTwoTo32);
            REQUIRE(std::fabs(sine[i] - x) <= kSine);
            REQUIRE(std::fabs(sub[i] - (1.2 * x - 0.3 * x * x * x)) <= 2.1 * kSine + 1e-7);
        }
    }
}

TEST_CASE("fm: the modulation index decays by fmDecay^8 a group, and the bell is a sine of its phase") {
    ToneShared shared;
    shared.setFmDecay(std::pow(0.001, 1.0 / (1.2 * kRate)));  // -60 dB in 1.2 s, as the bank sets it
    ToneState v = tuned(440.0, 0, 3.5);
    v.modIndex = 0.35f;
    float expected = 0.35f;
    std::vector<float> out(kToneAhead);
    for (int call = 0; call < 10; ++call) {
        chooseToneKernel(BOOP_VOICE_FM, false, false)(v, shared, out.data());
        for (int g = 0; g < kToneAhead / 8; ++g) expected *= shared.fmPow8;
        REQUIRE(v.modIndex == expected);
        for (float s : out) REQUIRE(std::fabs(s) <= 1.0f + 4e-7f);
    }
    // With no modulation left it is the carrier's sine, to the bit (the phase wraps to itself).
    ToneState plain = tuned(440.0, 777u, 3.5), sine = plain;
    plain.modIndex = 0.0f;
    const std::vector<float> a = run(chooseToneKernel(BOOP_VOICE_FM, false, false), plain, shared, 2);
    const std::vector<float> b = run(chooseToneKernel(BOOP_VOICE_SINE, false, false), sine, shared, 2);
    CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

namespace {

// The string's loop frame by frame (the baseline's pluckFrames, the reference the group form's
// scan stands for): the sample read, a two-point average, the allpass, the loss of 0.996.
struct ScalarString {
    std::vector<float> line;
    int pos = 0;
    float last = 0, apIn = 0, apOut = 0, apCoeff = 0;
    float step() {
        const float o = line[size_t(pos)];
        const float averaged = 0.5f * (o + last);
        last = o;
        const float ap = apCoeff * averaged + apIn - apCoeff * apOut;
        apIn = averaged;
        apOut = ap;
        line[size_t(pos)] = 0.996f * ap;
        if (++pos >= int(line.size())) pos = 0;
        return o;
    }
};

std::vector<float> excitation(int length) {
    std::vector<float> x(static_cast<size_t>(length));
    uint32_t s = 2463534242u;
    for (float& v : x) {
        s ^= s << 13, s ^= s >> 17, s ^= s << 5;
        v = float(s) / 2147483648.0f - 1.0f;
    }
    return x;
}

}  // namespace

TEST_CASE("pluck: the string's loop, group by group as frame by frame, for short and long strings") {
    // Strings shorter than a group run frame by frame (to the bit); longer ones by a scan over the
    // group, which reassociates the allpass's recursion: a few float ulps a pass of the loop.
    ToneShared shared;
    for (int length : {5, 8, 13, 100, 437}) {
        CAPTURE(length);
        std::vector<float> line = excitation(length);
        ScalarString ref{line, 3 % length, 0.1f, 0.05f, -0.02f, 0.3f};
        ToneState v;
        v.line = line.data();
        v.length = length;
        v.pos = ref.pos;
        v.last = ref.last, v.apIn = ref.apIn, v.apOut = ref.apOut, v.apCoeff = ref.apCoeff;
        const std::vector<float> out = run(chooseToneKernel(BOOP_VOICE_PLUCK, false, false), v, shared, 40);
        for (size_t i = 0; i < out.size(); ++i) {
            CAPTURE(i);
            const float expected = ref.step();
            if (length < 8 || i < size_t(length))  // frame by frame, or the first pass's reads
                REQUIRE(out[i] == expected);
            else
                REQUIRE(std::fabs(out[i] - expected) <= 1e-6f * (1.0f + float(i) / float(length)));
        }
        CHECK(v.pos == ref.pos);
    }
}

TEST_CASE("the filtered kernels are the unfiltered ones through the track's lowpass, state carried") {
    ToneShared shared;
    boop::dsp::SvfCoeffs k;
    k.set(kRate, 1800.0, 2.0);
    shared.setFilter(boop::dsp::SvfStateSpace::of(k));
    for (boop_instrument_voice voice : {BOOP_VOICE_SAW, BOOP_VOICE_TRIANGLE, BOOP_VOICE_SUB}) {
        CAPTURE(voice);
        ToneState a = tuned(330.0, 42u), b = a;
        const std::vector<float> filtered = run(chooseToneKernel(voice, true, false), a, shared, 6);
        const std::vector<float> raw = run(chooseToneKernel(voice, false, false), b, shared, 6);
        float s1 = 0, s2 = 0;
        for (size_t g = 0; g < raw.size(); g += 8) {
            const boop::dsp::simd::f8 y = shared.filter.process(boop::dsp::simd::load8(raw.data() + g), s1, s2);
            for (int j = 0; j < 8; ++j) REQUIRE(filtered[g + size_t(j)] == y[j]);
        }
        CHECK(a.s1 == s1);
        CHECK(a.s2 == s2);
        CHECK(a.phase == b.phase);
    }
}

TEST_CASE("the AVX2 + FMA kernels make the baseline's tones but for fused rounding") {
    if (!boop::dsp::simd::useAvx2()) {
        MESSAGE("this CPU has no AVX2 and FMA: the wide kernels are not used here");
        return;
    }
    ToneShared shared;
    shared.setFmDecay(std::pow(0.001, 1.0 / (1.2 * kRate)));
    for (int voice = 0; voice < BOOP_VOICE_COUNT; ++voice) {
        if (voice == BOOP_VOICE_PLUCK) continue;  // needs a line: the test above
        CAPTURE(voice);
        ToneState a = tuned(523.25, 99u, 3.5), b = a;
        a.modIndex = b.modIndex = 0.35f;
        const auto v = static_cast<boop_instrument_voice>(voice);
        const std::vector<float> wide = run(chooseToneKernel(v, false, true), a, shared, 8);
        const std::vector<float> base = run(chooseToneKernel(v, false, false), b, shared, 8);
        // DESIGN.md: the AVX2 + FMA and baseline builds of these kernels agree within 1e-5.
        for (size_t i = 0; i < wide.size(); ++i) REQUIRE(std::fabs(wide[i] - base[i]) <= 1e-5f);
        CHECK(a.phase == b.phase);
    }
}

TEST_CASE("a voice past the last gets the last voice's kernel (clampVoice), never a null one") {
    auto kernel = [](int voice, bool filtered, bool wide) {
        return chooseToneKernel(static_cast<boop_instrument_voice>(voice), filtered, wide);
    };
    // (A negative value is no boop_instrument_voice at all: the enum holds 0 ... 0x7FFFFFFF.)
    const bool high = kernel(BOOP_VOICE_COUNT + 5, false, false) == kernel(BOOP_VOICE_COUNT - 1, false, false);
    CHECK(high);
    for (int voice = 0; voice < BOOP_VOICE_COUNT; ++voice)
        for (bool f : {false, true})
            for (bool w : {false, true}) {
                const bool made = kernel(voice, f, w) != nullptr;
                CHECK(made);
            }
}
