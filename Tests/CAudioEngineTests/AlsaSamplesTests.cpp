// The conversion to an integer device's format: nothing limits after the output stage. Every
// sample within [-1, 1] converts to exactly the bits it always did (the formula that clamped
// first, which never acted there), and the output chain (engine/OutputChain) hands over nothing
// else, even at the highest gain and ceiling the header allows on the loudest input.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "backend/alsa/AlsaSamples.hpp"
#include "engine/OutputChain.hpp"
#include "include/CAudioEngine.h"

using namespace boop;

namespace {

// The conversion as it was, with its clamp: the reference for in-range samples.
int32_t clampedS32(float v) {
    v = v > 1.0f ? 1.0f : (v < -1.0f ? -1.0f : v);
    return static_cast<int32_t>(static_cast<double>(v) * 2147483647.0);
}
int16_t clampedS16(float v) {
    v = v > 1.0f ? 1.0f : (v < -1.0f ? -1.0f : v);
    return static_cast<int16_t>(v * 32767.0f);
}

float fromBits(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// A square wave at full scale with bright noise on it: far over any ceiling once +12 dB is added.
struct LoudSource {
    std::minstd_rand rng{7};
    uint32_t channels = 2;
    uint64_t frame = 0;
    static boop_status render(void* self, float* out, uint32_t frames) noexcept {
        auto* s = static_cast<LoudSource*>(self);
        std::uniform_real_distribution<float> noise(-0.5f, 0.5f);
        for (uint32_t i = 0; i < frames; ++i, ++s->frame)
            for (uint32_t c = 0; c < s->channels; ++c)
                out[i * s->channels + c] = ((s->frame / 37) % 2 == 0 ? 1.0f : -1.0f) + noise(s->rng);
        return BOOP_OK;
    }
};

}  // namespace

TEST_CASE("every sample within [-1, 1] converts to the bits the clamped formula gave") {
    const float edges[] = {0.0f,
                           -0.0f,
                           1.0f,
                           -1.0f,
                           std::nextafter(1.0f, 0.0f),
                           std::nextafter(-1.0f, 0.0f),
                           std::numeric_limits<float>::denorm_min(),
                           0.5f,
                           -0.5f,
                           1.0f / 32767.0f};
    for (float v : edges) {
        CHECK(sampleToS32(v) == clampedS32(v));
        CHECK(sampleToS16(v) == clampedS16(v));
    }
    // Every 61st float of [0, 1] and its negative: about 35 million samples of each format.
    const uint32_t one = 0x3f800000u;
    uint64_t compared = 0, differing = 0;
    for (uint32_t bits = 0; bits <= one; bits += 61) {
        for (float v : {fromBits(bits), -fromBits(bits)}) {
            differing += sampleToS32(v) != clampedS32(v) || sampleToS16(v) != clampedS16(v);
            ++compared;
        }
    }
    CHECK(compared > 30'000'000);
    CHECK(differing == 0);
}

TEST_CASE("a float the stage cannot hand over becomes silence, not undefined behaviour") {
    const float faults[] = {std::nextafter(1.0f, 2.0f),
                            -1.5f,
                            1e30f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN()};
    for (float v : faults) {
        CHECK(sampleToS32(v) == 0);
        CHECK(sampleToS16(v) == 0);
    }
}

TEST_CASE("the output chain at +12 dB and a 0 dBTP ceiling hands the device only samples within [-1, 1]") {
    LoudSource loud;
    boop_source source{};
    source.render = LoudSource::render;
    source.context = &loud;
    source.channels = loud.channels;
    source.max_block_frames = 512;
    source.sample_rate = 48000;
    boop::OutputChain chain;
    chain.stage().setGainDb(BOOP_GAIN_DB_MAX);
    const boop_source chained = chain.live(source, BOOP_CEILING_DBTP_MAX);
    std::vector<float> block(512 * 2);
    std::vector<int32_t> s32(block.size());
    float peak = 0.0f;
    for (int b = 0; b < 200; ++b) {
        REQUIRE(chained.render(chained.context, block.data(), 512) == BOOP_OK);
        for (float v : block) peak = std::fmax(peak, std::fabs(v));
        convertFloatToS32(block.data(), s32.data(), block.size());
        for (size_t i = 0; i < block.size(); ++i) REQUIRE(s32[i] == clampedS32(block[i]));
    }
    CHECK(peak > 0.9f);  // the limiter worked at the ceiling, not far under it
    CHECK(peak <= 1.0f);
    CHECK(chain.stage().takeReductionDb() < -10.0f);
}
