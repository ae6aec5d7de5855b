#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "SynthRig.hpp"
#include "TestSignals.hpp"
#include "engine/Engine.hpp"
#include "engine/MidiSynth.hpp"
#include "engine/OutputStage.hpp"
#include "engine/SynthBlocks.hpp"

using namespace testsig;

namespace {

constexpr int kPalette = boop::MidiSynth::kPalette, kKit = boop::MidiSynth::kKit;

std::vector<float> slice(const std::vector<float>& x, size_t begin, size_t end) {
    return std::vector<float>(x.begin() + long(begin), x.begin() + long(end));
}

}  // namespace

TEST_CASE("every palette voice and kit plays on every channel, voices in tune") {
    for (int ch = 0; ch < 16; ++ch) {
        for (int v = 0; v < BOOP_VOICE_COUNT; ++v) {
            int voices[16];
            std::fill(voices, voices + 16, boop::MidiSynth::kOff);
            voices[ch] = kPalette + v;
            SynthRig r(voices);
            r.send(uint8_t(0x90 | ch), 57, 100);  // A3, 220 Hz
            r.render(24000);
            INFO("voice " << v << " channel " << ch + 1);
            CHECK(rms(r.left, 4800, 24000) > 0.01);
            if (v == BOOP_VOICE_SINE || v == BOOP_VOICE_TRIANGLE || v == BOOP_VOICE_SUB)
                CHECK(std::fabs(centsBetween(zeroCrossingFrequency(r.left, SynthRig::kRate, 4800, 24000), 220.0)) <
                      2.0);
        }
        for (int k = 0; k < BOOP_KIT_COUNT; ++k) {
            int voices[16];
            std::fill(voices, voices + 16, boop::MidiSynth::kOff);
            voices[ch] = kKit + k;
            SynthRig r(voices);
            r.send(uint8_t(0x90 | ch), 36, 120);
            r.render(9600);
            INFO("kit " << k << " channel " << ch + 1);
            CHECK(peakAmplitude(r.left, 0, 9600) > 0.01);
        }
    }
}

TEST_CASE("Program Change picks the nearest palette voice of the GM family") {
    CHECK(boop::MidiSynth::programVoice(0) == BOOP_VOICE_PLUCK);  // piano: its family's voice
    CHECK(boop::MidiSynth::programVoice(38) == BOOP_VOICE_SUB);   // synth bass 1
    CHECK(boop::MidiSynth::programVoice(74) == BOOP_VOICE_SINE);  // recorder: flute (73) is nearer
    CHECK(boop::MidiSynth::programVoice(76) == BOOP_VOICE_SINE);  // a tie: the lower program
    CHECK(boop::MidiSynth::programVoice(77) == BOOP_VOICE_TRIANGLE);
    CHECK(boop::MidiSynth::programVoice(80) == BOOP_VOICE_PULSE);
    CHECK(boop::MidiSynth::programVoice(87) == BOOP_VOICE_SAW);
    CHECK(boop::MidiSynth::programVoice(14) == BOOP_VOICE_FM);
    CHECK(boop::MidiSynth::programVoice(128) == BOOP_VOICE_MAX_ENUM);
    for (int p = 0; p < 128; ++p) CHECK(boop::isVoice(boop::MidiSynth::programVoice(p)));
    // On a channel: program 80 (square) after the version-1 melody; a rhythm channel keeps its kit.
    int voices[16] = {0, 1, 2, 0, 0, 0, 0, 0, 0, boop::MidiSynth::kDrums, 0, 0, 0, 0, 0, 0};
    SynthRig r(voices);
    r.send(0xC0, 80);
    r.send(0xC9, 80);
    CHECK(r.synth.voice(0) == kPalette + BOOP_VOICE_PULSE);
    CHECK(r.synth.voice(9) == boop::MidiSynth::kDrums);
    r.send(0xB9, 0, 1);  // bank select 1: the 808 kit
    CHECK(r.synth.voice(9) == kKit + BOOP_KIT_808);
    r.send(0xB9, 0, 7);  // no such kit: ignored
    CHECK(r.synth.voice(9) == kKit + BOOP_KIT_808);
    r.send(0xB0, 0, 1);  // a melodic channel has no banks
    CHECK(r.synth.voice(0) == kPalette + BOOP_VOICE_PULSE);
}

TEST_CASE("CC 10 pans a palette channel with the equal-power law") {
    struct Case {
        uint8_t cc;
        double left, right;  // expected gains
    };
    const double s2 = std::sqrt(2.0);
    for (const Case c :
         {Case{64, 1.0, 1.0}, Case{0, s2, 0.0}, Case{127, 0.0, s2},
          Case{32, s2 * std::cos((1.0 - 32.0 / 63.0) * M_PI / 4), s2 * std::sin((1.0 - 32.0 / 63.0) * M_PI / 4)}}) {
        int voices[16] = {};
        std::fill(voices, voices + 16, kPalette + BOOP_VOICE_SINE);
        SynthRig r(voices);
        r.send(0xB0, 10, c.cc);
        r.send(0x90, 69, 60);
        r.render(24000);
        SynthRig centre(voices);
        centre.send(0x90, 69, 60);
        centre.render(24000);
        const double mono = rms(centre.left, 4800, 24000);
        const double l = rms(r.left, 4800, 24000), rr = rms(r.right, 4800, 24000);
        INFO("CC 10 = " << int(c.cc) << ": left " << dB(l * l / (mono * mono)) << " dB, right "
                        << dB(rr * rr / (mono * mono)) << " dB");
        MESSAGE("CC 10 = " << int(c.cc) << ": left " << dB(l * l / (mono * mono)) << " dB, right "
                           << dB(rr * rr / (mono * mono)) << " dB re the centre");
        CHECK(l / mono == doctest::Approx(c.left).epsilon(0.002));
        CHECK(rr / mono == doctest::Approx(c.right).epsilon(0.002));
        CHECK((l * l + rr * rr) / (mono * mono) == doctest::Approx(2.0).epsilon(0.002));
    }
}

TEST_CASE("CC 120 takes everything 60 dB down within 10 ms of the heard frame, through the limiter") {
    int voices[16] = {kPalette + BOOP_VOICE_SAW,
                      1,
                      kPalette + BOOP_VOICE_PAD,
                      0,
                      0,
                      0,
                      0,
                      0,
                      0,
                      kKit + BOOP_KIT_808,
                      0,
                      0,
                      0,
                      0,
                      0,
                      0};
    SynthRig r(voices);
    boop::OutputStage stage;
    stage.prepare(SynthRig::kRate, 2, BOOP_CEILING_DBTP);
    for (uint8_t ch : {0, 1, 2})
        for (uint8_t k : {48, 55, 60, 64}) r.send(uint8_t(0x90 | ch), k, 127);
    r.send(0xB0 | 0, 64, 127);
    r.send(0x99, 36, 127);
    r.render(24000);
    for (uint8_t ch = 0; ch < 16; ++ch) r.send(uint8_t(0xB0 | ch), 120, 0);
    r.render(24000);
    // Through the output stage as a host plays it: the heard frame is latency() later.
    std::vector<float> io(2 * r.left.size());
    for (size_t i = 0; i < r.left.size(); ++i) {
        io[2 * i] = r.left[i];
        io[2 * i + 1] = r.right[i];
    }
    stage.process(io.data(), uint32_t(r.left.size()));
    std::vector<float> heard(r.left.size());
    for (size_t i = 0; i < heard.size(); ++i) heard[i] = std::max(std::fabs(io[2 * i]), std::fabs(io[2 * i + 1]));
    const size_t at = 24000 + stage.latency(), ten = at + 480;
    const double before = peakAmplitude(heard, at - 4800, at);
    const double after = peakAmplitude(heard, ten, heard.size());
    const double down = 20 * std::log10(before / std::max(after, 1e-12));
    MESSAGE("CC 120: " << down << " dB under the peak before it, from 10 ms after the heard frame (latency "
                       << stage.latency() << " frames)");
    CHECK(down >= 60.0);
    CHECK(r.synth.notesHeld() == 0);
}

TEST_CASE("controllers move a palette channel's sound: cutoff, attack, release, expression, vibrato, bend") {
    int voices[16];
    std::fill(voices, voices + 16, kPalette + BOOP_VOICE_SAW);
    voices[1] = kPalette + BOOP_VOICE_SINE;
    SynthRig r(voices);
    r.send(0x90, 45, 100);
    r.render(24000);
    const double bright = energy(highpass(slice(r.left, 4800, 24000), SynthRig::kRate, 2000));
    r.send(0xB0, 74, 40);  // about 170 Hz
    r.render(24000);
    const double dark = energy(highpass(slice(r.left, 28800, 48000), SynthRig::kRate, 2000));
    CHECK(dB(dark / bright) < -20.0);
    r.send(0xB0, 11, 64);  // expression: (64/127)^2
    const double full = rms(r.left, 28800, 48000);
    r.render(24000);
    CHECK(rms(r.left, 52800, 72000) / full == doctest::Approx(64.0 * 64.0 / (127.0 * 127.0)).epsilon(0.01));
    // CC 73: a slow attack (about 0.5 s at 86); CC 72: a long release (about 2 s at 97).
    r.send(0xB1, 73, 86);
    r.send(0xB1, 72, 97);
    r.send(0x91, 69, 100);
    r.render(48000);
    const size_t on = 72000;
    CHECK(rms(r.left, on, on + 2400) < 0.2 * rms(r.left, on + 40000, on + 48000));
    r.send(0x81, 69, 0);
    r.render(48000);
    CHECK(rms(r.left, on + 48000 + 38400, on + 96000) > 0.15 * rms(r.left, on + 40000, on + 48000));
    // CC 1 at 127 on the sine: the pitch swings by about +-50 cents; a full bend is +2 semitones.
    SynthRig v(voices);
    v.send(0x91, 69, 100);
    v.send(0xB1, 1, 127);
    v.render(48000);
    double lo = 1e9, hi = 0;
    for (size_t b = 4800; b + 1200 <= 48000; b += 1200) {
        const double f = zeroCrossingFrequency(v.left, SynthRig::kRate, b, b + 1200);
        lo = std::min(lo, f);
        hi = std::max(hi, f);
    }
    CHECK(centsBetween(hi, lo) > 60.0);
    CHECK(centsBetween(hi, lo) < 110.0);
    v.send(0xB1, 1, 0);
    v.send(0xE1, 0x7F, 0x7F);
    v.render(48000);
    CHECK(std::fabs(centsBetween(zeroCrossingFrequency(v.left, SynthRig::kRate, 60000, 96000), 440.0) - 200.0) < 2.0);
}
