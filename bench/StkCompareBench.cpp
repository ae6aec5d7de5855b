// Our engine against STK (libstk-dev) on the same workload, alternating in one run:
// sine -> linear ADSR (10 ms attack) -> 2 kHz lowpass, 48 kHz, every voice busy, a new note every
// 125 ms. Also the original plain design (std::sin on a double phase; boop::reference::Voice), the voice count
// one core sustains in real time at 50 % load, and the allocations made by the engine's render.
#include <stk/ADSR.h>
#include <stk/BiQuad.h>
#include <stk/SineWave.h>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>
#include "../Tests/CAudioEngineTests/reference/Voice.hpp"
#include "BenchWorkload.hpp"
#include "dsp/Lowpass.hpp"
#include "include/CAudioEngine.h"

// Counting allocator: proves the render path allocates nothing. A sanitizer runtime defines its own
// operator new/delete (a second definition fails to link), and under RealtimeSanitizer an allocation
// on the render path is already a hard error, so sanitized builds count nothing here.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(realtime_sanitizer)
#define BOOP_BENCH_SANITIZED 1
#endif
#endif
static std::atomic<uint64_t> gAllocations{0};
#ifndef BOOP_BENCH_SANITIZED
void* operator new(std::size_t n) {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace {

constexpr double kSeconds = 10.0;

struct StkVoice {
    stk::SineWave osc;
    stk::ADSR env;
    stk::BiQuad lp;
    double gain = 0.6;
};

double runStk(int voices) {
    stk::Stk::setSampleRate(bench::kRate);
    std::vector<StkVoice> v(voices);
    const auto c = boop::dsp::BiquadCoefficients::lowpass(bench::kRate, 2000.0);  // same filter design
    for (int i = 0; i < voices; ++i) {
        v[i].env.setAllTimes(0.010, 0.001, 1.0, 0.15);
        v[i].lp.setCoefficients(c.b0, c.b1, c.b2, c.a1, c.a2, true);
        v[i].osc.setFrequency(bench::pitchHz(i));
        v[i].env.keyOn();
    }
    const uint64_t total = uint64_t(kSeconds * bench::kRate), every = uint64_t(bench::kNoteEverySeconds * bench::kRate);
    std::vector<float> out(bench::kBlock);
    int note = voices, oldest = 0;
    return bench::medianSeconds(1, [&] {
        for (uint64_t f = 0; f < total; f += bench::kBlock) {
            if (f % every < bench::kBlock) {  // the oldest voice takes the new note
                v[oldest].osc.setFrequency(bench::pitchHz(note++));
                v[oldest].env.keyOn();
                oldest = (oldest + 1) % voices;
            }
            for (int n = 0; n < bench::kBlock; ++n) out[n] = 0.0f;
            for (StkVoice& s : v)
                for (int n = 0; n < bench::kBlock; ++n)
                    out[n] += float(s.lp.tick(s.osc.tick() * s.env.tick() * s.gain));
        }
    });
}

double runSeedDesign(int voices) {
    std::vector<boop::reference::Voice> v(voices);
    for (int i = 0; i < voices; ++i) {
        v[i].prepare(bench::kRate);
        v[i].noteOn(bench::pitchHz(i), 0.6f);
    }
    const uint64_t total = uint64_t(kSeconds * bench::kRate), every = uint64_t(bench::kNoteEverySeconds * bench::kRate);
    std::vector<float> out(bench::kBlock);
    int note = voices, oldest = 0;
    return bench::medianSeconds(1, [&] {
        for (uint64_t f = 0; f < total; f += bench::kBlock) {
            if (f % every < bench::kBlock) {
                v[oldest].noteOn(bench::pitchHz(note++), 0.6f);
                oldest = (oldest + 1) % voices;
            }
            for (int n = 0; n < bench::kBlock; ++n) out[n] = 0.0f;
            for (boop::reference::Voice& s : v)
                for (int n = 0; n < bench::kBlock; ++n) out[n] += s.process();
        }
    });
}

double runEngine(int voices, uint64_t* allocationsDuringRender) {
    boop_engine_config c;
    boop_engine_config_default(&c);
    c.sample_rate = bench::kRate;
    c.voices = uint32_t(voices);
    c.max_block_frames = bench::kBlock;
    c.queue_capacity = 1 << 16;
    boop_engine* e = nullptr;
    boop_engine_create(&c, &e);
    std::vector<float> out(bench::kBlock);
    for (int i = 0; i < voices; ++i)
        boop_engine_note_on(e, 0, uint32_t(i), BOOP_TIMBRE_MELODY, bench::pitchHz(i), 0.6f);
    const uint64_t total = uint64_t(kSeconds * bench::kRate), every = uint64_t(bench::kNoteEverySeconds * bench::kRate);
    uint32_t note = uint32_t(voices);
    uint64_t allocations = 0;
    const double s = bench::medianSeconds(1, [&] {
        for (uint64_t f = 0; f < total; f += bench::kBlock) {
            if (f % every < bench::kBlock)
                boop_engine_note_on(e, f, note, BOOP_TIMBRE_MELODY, bench::pitchHz(int(note)), 0.6f), ++note;
            const uint64_t before = gAllocations.load(std::memory_order_relaxed);
            boop_engine_render(e, out.data(), bench::kBlock);
            allocations += gAllocations.load(std::memory_order_relaxed) - before;
        }
    });
    if (allocationsDuringRender) *allocationsDuringRender = allocations;
    boop_engine_destroy(e);
    return s;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
    std::printf(
        "workload: melody voice (sine -> ADSR -> 2 kHz lowpass), %.0f Hz, %d-frame blocks, a note every %.0f ms, %.0f "
        "s per run, %d alternating rounds\n",
        bench::kRate, bench::kBlock, bench::kNoteEverySeconds * 1000, kSeconds, rounds);
    std::printf("%8s %14s %14s %14s %10s %12s\n", "voices", "boop ns/vs", "STK ns/vs", "plain ns/vs", "STK/boop",
                "plain/boop");
    double ns64 = 0;
    uint64_t allocations = 0;
    for (int voices : {8, 64, 256}) {
        std::vector<double> ours, stk, seed;
        for (int r = 0; r < rounds; ++r) {  // alternate so drift in machine load hits all three
            uint64_t a = 0;
            ours.push_back(runEngine(voices, &a));
            allocations += a;
            stk.push_back(runStk(voices));
            seed.push_back(runSeedDesign(voices));
        }
        const double perVs = 1e9 / (kSeconds * bench::kRate * voices);
        const double o = median(ours) * perVs, s = median(stk) * perVs, d = median(seed) * perVs;
        if (voices == 64) ns64 = o;
        std::printf("%8d %14.3f %14.3f %14.3f %9.1fx %11.1fx\n", voices, o, s, d, s / o, d / o);
    }
    std::printf("voices one core renders in real time at 48 kHz with half the core to spare: %.0f\n",
                0.5 / (ns64 * 1e-9 * bench::kRate));
    std::printf("allocations inside boop_engine_render over all runs: %llu\n", (unsigned long long)allocations);
    return 0;
}
