// The voice bank's operations on groups of notes for live MIDI (engine/VoiceBankGroups): a group
// is noteId >> 8; a retune moves only its notes by the ratio (measured in the rendered pitch),
// keeping the phase, and refuses a pitch at or above Nyquist; a fade ends only its notes; a group
// volume scales its notes' level by the volume and by the palette lowpass's gain at their pitch
// (SynthExpression's lowpassGain), measured as RMS ratios.
#include <doctest/doctest.h>
#include <cmath>
#include <cstring>
#include <vector>
#include "TestSignals.hpp"
#include "engine/SynthExpression.hpp"
#include "engine/Timbre.hpp"
#include "engine/VoiceBank.hpp"

using boop::VoiceBank;
using testsig::maxStep;
using testsig::rms;
using testsig::zeroCrossingFrequency;

namespace {

constexpr double kRate = 48000.0;

struct Bank {
    VoiceBank bank;
    uint64_t clock = 0;
    Bank() { bank.prepare(kRate, 8, boop::timbreSpec(BOOP_TIMBRE_TONE)); }

    // `frames` more frames, mono, rendered 256 at a time.
    std::vector<float> render(int frames) {
        std::vector<float> out;
        std::vector<boop::dsp::simd::f8> acc(256);
        std::vector<float> mono(256);
        for (int done = 0; done < frames; done += 256) {
            const int n = std::min(256, frames - done);
            std::fill(acc.begin(), acc.end(), boop::dsp::simd::f8{});
            std::fill(mono.begin(), mono.end(), 0.0f);
            if (bank.render(acc.data(), mono.data(), clock, 0, n))
                for (int i = 0; i < n; ++i) mono[size_t(i)] += boop::dsp::simd::laneTree(acc[size_t(i)]);
            out.insert(out.end(), mono.begin(), mono.begin() + n);
            clock += uint64_t(n);
        }
        return out;
    }
};

constexpr uint32_t note(uint32_t group, uint32_t key) { return group << 8 | key; }

}  // namespace

TEST_CASE("a retune moves its group's note by the ratio; another group's retune leaves it") {
    Bank b;
    b.bank.start(0, 440.0, 0.5f, note(1, 69), 1, 0);
    const auto before = b.render(9600);
    CHECK(zeroCrossingFrequency(before, kRate, 4800, 9600) == doctest::Approx(440.0).epsilon(1e-4));
    b.bank.retuneGroup(2, 2.0);
    const auto other = b.render(4800);
    CHECK(zeroCrossingFrequency(other, kRate, 0, 4800) == doctest::Approx(440.0).epsilon(1e-4));
    const double ratio = std::exp2(200.0 / 1200.0);
    b.bank.retuneGroup(1, ratio);
    const auto after = b.render(4800);
    const double hz = zeroCrossingFrequency(after, kRate, 0, 4800);
    CHECK(1200.0 * std::log2(hz / (440.0 * ratio)) == doctest::Approx(0.0).scale(1.0).epsilon(0.05));
    // The phase runs on: no step at the change larger than the waveform's own.
    std::vector<float> joined(other.end() - 100, other.end());
    joined.insert(joined.end(), after.begin(), after.begin() + 100);
    CHECK(maxStep(joined, 0, joined.size()) < 1.3f * maxStep(after, 100, 4800));
}

TEST_CASE("a retune to or past Nyquist keeps the old pitch") {
    Bank b;
    b.bank.start(0, 1000.0, 0.5f, note(3, 80), 1, 0);
    b.render(4800);
    b.bank.retuneGroup(3, 30.0);  // 30 kHz at 48 kHz
    const auto x = b.render(4800);
    CHECK(zeroCrossingFrequency(x, kRate, 0, 4800) == doctest::Approx(1000.0).epsilon(1e-4));
}

TEST_CASE("a fade ends its group's notes only") {
    Bank b;
    b.bank.start(0, 440.0, 0.5f, note(1, 69), 1, 0);
    b.bank.start(1, 660.0, 0.5f, note(2, 76), 2, 0);
    b.render(4800);
    b.bank.fadeGroup(1, 0.01);
    CHECK(b.bank.state(0) == VoiceBank::LaneState::Fading);
    CHECK(b.bank.state(1) == VoiceBank::LaneState::Held);
    b.render(4800);
    CHECK(b.bank.state(0) == VoiceBank::LaneState::Idle);
    CHECK(b.bank.state(1) == VoiceBank::LaneState::Held);
    CHECK(b.bank.ownedLanes() == 1);
}

TEST_CASE("a group volume scales the level by the volume, and by the lowpass's gain at the pitch") {
    Bank b;
    b.bank.start(0, 2000.0, 0.5f, note(4, 95), 1, 0);
    const double full = rms(b.render(9600), 4800, 9600);
    b.bank.setGroupVolume(4, 0.25f);
    const double quarter = rms(b.render(4800), 0, 4800);
    CHECK(quarter / full == doctest::Approx(0.25).epsilon(1e-3));
    b.bank.setGroupVolume(5, 1.0f);  // another group: no change
    CHECK(rms(b.render(4800), 0, 4800) / full == doctest::Approx(0.25).epsilon(1e-3));
    b.bank.setGroupVolume(4, 1.0f, 500.0);  // CC 74 at 500 Hz: the note at 2 kHz is 4 x above
    const double filtered = rms(b.render(4800), 0, 4800);
    const double expected = boop::lowpassGain(kRate, 500.0, boop::kExpressionQ, 2000.0);
    CHECK(filtered / full == doctest::Approx(expected).epsilon(1e-3));
    CHECK(expected < 0.1);  // -24 dB two octaves above: the check means something
}
