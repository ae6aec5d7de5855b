#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "TestSignals.hpp"
#include "engine/Engine.hpp"
#include "engine/MidiSynth.hpp"

using namespace testsig;

namespace {

// An engine at 48 kHz and the synth on it, with the default channel map; render() renders in
// pieces as the JACK callback does, applying each message at its frame.
struct Rig {
    static constexpr double kRate = 48000.0;
    boop_engine_config config = [] {
        boop_engine_config c;
        boop_engine_config_default(&c);
        c.sample_rate = kRate;
        c.voices = 16;
        return c;
    }();
    boop::Engine engine{config};
    boop::MidiSynth synth{engine, {0, 1, 2, 0, 0, 0, 0, 0, 0, boop::MidiSynth::kDrums, 0, 0, 0, 0, 0, 0}, 2.0};
    std::vector<float> out;

    void render(uint32_t frames) {
        const size_t at = out.size();
        out.resize(at + frames);
        engine.render(out.data() + at, frames);
    }
    void send(uint8_t status, uint8_t d1, uint8_t d2) {
        boop::MidiMessage m;
        m.status = status;
        m.data1 = d1;
        m.data2 = d2;
        synth.handle(m);
    }
};

}  // namespace

TEST_CASE("a note-on starts on the frame it is applied at, in tune") {
    Rig r;
    r.render(1000);
    r.send(0x90, 69, 100);
    r.render(48000);
    CHECK(firstAbove(r.out, 0.0f) == 1001);  // the envelope's first sample is 0
    CHECK(std::fabs(centsBetween(zeroCrossingFrequency(r.out, Rig::kRate, 10000, 40000), 440.0)) < 0.5);
    CHECK(r.synth.notesHeld() == 1);
    CHECK(r.synth.lastNote() == 69);
}

TEST_CASE("velocity 0 is a note-off; the pedal holds released notes until it lifts") {
    Rig r;
    r.send(0x90, 60, 100);
    r.render(4800);
    r.send(0x90, 60, 0);
    r.render(24000);
    CHECK(peakAmplitude(r.out, r.out.size() - 4800, r.out.size()) == 0.0);
    r.send(0xB0, 64, 127);
    r.send(0x90, 62, 100);
    r.render(4800);
    r.send(0x80, 62, 0);
    r.render(24000);
    CHECK(peakAmplitude(r.out, r.out.size() - 4800, r.out.size()) > 0.05);  // held by the pedal
    CHECK(r.synth.notesHeld() == 1);
    r.send(0xB0, 64, 0);
    r.render(24000);
    CHECK(peakAmplitude(r.out, r.out.size() - 4800, r.out.size()) == 0.0);
    CHECK(r.synth.notesHeld() == 0);
}

TEST_CASE("all notes off and all sound off silence a channel within 10 ms, pedal or not") {
    for (uint8_t cc : {120, 123}) {
        Rig r;
        r.send(0xB1, 64, 127);
        for (uint8_t k : {60, 64, 67}) r.send(0x91, k, 110);
        r.send(0x99, 36, 120);
        r.render(4800);
        r.send(0xB1, cc, 0);
        r.render(480);  // 10 ms
        r.render(4800);
        CHECK(peakAmplitude(r.out, 4800 + 480, r.out.size()) > 0.0);  // the drum on channel 10 rings on
        Rig q;
        for (uint8_t k : {60, 64, 67}) q.send(0x91, k, 110);
        q.render(4800);
        q.send(0xB1, cc, 0);
        q.render(480);
        q.render(4800);
        CHECK(peakAmplitude(q.out, 4800 + 480, q.out.size()) < 1e-5);  // -100 dBFS: the lowpass rings down
        CHECK(q.synth.notesHeld() == 0);
    }
}

TEST_CASE("pitch bend glides the sounding note and lands in tune; reset centres it") {
    Rig r;
    r.send(0x90, 69, 100);
    r.render(9600);
    r.send(0xE0, 0x7F, 0x7F);  // +8191: two semitones less 1/8192
    r.render(24000);
    const double up = zeroCrossingFrequency(r.out, Rig::kRate, 9600 + 2400, r.out.size());
    CHECK(std::fabs(centsBetween(up, 440.0) - 200.0 * 8191.0 / 8192.0) < 0.5);
    CHECK(maxStep(r.out, 9000, 10200) < 0.05f);  // no step where the bend lands
    r.send(0xB0, 121, 0);
    const size_t from = r.out.size();
    r.render(24000);
    CHECK(std::fabs(centsBetween(zeroCrossingFrequency(r.out, Rig::kRate, from + 2400, r.out.size()), 440.0)) < 0.5);
}

TEST_CASE("channels 2, 3 and 10 sound with their voices; random messages never break it") {
    Rig r;
    r.send(0x91, 60, 100);
    r.send(0x92, 36, 100);
    r.send(0x99, 38, 100);
    r.render(4800);
    CHECK(r.engine.activeVoices() == 3);
    for (uint32_t i = 0; i < 20000; ++i) {
        const uint32_t x = i * 2654435761u;
        r.send(static_cast<uint8_t>(0x80 | (x >> 24 & 0x7F)), static_cast<uint8_t>(x >> 8 & 0x7F),
               static_cast<uint8_t>(x & 0x7F));
        if (i % 64 == 0) r.render(64);
    }
    for (int ch = 0; ch < 16; ++ch) r.send(static_cast<uint8_t>(0xB0 | ch), 120, 0);
    r.render(48000);
    CHECK(peakAmplitude(r.out, r.out.size() - 4800, r.out.size()) == 0.0);
    CHECK(std::isfinite(rms(r.out, 0, r.out.size())));
}
