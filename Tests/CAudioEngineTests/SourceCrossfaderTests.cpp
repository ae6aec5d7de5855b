// The crossfader behind ambient's preset changes: equal power (two unrelated pieces at one
// loudness keep it through the fade), exactly the requested length, and the old source released
// (idle) only once it is no longer rendered.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "engine/SourceCrossfader.hpp"

namespace {

struct Sine {
    double hz, phase = 0;
    int calls = 0;
};

boop_status renderSine(void* context, float* out, uint32_t frames) {
    auto* s = static_cast<Sine*>(context);
    ++s->calls;
    for (uint32_t i = 0; i < frames; ++i) {
        out[i] = static_cast<float>(std::sin(s->phase));
        s->phase += 2 * 3.14159265358979323846 * s->hz / 48000.0;
    }
    return BOOP_OK;
}

boop_source source(Sine& s) {
    boop_source src{};
    src.render = renderSine;
    src.context = &s;
    src.channels = 1;
    src.max_block_frames = 480;
    src.sample_rate = 48000;
    return src;
}

}  // namespace

TEST_CASE("crossfade: equal power through the fade, the old source freed after it") {
    Sine a{440}, b{623};
    boop::SourceCrossfader x(source(a));
    std::vector<float> block(480);
    x.render(block.data(), 480);
    CHECK(x.idle());
    REQUIRE(x.fadeTo(source(b), 0.5));  // 24000 frames = 50 blocks
    CHECK_FALSE(x.idle());
    CHECK_FALSE(x.fadeTo(source(a), 0.5));  // one at a time
    for (int k = 0; k < 50; ++k) {
        x.render(block.data(), 480);
        double e = 0;
        for (float v : block) e += double(v) * v;
        // A sine's mean square is 0.5; two unrelated ones under cos/sin gains sum to the same,
        // within the beating of two tones over a 10 ms block.
        CHECK(std::fabs(10 * std::log10(e / 480 / 0.5)) < 0.6);
        if (k < 49) CHECK_FALSE(x.idle());
    }
    CHECK(x.idle());
    const int aCalls = a.calls;
    x.render(block.data(), 480);
    CHECK(a.calls == aCalls);  // the old source is no longer rendered
    // And the output is now b alone, at full level.
    double e = 0;
    for (float v : block) e += double(v) * v;
    CHECK(std::fabs(e / 480 - 0.5) < 0.02);
}
