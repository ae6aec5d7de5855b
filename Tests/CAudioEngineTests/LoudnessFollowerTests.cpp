#include <doctest/doctest.h>
#include <cmath>
#include <cstring>
#include <vector>
#include "TestSignals.hpp"
#include "dsp/LoudnessFollower.hpp"
#include "dsp/Rng.hpp"

using boop::dsp::LoudnessFollower;

using testsig::bursts;

// run() is the block form of measure() and next(): both channels' filters as one vector, the
// state in registers. It must give the very gains the frame-by-frame calls give.
TEST_CASE("LoudnessFollower: run over blocks gives the gains of measure and next frame by frame") {
    const size_t frames = 48000 * 4;
    const auto l = bursts(frames, 1), r = bursts(frames, 2);
    LoudnessFollower a, b;
    for (auto* f : {&a, &b}) {
        f->prepare(48000.0, -18.0, 1.0, 0.05);
        f->setEstimate(-30.0);
    }
    std::vector<float> want(frames), got(frames);
    for (size_t i = 0; i < frames; ++i) {
        const bool measuring = (i / 20000) % 4 != 3;
        if (measuring) a.measure(l[i], r[i]);
        want[i] = a.next();
    }
    const int blocks[] = {32, 7, 1, 29, 32, 13};
    for (size_t i = 0, k = 0; i < frames;) {
        size_t n = std::min<size_t>(static_cast<size_t>(blocks[k++ % 6]), frames - i);
        const bool measuring = (i / 20000) % 4 != 3;
        n = std::min(n, (i / 20000 + 1) * 20000 - i);  // the caller never mixes the two in a block
        b.run(l.data() + i, r.data() + i, got.data() + i, static_cast<int>(n), measuring);
        i += n;
    }
    CHECK(std::memcmp(want.data(), got.data(), frames * sizeof(float)) == 0);
    CHECK(a.estimate() == b.estimate());
    CHECK(std::fabs(a.gain() - 1.0f) > 0.1f);  // the gains did move
}
