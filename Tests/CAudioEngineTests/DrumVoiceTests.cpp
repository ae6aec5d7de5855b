#include <doctest/doctest.h>
#include "TestSignals.hpp"
#include "reference/DrumVoice.hpp"

using namespace testsig;

TEST_CASE("drums: every GM key 35 ... 81 gives a finite hit that decays to silence") {
    for (uint32_t key = 35; key <= 81; ++key) {
        boop::reference::DrumVoice d;
        d.prepare(44100.0);
        d.trigger(key, 1.0f, 1, 1);
        std::vector<float> x;
        for (int i = 0; i < 44100 * 10 && d.isActive(); ++i) x.push_back(d.process());
        INFO("key " << key);
        CHECK_FALSE(d.isActive());
        CHECK(peakAmplitude(x, 0, x.size()) > 0.05);
        CHECK(peakAmplitude(x, 0, x.size()) < 1.5);
        for (float v : x) REQUIRE(std::isfinite(v));
    }
}

TEST_CASE("drums: kick is low, hats are bright, hits are repeatable") {
    auto hit = [](uint32_t key) {
        EngineHandle e;
        boop_engine_drum_hit(e, 0, key, 1.0f);
        return e.render(8820);
    };
    auto kick = hit(36), hat = hit(42);
    const double kickBright = rms(highpass(kick, 44100, 3000), 0, kick.size()) / rms(kick, 0, kick.size());
    const double hatBright = rms(highpass(hat, 44100, 3000), 0, hat.size()) / rms(hat, 0, hat.size());
    CHECK(kickBright < 0.1);
    CHECK(hatBright > 0.5);
    CHECK(hit(38) == hit(38));
}
