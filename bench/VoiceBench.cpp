// ns per voice-sample of the melody voice through the engine, and the real-time factor for
// 8 voices. Run from a release build: build/VoiceBench
#include <cstdint>
#include <cstdio>
#include <vector>
#include "BenchWorkload.hpp"
#include "include/CAudioEngine.h"

static double engineNsPerVoiceSample(uint32_t voices, double seconds, double* realtimeFactor) {
    boop_engine_config c;
    boop_engine_config_default(&c);
    c.sample_rate = bench::kRate;
    c.voices = voices;
    c.max_block_frames = bench::kBlock;
    c.queue_capacity = 1 << 16;
    boop_engine* e = nullptr;
    boop_engine_create(&c, &e);
    std::vector<float> out(bench::kBlock);
    const uint64_t total = uint64_t(seconds * bench::kRate);
    const uint64_t noteEvery = uint64_t(bench::kNoteEverySeconds * bench::kRate);
    // Fill the pool, then one new note every 125 ms; the oldest is stolen (faded).
    for (uint32_t v = 0; v < voices; ++v)
        boop_engine_note_on(e, 0, v, BOOP_TIMBRE_MELODY, bench::pitchHz(int(v)), 0.6f);
    uint32_t note = voices;
    const double s = bench::medianSeconds(1, [&] {
        for (uint64_t f = 0; f < total; f += bench::kBlock) {
            if (f % noteEvery < bench::kBlock) {
                boop_engine_note_on(e, f + f % noteEvery, note, BOOP_TIMBRE_MELODY, bench::pitchHz(int(note)), 0.6f);
                ++note;
            }
            boop_engine_render(e, out.data(), bench::kBlock);
        }
    });
    boop_engine_destroy(e);
    if (realtimeFactor) *realtimeFactor = seconds / s;
    return s * 1e9 / (double(total) * voices);
}

int main() {
    std::printf("melody voice through the engine (sine -> envelope -> 2 kHz lowpass), 48 kHz, note every 125 ms\n");
    for (uint32_t voices : {1u, 8u, 64u, 256u}) {
        double rtf = 0;
        std::vector<double> ns;
        for (int r = 0; r < 5; ++r) ns.push_back(engineNsPerVoiceSample(voices, 20.0, &rtf));
        std::sort(ns.begin(), ns.end());
        std::printf("  %3u voices: %.3f ns per voice-sample (median of 5)", voices, ns[2]);
        if (voices == 8) std::printf(", real-time factor %.0fx", rtf);
        std::printf("\n");
    }
    return 0;
}
