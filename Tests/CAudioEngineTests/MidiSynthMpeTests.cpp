// MPE zones of the live synth (MidiSynthMpe.cpp): which channels belong to which zone, the newer
// zone winning where two overlap, members playing the manager's sound and getting their own back
// when the zone ends, the bend ranges inside and outside a zone, and what the manager channel
// passes on to its members. (SynthMpeTests checks the per-note expression itself.)
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "SynthRig.hpp"
#include "TestSignals.hpp"
#include "engine/MidiSynth.hpp"

using boop::MidiSynth;
using namespace testsig;

namespace {

constexpr int kSine = MidiSynth::kPalette + BOOP_VOICE_SINE;
constexpr int kTriangle = MidiSynth::kPalette + BOOP_VOICE_TRIANGLE;
constexpr int kSaw = MidiSynth::kPalette + BOOP_VOICE_SAW;

// Channel 1 (the lower manager) sine, channel 3 triangle, channel 16 (the upper manager) saw,
// the rest off.
const int (&voices())[16] {
    static int v[16];
    std::fill(v, v + 16, MidiSynth::kOff);
    v[0] = kSine;
    v[2] = kTriangle;
    v[15] = kSaw;
    return v;
}

struct Rig : SynthRig {
    Rig() : SynthRig(voices(), 256) {}
    // The frequency of the second half of what the last `frames` rendered.
    double lastFrequency(size_t frames) {
        return zeroCrossingFrequency(left, kRate, left.size() - frames / 2, left.size());
    }
};

}  // namespace

TEST_CASE("members play their manager's sound and get their own back when the zone ends") {
    Rig r;
    r.synth.setMpeZone(false, 3);  // members: channels 2, 3, 4
    for (int ch = 1; ch <= 3; ++ch) CHECK(r.synth.voice(ch) == kSine);
    CHECK(r.synth.voice(4) == MidiSynth::kOff);  // not a member
    r.synth.setMpeZone(false, 0);
    CHECK(r.synth.voice(1) == MidiSynth::kOff);
    CHECK(r.synth.voice(2) == kTriangle);
    CHECK(r.synth.voice(3) == MidiSynth::kOff);

    // The upper zone: manager 16, members down from 15.
    r.synth.setMpeZone(true, 2);
    CHECK(r.synth.voice(14) == kSaw);
    CHECK(r.synth.voice(13) == kSaw);
    CHECK(r.synth.voice(12) == MidiSynth::kOff);
}

TEST_CASE("zones: at most 15 members, and the newer zone shrinks the other to what is left") {
    Rig r;
    r.synth.setMpeZone(false, 40);
    CHECK(r.synth.mpeMembers(false) == 15);
    r.synth.setMpeZone(false, 14);
    r.synth.setMpeZone(true, 3);  // 16 channels less two managers less 3: 11 stay in the lower zone
    CHECK(r.synth.mpeMembers(true) == 3);
    CHECK(r.synth.mpeMembers(false) == 11);
    CHECK(r.synth.voice(11) == kSine);  // channel 12, the lower zone's last member
    CHECK(r.synth.voice(12) == kSaw);   // channel 13, the upper zone's last
    r.synth.setMpeZone(true, 15);       // the whole range: the lower zone ends
    CHECK(r.synth.mpeMembers(false) == 0);
    CHECK(r.synth.voice(2) == kSaw);
    r.synth.setMpeZone(true, 0);
    CHECK(r.synth.voice(2) == kTriangle);
    CHECK(r.synth.voice(0) == kSine);
}

TEST_CASE("a voice set on a member waits for the zone's end; one set on the manager moves the zone") {
    Rig r;
    r.synth.setMpeZone(false, 3);
    r.synth.setVoice(2, kSaw);  // a member: kept for later
    CHECK(r.synth.voice(2) == kSine);
    r.synth.setVoice(0, kTriangle);  // the manager: every member follows
    for (int ch = 0; ch <= 3; ++ch) CHECK(r.synth.voice(ch) == kTriangle);
    r.synth.setMpeZone(false, 0);
    CHECK(r.synth.voice(2) == kSaw);
    CHECK(r.synth.voice(0) == kTriangle);
}

TEST_CASE("the synth's bend range applies outside zones; members keep +-48 until the zone ends") {
    Rig r;
    r.synth.setMpeZone(false, 1);  // channel 2 a member
    r.synth.setBendRange(12.0);
    r.send(0x91, 57, 100);   // A3 on the member
    r.bend(1, 8192 + 4096);  // half of +48: two octaves up
    r.render(48000);
    CHECK(std::abs(centsBetween(r.lastFrequency(48000), midiToHz(57 + 24))) < 0.01);
    r.send(0x81, 57, 0);
    r.synth.setMpeZone(false, 0);  // channel 2 back on its own: the synth's 12 semitones
    r.synth.setVoice(1, kSine);
    r.bend(1, 8192 + 4096);  // half of +12
    r.send(0x91, 57, 100);
    r.render(48000);
    CHECK(std::abs(centsBetween(r.lastFrequency(48000), midiToHz(57 + 6))) < 0.01);
}

TEST_CASE("the manager's pan, volume and all sound off reach every member's notes") {
    Rig r;
    r.synth.setMpeZone(false, 2);
    r.send(0x91, 69, 100);
    r.send(0x92, 76, 100);
    r.render(24000);
    const double playing = rms(r.left, 12000, 24000);
    REQUIRE(playing > 0.01);
    r.send(0xB0, 10, 127);  // the zone's pan hard right: nothing left on the left
    r.render(4800);
    CHECK(rms(r.left, 24000 + 2400, 24000 + 4800) < 1e-6);
    CHECK(rms(r.right, 24000 + 2400, 24000 + 4800) > 0.01);
    r.send(0xB0, 10, 64);
    r.send(0xB0, 7, 0);  // the zone's volume to nothing (a 5 ms ramp)
    r.render(4800);
    CHECK(rms(r.left, 28800 + 480, 28800 + 4800) == 0.0);
    r.send(0xB0, 7, 100);
    r.send(0xB0, 120, 0);  // all sound off: silent within 10 ms
    r.render(4800);
    CHECK(rms(r.left, 33600 + 480, 33600 + 4800) < 1e-6);
}
