// MPE on the live synth (MidiSynth::setMpeZone, the MPE Configuration Message): a chord on three
// member channels where each note has its own bend, pressure and CC 74 and the others do not move;
// the member bend range of 48 semitones, RPN 0 and the manager's zone-wide bend.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "SynthRig.hpp"
#include "TestSignals.hpp"
#include "engine/Engine.hpp"
#include "engine/MidiSynth.hpp"
#include "engine/SynthBlocks.hpp"

using namespace testsig;

namespace {

// The lower zone's manager (channel 1) plays the sine voice; blocks of 256 frames.
struct Rig : SynthRig {
    Rig() : SynthRig(only(0, boop::MidiSynth::kPalette + BOOP_VOICE_SINE), 256) {}
};

constexpr int kKeys[3] = {60, 64, 67};  // on member channels 2, 3 and 4

// The chord with note `heard` alone on the left (the others panned hard right): one second
// before and one after `change` runs; returns the left channel.
template <typename Change>
std::vector<float> chord(int heard, Change change) {
    Rig r;
    r.rpn(0, 6, 3);  // the MPE Configuration Message: a lower zone of 3 members
    REQUIRE(r.synth.mpeMembers(false) == 3);
    for (int n = 0; n < 3; ++n) {
        r.send(uint8_t(0xB1 + n), 10, n == heard ? 0 : 127);
        r.send(uint8_t(0x91 + n), uint8_t(kKeys[n]), 100);
    }
    r.render(48000);
    change(r);
    r.render(48000);
    return r.left;
}

double before(const std::vector<float>& x) { return zeroCrossingFrequency(x, Rig::kRate, 9600, 48000); }
double after(const std::vector<float>& x) { return zeroCrossingFrequency(x, Rig::kRate, 57600, 96000); }

// The spread in cents of the frequency over 20 ms windows of [begin, end).
double spread(const std::vector<float>& x, size_t begin, size_t end) {
    double lo = 1e9, hi = -1e9;
    for (size_t b = begin; b + 960 <= end; b += 960) {
        const double f = zeroCrossingFrequency(x, Rig::kRate, b, b + 960);
        lo = std::min(lo, f);
        hi = std::max(hi, f);
    }
    return 1200.0 * std::log2(hi / lo);
}

}  // namespace

TEST_CASE("MPE: one member's bend moves its note 200 cents within 0.01 cent, the others stay put") {
    for (int heard = 0; heard < 3; ++heard) {
        const auto x = chord(heard, [](Rig& r) {
            r.rpn(2, 0, 4);          // RPN 0 on a member: every member bends +-4 semitones
            r.bend(2, 8192 + 4096);  // channel 3 (E4): +2 semitones
        });
        CAPTURE(heard);
        CHECK(std::abs(centsBetween(before(x), midiToHz(kKeys[heard]))) < 0.01);
        CHECK(std::abs(centsBetween(after(x), before(x)) - (heard == 1 ? 200.0 : 0.0)) < 0.01);
    }
}

TEST_CASE("MPE: members bend +-48 semitones by default; the manager's +-2 bends the whole zone") {
    const auto up = chord(0, [](Rig& r) { r.bend(1, 8192 + 4096); });  // half of +48
    CHECK(std::abs(centsBetween(after(up), before(up)) - 2400.0) < 0.01);
    const auto down = chord(2, [](Rig& r) { r.bend(3, 0); });  // G4 - 48 semitones
    CHECK(std::abs(centsBetween(after(down), midiToHz(kKeys[2] - 48))) < 0.01);
    for (int heard = 0; heard < 3; ++heard) {
        const auto zone = chord(heard, [](Rig& r) { r.bend(0, 8192 + 4096); });  // manager: +1 semitone
        CAPTURE(heard);
        CHECK(std::abs(centsBetween(after(zone), before(zone)) - 100.0) < 0.01);
    }
}

TEST_CASE("MPE: channel pressure and CC 74 on a member change only that note") {
    for (int heard = 0; heard < 3; ++heard) {
        CAPTURE(heard);
        const auto pressed = chord(heard, [](Rig& r) { r.send(0xD2, 127); });  // vibrato on E4 alone
        CHECK(spread(pressed, 9600, 48000) < 0.05);
        if (heard == 1)
            CHECK(spread(pressed, 57600, 96000) > 50.0);
        else
            CHECK(spread(pressed, 57600, 96000) < 0.05);
        const auto dark = chord(heard, [](Rig& r) { r.send(0xB2, 74, 0); });  // E4's cutoff to 20 Hz
        const double change = dB(rms(dark, 57600, 96000) / rms(dark, 9600, 48000)) * 2.0;
        if (heard == 1)
            CHECK(change < -30.0);
        else
            CHECK(std::abs(change) < 0.01);
    }
}

TEST_CASE("MPE Configuration Message: zones start, shrink and end; members play the manager's sound") {
    Rig r;
    r.send(0x94, 69, 100);  // channel 5, off outside a zone: silent
    r.render(9600);
    CHECK(rms(r.left, 4800, 9600) < 1e-6);
    r.rpn(0, 6, 4);  // channels 2-5 become members
    CHECK(r.synth.mpeMembers(false) == 4);
    r.send(0x94, 69, 100);
    r.render(48000);
    CHECK(std::abs(centsBetween(zeroCrossingFrequency(r.left, Rig::kRate, 19200, 57600), 440.0)) < 0.01);
    r.rpn(15, 6, 12);  // an upper zone of 12 members leaves the lower zone 2
    CHECK(r.synth.mpeMembers(true) == 12);
    CHECK(r.synth.mpeMembers(false) == 2);
    r.rpn(0, 6, 0);
    CHECK(r.synth.mpeMembers(false) == 0);
}

TEST_CASE("outside MPE, RPN 0 leaves the bend range as configured") {
    Rig r;
    r.rpn(0, 0, 12);
    r.bend(0, 0);
    r.send(0x90, 69, 100);
    r.render(48000);
    CHECK(std::abs(centsBetween(zeroCrossingFrequency(r.left, Rig::kRate, 9600, 48000), 440.0) + 200.0) < 0.01);
}
