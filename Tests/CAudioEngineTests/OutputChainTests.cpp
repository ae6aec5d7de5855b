#include <doctest/doctest.h>
#include <cmath>
#include <cstring>
#include <vector>
#include "engine/OutputChain.hpp"

// The output chain: a source, then the one output stage. Live, a backend pulls the chained
// source (the source, then the stage's process()); offline, renderAligned() renders the source
// and takes the stage's delay out. Each is checked against the stage run by hand on the same
// samples, and the source's errors must come back unchanged.

using boop::OutputChain;
using boop::OutputStage;

namespace {

constexpr double kRate = 48000.0;

// A stereo sine source of a given amplitude; counts its calls; can be told to fail.
struct SineSource {
    float amplitude = 0.25f;
    uint32_t channels = 2;
    uint64_t frame = 0;
    int calls = 0;
    boop_status fail = BOOP_OK;

    static boop_status render(void* self, float* out, uint32_t frames) {
        auto* s = static_cast<SineSource*>(self);
        ++s->calls;
        if (s->fail != BOOP_OK) return s->fail;
        for (uint32_t i = 0; i < frames; ++i, ++s->frame)
            for (uint32_t c = 0; c < s->channels; ++c)
                out[i * s->channels + c] =
                    s->amplitude * float(std::sin(2.0 * M_PI * 997.0 * double(s->frame) / kRate + 0.5 * double(c)));
        return BOOP_OK;
    }
    boop_source source() { return boop_source{render, this, channels, 1024, kRate}; }
};

std::vector<float> rendered(SineSource& s, size_t frames) {
    std::vector<float> x(frames * s.channels);
    REQUIRE(SineSource::render(&s, x.data(), uint32_t(frames)) == BOOP_OK);
    return x;
}

double truePeakDb(const std::vector<float>& x, uint32_t channels) {
    boop_loudness* m = nullptr;
    REQUIRE(boop_loudness_create(kRate, channels, &m) == BOOP_OK);
    boop_loudness_add(m, x.data(), x.size() / channels);
    const double peak = boop_loudness_true_peak(m);
    boop_loudness_destroy(m);
    return peak;
}

}  // namespace

TEST_CASE("live() prepares the stage for the source and hands back the source through the chain") {
    OutputChain chain;
    SineSource sine;
    const boop_source inner = sine.source();
    const boop_source live = chain.live(inner, -2.0);
    CHECK(live.channels == inner.channels);
    CHECK(live.sample_rate == inner.sample_rate);
    CHECK(live.max_block_frames == inner.max_block_frames);
    CHECK(live.context == static_cast<void*>(&chain));
    const bool ownRender = live.render != inner.render;
    CHECK(ownRender);
    CHECK(chain.stage().channels() == 2);
    CHECK(chain.stage().sampleRate() == kRate);
    CHECK(chain.stage().latency() > 0);
}

TEST_CASE("the live chain is the source and then the stage's process(), to the bit") {
    for (float amplitude : {0.25f, 4.0f}) {  // under the ceiling, and limited hard
        CAPTURE(amplitude);
        OutputChain chain;
        SineSource sine, twin;
        sine.amplitude = twin.amplitude = amplitude;
        const boop_source live = chain.live(sine.source(), -1.0);
        OutputStage byHand;
        byHand.prepare(kRate, 2, -1.0);
        for (uint32_t block : {64u, 512u, 1u, 333u, 1024u}) {
            std::vector<float> out(block * 2), expected = rendered(twin, block);
            REQUIRE(live.render(live.context, out.data(), block) == BOOP_OK);
            byHand.process(expected.data(), block);
            REQUIRE(std::memcmp(out.data(), expected.data(), out.size() * sizeof(float)) == 0);
        }
        CHECK(sine.calls == 5);  // one source call a block
    }
}

TEST_CASE("under the ceiling the live chain is the source delayed by the stage's latency") {
    OutputChain chain;
    SineSource sine, twin;
    const boop_source live = chain.live(sine.source(), BOOP_CEILING_DBTP);
    const uint32_t latency = chain.stage().latency(), frames = 4096;
    std::vector<float> out(frames * 2);
    REQUIRE(live.render(live.context, out.data(), frames) == BOOP_OK);
    const std::vector<float> in = rendered(twin, frames);
    for (uint32_t i = 0; i < latency * 2; ++i) CHECK(out[i] == 0.0f);
    CHECK(std::memcmp(out.data() + latency * 2, in.data(), (frames - latency) * 2 * sizeof(float)) == 0);
}

TEST_CASE("a loud source comes out of the live chain at or under the ceiling") {
    OutputChain chain;
    SineSource sine;
    sine.amplitude = 8.0f;
    const boop_source live = chain.live(sine.source(), -3.0);
    std::vector<float> all;
    std::vector<float> out(512 * 2);
    for (int b = 0; b < 40; ++b) {
        REQUIRE(live.render(live.context, out.data(), 512) == BOOP_OK);
        all.insert(all.end(), out.begin(), out.end());
    }
    // The tolerance of OutputStageTests: the meter's own 4x oversampling against the limiter's.
    CHECK(truePeakDb(all, 2) <= -3.0 + 1e-3);
}

TEST_CASE("a source's error comes back unchanged and the stage is not run") {
    OutputChain chain;
    SineSource sine;
    const boop_source live = chain.live(sine.source(), -1.0);
    sine.fail = BOOP_ERROR_DEVICE_LOST;
    std::vector<float> out(128 * 2, 0.5f);
    CHECK(live.render(live.context, out.data(), 128) == BOOP_ERROR_DEVICE_LOST);
    for (float v : out) CHECK(v == 0.5f);  // left as the (failed) source left it

    uint32_t aligned = 99;
    CHECK(chain.renderAligned(sine.source(), out.data(), 128, aligned) == BOOP_ERROR_DEVICE_LOST);
    CHECK(aligned == 0);
}

TEST_CASE("renderAligned: the source through processAligned, the same frames, as long as the input") {
    for (float amplitude : {0.25f, 4.0f}) {
        CAPTURE(amplitude);
        OutputChain chain;
        chain.stage().prepare(kRate, 2, -1.0);
        OutputStage byHand;
        byHand.prepare(kRate, 2, -1.0);
        SineSource sine, twin;
        sine.amplitude = twin.amplitude = amplitude;
        const uint32_t latency = chain.stage().latency();
        uint64_t total = 0, input = 0;
        for (uint32_t block : {16u, 700u, 1024u, 1u, 512u}) {
            std::vector<float> out(block * 2), expected = rendered(twin, block);
            uint32_t aligned = 0;
            REQUIRE(chain.renderAligned(sine.source(), out.data(), block, aligned) == BOOP_OK);
            const uint32_t expectedAligned = byHand.processAligned(expected.data(), block);
            REQUIRE(aligned == expectedAligned);
            CHECK(std::memcmp(out.data(), expected.data(), aligned * 2 * sizeof(float)) == 0);
            total += aligned;
            input += block;
        }
        // Only the look-ahead is still inside.
        CHECK(total == input - latency);
        std::vector<float> tail(latency * 2);
        CHECK(chain.stage().finish(tail.data()) == latency);
    }
}
