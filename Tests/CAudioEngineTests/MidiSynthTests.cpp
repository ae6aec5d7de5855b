#include <doctest/doctest.h>

#include <algorithm>
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
        // As the JACK callback does: frame by frame while a channel volume ramps.
        for (uint32_t done = 0; done < frames;) {
            uint32_t n = frames - done;
            if (synth.volumesRamping()) {
                synth.stepVolumes();
                n = 1;
            }
            engine.render(out.data() + at + done, n);
            done += n;
        }
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

TEST_CASE("all sound off silences a channel within 10 ms, pedal or not") {
    for (uint8_t cc : {120}) {
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

TEST_CASE("all notes off ends the keys down as note-offs: the pedal holds them until it lifts") {
    Rig r;
    r.send(0xB1, 64, 127);
    for (uint8_t k : {60, 64, 67}) r.send(0x91, k, 110);
    r.render(4800);
    r.send(0xB1, 123, 0);
    r.render(24000);
    CHECK(peakAmplitude(r.out, r.out.size() - 4800, r.out.size()) > 0.05);  // held by the pedal
    CHECK(r.synth.notesHeld() == 3);
    r.send(0xB1, 64, 0);
    r.render(48000);
    CHECK(r.synth.notesHeld() == 0);
    CHECK(peakAmplitude(r.out, r.out.size() - 4800, r.out.size()) == 0.0);
    Rig q;
    for (uint8_t k : {60, 64, 67}) q.send(0x91, k, 110);
    q.render(4800);
    q.send(0xB1, 123, 0);
    CHECK(q.synth.notesHeld() == 0);
    q.render(48000);
    CHECK(peakAmplitude(q.out, q.out.size() - 4800, q.out.size()) == 0.0);  // released as note-offs
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

TEST_CASE("CC 7 ramps the notes already sounding from its frame, without a step") {
    Rig r, plain;
    for (Rig* rig : {&r, &plain}) {
        rig->send(0x90, 69, 100);
        rig->render(24000);
    }
    r.send(0xB0, 7, 50);
    r.render(24000);
    plain.render(24000);
    const auto ramp = static_cast<size_t>(std::lround(boop::MidiSynth::kVolumeRampSeconds * Rig::kRate));
    // Nothing changes before the event's frame; the first step is on it. The lowpass passes a
    // frame's input change at b0 (a few 1e-4 of it) on that frame, below a float's resolution of
    // the output there: the change shows from the next frame.
    size_t first = 0;
    while (first < r.out.size() && r.out[first] == plain.out[first]) ++first;
    CHECK(first >= 24000);
    CHECK(first <= 24001);
    // After the ramp (and the lowpass's settling, a few hundred frames), the level is the
    // curve's: (50 / 100)^2 of what it was, sample by sample.
    const float expected = boop::MidiSynth::volumeGain(50);
    double worst = 0.0;
    for (size_t i = 24000 + ramp + 480; i < 48000; ++i)
        if (std::fabs(plain.out[i]) > 0.05f)
            worst = std::max(worst, std::fabs(r.out[i] / plain.out[i] / expected - 1.0));
    CHECK(worst < 1e-3);
    // No step: the largest change from one frame to the next during the ramp is no larger than
    // in the steady tone before it (an instant change would jump by up to 75 % of the peak).
    auto maxStep = [&](size_t a, size_t b) {
        float m = 0.0f;
        for (size_t i = a; i < b; ++i) m = std::max(m, std::fabs(r.out[i] - r.out[i - 1]));
        return m;
    };
    CHECK(maxStep(24000, 24000 + ramp + 480) <= maxStep(12000, 24000) * 1.01f);
    // A change back up ramps the note back to where it would have been.
    r.send(0xB0, 7, 100);
    r.render(12000);
    plain.render(12000);
    double back = 0.0;
    for (size_t i = 48000 + ramp + 480; i < 60000; ++i)
        back = std::max(back, std::fabs(static_cast<double>(r.out[i]) - plain.out[i - 24000]));
    CHECK(back < 1e-3);
}

TEST_CASE("after more notes than voices, each played and let go, a chord sounds whole") {
    // The pool counts a voice as owned until its release has rung out: twenty single notes,
    // each released and silent before the next, leave all sixteen voices free for the chord.
    Rig r;
    for (int i = 0; i < 20; ++i) {
        r.send(0x90, static_cast<uint8_t>(60 + i), 100);
        r.render(4800);
        r.send(0x80, static_cast<uint8_t>(60 + i), 0);
        r.render(14400);
    }
    const size_t chordAt = r.out.size();
    for (uint8_t note : {48, 52, 55}) r.send(0x90, note, 100);
    r.render(24000);
    CHECK(r.synth.notesHeld() == 3);
    for (int note : {48, 52, 55}) {
        // Each chord note's fundamental over 400 ms (Hann-windowed, so its neighbours a third
        // away leak in at under 1 %): a sounding note's amplitude, where a stolen one is gone.
        const double hz = midiToHz(note);
        const size_t n = 19200;
        double c = 0.0, s = 0.0, w = 0.0;
        for (size_t k = 0; k < n; ++k) {
            const size_t i = chordAt + 4800 + k;
            const double hann = 0.5 - 0.5 * std::cos(2.0 * M_PI * static_cast<double>(k) / (n - 1));
            const double ph = 2.0 * M_PI * hz * static_cast<double>(i) / Rig::kRate;
            c += hann * r.out[i] * std::cos(ph);
            s += hann * r.out[i] * std::sin(ph);
            w += hann;
        }
        const double amplitude = 2.0 * std::hypot(c, s) / w;
        INFO("chord note " << note << " amplitude " << amplitude);
        CHECK(amplitude > 0.05);
    }
}
