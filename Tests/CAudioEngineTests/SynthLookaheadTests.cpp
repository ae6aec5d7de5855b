#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "TestSignals.hpp"
#include "dsp/TruePeak.hpp"
#include "engine/Engine.hpp"
#include "engine/MidiSynth.hpp"
#include "engine/OutputStage.hpp"
#include "engine/SynthBlocks.hpp"

using namespace testsig;

namespace {

constexpr double kRate = 48000.0;

// The true peak (BS.1770-4, 4x) of interleaved stereo, in dBTP.
double truePeakDb(const std::vector<float>& io) {
    boop::dsp::TruePeak meters[2];
    float peak = 0.0f;
    for (auto& m : meters) m.prepare();
    for (size_t i = 0; i < io.size(); ++i) peak = std::max(peak, meters[i % 2].process(io[i]));
    return 20.0 * std::log10(std::max(peak, 1e-12f));
}

// The synth with the loud chord of the limiter's live test (eight keys at velocity 127 on three
// channels, saw and pulse voices too), at +12 dB, through a stage with or without look-ahead.
std::vector<float> loudChord(bool lookahead, uint32_t& latency) {
    boop_engine_config c;
    boop_engine_config_default(&c);
    c.sample_rate = kRate;
    c.channels = 2;
    boop::Engine engine(c);
    boop::MidiSynth synth(
        engine,
        {0, 1, 2, boop::MidiSynth::kPalette + BOOP_VOICE_SAW, boop::MidiSynth::kPalette + BOOP_VOICE_PULSE, 0, 0, 0, 0,
         boop::MidiSynth::kDrums, 0, 0, 0, 0, 0, 0},
        2.0);
    boop::OutputStage stage;
    stage.prepare(kRate, 2, BOOP_CEILING_DBTP);
    stage.setLookahead(lookahead);
    stage.setGainDb(12.0);
    latency = stage.latency();
    const uint8_t keys[][2] = {{0, 60}, {0, 64}, {0, 67}, {0, 72}, {1, 48}, {1, 55},
                               {1, 76}, {2, 36}, {3, 40}, {3, 47}, {4, 52}, {4, 83}};
    for (const auto& k : keys) {
        boop::MidiMessage m;
        m.status = uint8_t(0x90 | k[0]);
        m.data1 = k[1];
        m.data2 = 127;
        synth.handle(m);
    }
    std::vector<float> out(2 * 256 * 188);
    for (uint32_t done = 0; done < 256 * 188; done += 256) {
        float* block = out.data() + 2 * size_t(done);
        boop::renderSynthFrames(synth, engine, block, 256);
        if (done % 4800 == 0) {  // a drum every 100 ms
            boop::MidiMessage m;
            m.status = 0x99;
            m.data1 = done % 9600 == 0 ? 36 : 38;
            m.data2 = 127;
            synth.handle(m);
        }
        stage.process(block, 256);
    }
    return out;
}

}  // namespace

TEST_CASE("--lookahead 0: no delay, and the clipper keeps the true peak under the ceiling") {
    uint32_t latency = 1;
    const std::vector<float> direct = loudChord(false, latency);
    CHECK(latency == 0);
    const double tp = truePeakDb(direct);
    MESSAGE("--lookahead 0, the loud chord at +12 dB: true peak " << tp << " dBTP (ceiling " << BOOP_CEILING_DBTP
                                                                  << ")");
    CHECK(tp <= BOOP_CEILING_DBTP + BOOP_SYNTH_CLIP_MARGIN_DB);
    uint32_t limited = 0;
    const std::vector<float> delayed = loudChord(true, limited);
    CHECK(limited > 0);
    CHECK(truePeakDb(delayed) <= BOOP_CEILING_DBTP + 0.05);
    // Full-scale square waves and noise far over the ceiling: the worst the clipper meets.
    for (const double hz : {50.0, 997.0, 5000.0, 11025.0}) {
        boop::OutputStage stage;
        stage.prepare(kRate, 2, BOOP_CEILING_DBTP);
        stage.setLookahead(false);
        stage.setGainDb(24.0);
        std::vector<float> io(2 * 24000);
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> noise(-1.0f, 1.0f);
        for (size_t i = 0; i < 24000; ++i) {
            io[2 * i] = std::sin(2 * M_PI * hz * double(i) / kRate) >= 0 ? 1.0f : -1.0f;
            io[2 * i + 1] = noise(rng);
        }
        stage.process(io.data(), 24000);
        std::vector<float> square(io.size(), 0.0f), noisy(io.size(), 0.0f);
        for (size_t i = 0; i < io.size(); i += 2) {
            square[i] = io[i];
            noisy[i + 1] = io[i + 1];
        }
        const double sq = truePeakDb(square), wn = truePeakDb(noisy);
        MESSAGE("--lookahead 0 at +24 dB: a " << hz << " Hz square " << sq << " dBTP, white noise " << wn << " dBTP");
        CHECK(sq <= BOOP_CEILING_DBTP + BOOP_SYNTH_CLIP_MARGIN_DB);
        // Full-scale noise clipped sample by sample is a random sequence at the clip level: what
        // lies between its samples no memoryless clipper bounds. The stated worst: 4.5 dB over.
        CHECK(wn <= BOOP_CEILING_DBTP + 4.5);
    }
}

TEST_CASE("--lookahead 0 passes quiet sound unchanged and on its frame") {
    boop::OutputStage stage;
    stage.prepare(kRate, 2, BOOP_CEILING_DBTP);
    stage.setLookahead(false);
    std::vector<float> io(2 * 4800, 0.0f);
    io[200] = 0.25f;
    io[201] = -0.25f;
    stage.process(io.data(), 4800);
    CHECK(io[200] == 0.25f);
    CHECK(io[201] == -0.25f);
    CHECK(firstAbove(io, 0.0f) == 200);
}
