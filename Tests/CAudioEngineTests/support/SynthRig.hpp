#pragma once
// The live synth as its hosts run it, offline: a stereo engine at 48 kHz, the MidiSynth on it
// with a channel map, each block rendered through renderSynthFrames (the palette added) as the
// JACK callback and the LV2 plugin do, left and right kept apart for the checks.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/Engine.hpp"
#include "engine/MidiSynth.hpp"
#include "engine/SynthBlocks.hpp"

namespace testsig {

struct SynthRig {
    static constexpr double kRate = 48000.0;
    boop_engine_config config = [] {
        boop_engine_config c;
        boop_engine_config_default(&c);
        c.sample_rate = kRate;
        c.voices = 16;
        c.channels = 2;
        return c;
    }();
    boop::Engine engine{config};
    boop::MidiSynth synth;
    std::vector<float> left, right;
    uint32_t block;

    explicit SynthRig(const int (&voices)[16], uint32_t blockFrames = 512)
        : synth(engine, voices, 2.0), block(blockFrames) {}

    // One channel playing `voice` (a MidiSynth channel value: kPalette + voice, kKit + kit, ...),
    // every other channel off.
    static const int (&only(int channel, int voice))[16] {
        static int v[16];
        std::fill(v, v + 16, boop::MidiSynth::kOff);
        v[channel] = voice;
        return v;
    }

    void render(uint32_t frames) {
        std::vector<float> out(2 * size_t(frames));
        for (uint32_t done = 0; done < frames;) {
            const uint32_t n = std::min(frames - done, block);
            boop::renderSynthFrames(synth, engine, out.data() + 2 * size_t(done), n);
            done += n;
        }
        for (uint32_t i = 0; i < frames; ++i) {
            left.push_back(out[2 * i]);
            right.push_back(out[2 * i + 1]);
        }
    }
    void send(uint8_t status, uint8_t d1, uint8_t d2 = 0) {
        boop::MidiMessage m;
        m.status = status;
        m.data1 = d1;
        m.data2 = d2;
        synth.handle(m);
    }
    void bend(int ch, int value) { send(uint8_t(0xE0 | ch), uint8_t(value & 0x7F), uint8_t(value >> 7)); }
    void rpn(int ch, uint8_t number, uint8_t msb) {
        send(uint8_t(0xB0 | ch), 101, 0);
        send(uint8_t(0xB0 | ch), 100, number);
        send(uint8_t(0xB0 | ch), 6, msb);
    }
};

}  // namespace testsig
