// The voice kernels (VoiceBankKernels.cpp): waveform x envelope x gain through the group lowpass,
// across the lanes of a chunk (a busy chunk) or along time (a few lanes), built for the baseline
// and for AVX2 + FMA. A frame's input has the same bits however frames are grouped, and a group a
// block ends inside is kept (Chunk::gx) until the next: a block cut anywhere gives the same bits as
// the block whole. Released lanes retire once their filter has rung down to zero, and after that
// add nothing. (VoiceBankTests compares the sound with the scalar reference voice.)
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "engine/Timbre.hpp"
#include "engine/VoiceBank.hpp"
#include "include/CAudioEngine.h"
#include "rt/Denormals.hpp"

using boop::VoiceBank;
namespace simd = boop::dsp::simd;

namespace {

constexpr double kRate = 44100.0;
constexpr int kBlock = 512;

struct Played {
    std::vector<float> mono;
    int activeAtEnd = 0;
};

// `voices` notes from frame 100 on, 13 frames apart (odd offsets inside the groups of eight),
// released at 0.3 s, then rendered on to `seconds`; each block cut at `cuts`. The busy chunk's
// partial sums are folded into mono at each block's end, as the engine does.
Played play(int timbre, int voices, bool baseline, const std::vector<int>& cuts, double seconds) {
    boop::DenormalGuard guard;  // the render path flushes denormals (the lanes' retirement needs it)
    if (baseline)
        setenv("BOOP_NO_AVX2", "1", 1);
    else
        unsetenv("BOOP_NO_AVX2");
    VoiceBank bank;
    bank.prepare(kRate, 16, boop::timbreSpec(timbre));
    unsetenv("BOOP_NO_AVX2");
    const double notes[] = {110.0, 261.6255653, 329.6275569, 391.995436, 523.2511306, 1318.510228};
    const size_t frames = size_t(seconds * kRate), releaseAt = size_t(0.3 * kRate);
    Played out;
    out.mono.assign(frames, 0.0f);
    std::vector<simd::f8> acc(kBlock);
    for (size_t clock = 0; clock < frames; clock += kBlock) {
        const int n = int(std::min<size_t>(kBlock, frames - clock));
        std::fill(acc.begin(), acc.end(), simd::f8{});
        bool usedAcc = false;
        int begin = 0;
        auto renderTo = [&](int end) {
            if (end > begin) usedAcc |= bank.render(acc.data(), out.mono.data() + clock, clock, begin, end);
            begin = end;
        };
        for (size_t f = clock; f < clock + size_t(n); ++f) {
            const int v = int(f) - 100;
            const bool on = v >= 0 && v % 13 == 0 && v / 13 < voices, off = f == releaseAt;
            if (!on && !off) continue;
            renderTo(int(f - clock));
            if (on) bank.start(v / 13, notes[v / 13], 0.8f, uint32_t(v / 13 + 1), uint64_t(v / 13 + 1), f);
            if (off)
                for (int lane = 0; lane < voices; ++lane) bank.release(lane, f);
        }
        for (int c : cuts)
            if (c > begin && c < n) renderTo(c);
        renderTo(n);
        if (usedAcc)
            for (int i = 0; i < n; ++i) {
                float s = 0.0f;
                for (int k = 0; k < simd::kLanes; ++k) s += acc[size_t(i)][k];
                out.mono[clock + size_t(i)] += s;
            }
    }
    out.activeAtEnd = bank.activeLanes();
    return out;
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("every timbre's kernels: a block cut anywhere gives the bits of the block whole") {
    const std::vector<std::vector<int>> cutSets = {{1}, {3, 4, 13, 100, 509}, {7, 8, 9, 255}};
    for (bool baseline : {true, false})
        for (int timbre = 0; timbre < BOOP_TIMBRE_COUNT; ++timbre)
            for (int voices : {1, 3, 6}) {  // along time (up to three lanes) and across lanes
                CAPTURE(baseline);
                CAPTURE(timbre);
                CAPTURE(voices);
                const Played whole = play(timbre, voices, baseline, {}, 0.5);
                double energy = 0;
                for (float s : whole.mono) energy += double(s) * s;
                REQUIRE(energy > 1.0);
                for (const std::vector<int>& cuts : cutSets)
                    CHECK(sameBits(whole.mono, play(timbre, voices, baseline, cuts, 0.5).mono));
            }
}

TEST_CASE("released lanes retire once silent, and the bank then adds exact zeros") {
    for (bool baseline : {true, false})
        for (int timbre = 0; timbre < BOOP_TIMBRE_COUNT; ++timbre) {
            CAPTURE(baseline);
            CAPTURE(timbre);
            // Every timbre's release is at most a couple of seconds (TimbreSpec::releaseMaxSeconds).
            boop::TimbreSpec spec = boop::timbreSpec(timbre);
            const double seconds = 0.3 + spec.releaseMaxSeconds + 1.0;
            const Played p = play(timbre, 6, baseline, {}, seconds);
            CHECK(p.activeAtEnd == 0);
            const size_t lastBlock = p.mono.size() - kBlock;
            for (size_t i = lastBlock; i < p.mono.size(); ++i) REQUIRE(p.mono[i] == 0.0f);
        }
}
