// The General MIDI kit's recipes (dsp/DrumRecipe): every key to its kind as General MIDI's
// percussion map names it, and each recipe's figures against its definition: a decay is the
// per-frame factor that leaves 1/e after its time, the ramp-in 1 ms, the tom pitches
// 80 Hz x 2^((key - 41) / 10.5) swept from 1.6 times, the noise cutoff kept under 0.4 of the rate.
#include <doctest/doctest.h>
#include <cmath>
#include <initializer_list>
#include "dsp/DrumRecipe.hpp"

using boop::dsp::DrumRecipe;
using Kind = DrumRecipe::Kind;

namespace {

// The time after which `factor` per frame leaves 1/e.
double oneOverE(double factor, double rate) { return -1.0 / (std::log(factor) * rate); }

}  // namespace

TEST_CASE("General MIDI keys to kinds") {
    CHECK(DrumRecipe::kindForKey(35) == Kind::Kick);  // acoustic bass drum
    CHECK(DrumRecipe::kindForKey(36) == Kind::Kick);  // bass drum 1
    CHECK(DrumRecipe::kindForKey(37) == Kind::Rim);   // side stick
    CHECK(DrumRecipe::kindForKey(38) == Kind::Snare);
    CHECK(DrumRecipe::kindForKey(40) == Kind::Snare);  // electric snare
    CHECK(DrumRecipe::kindForKey(39) == Kind::Clap);
    for (uint32_t tom : {41u, 43u, 45u, 47u, 48u, 50u}) CHECK(DrumRecipe::kindForKey(tom) == Kind::Tom);
    CHECK(DrumRecipe::kindForKey(42) == Kind::ClosedHat);
    CHECK(DrumRecipe::kindForKey(44) == Kind::ClosedHat);  // pedal hi-hat
    CHECK(DrumRecipe::kindForKey(46) == Kind::OpenHat);
    for (uint32_t key = 49; key <= 81; ++key) {
        if (key == 50) continue;
        CHECK(DrumRecipe::kindForKey(key) == Kind::Cymbal);
    }
    // Outside the map: below it a kick, above it the cymbal family.
    CHECK(DrumRecipe::kindForKey(0) == Kind::Kick);
    CHECK(DrumRecipe::kindForKey(34) == Kind::Kick);
    CHECK(DrumRecipe::kindForKey(127) == Kind::Cymbal);
}

TEST_CASE("decays leave 1/e after their times, at any rate") {
    // The tone and noise factors are floats: a factor 1 - 1/(0.7 s x 96 kHz) keeps its distance
    // from 1 to about 2e-3 (24 bits), so their times are checked to 0.3 %; the sweep's is a double.
    for (double rate : {44100.0, 48000.0, 96000.0}) {
        CAPTURE(rate);
        const DrumRecipe kick = DrumRecipe::forKey(36, rate);
        CHECK(oneOverE(kick.toneDecay, rate) == doctest::Approx(0.28).epsilon(3e-3));
        CHECK(oneOverE(kick.noiseDecay, rate) == doctest::Approx(0.004).epsilon(3e-3));
        CHECK(oneOverE(kick.sweepDecay, rate) == doctest::Approx(0.030).epsilon(1e-9));
        const DrumRecipe snare = DrumRecipe::forKey(38, rate);
        CHECK(oneOverE(snare.noiseDecay, rate) == doctest::Approx(0.11).epsilon(3e-3));
        const DrumRecipe crash = DrumRecipe::forKey(49, rate);
        CHECK(oneOverE(crash.noiseDecay, rate) == doctest::Approx(0.7).epsilon(3e-3));
    }
}

TEST_CASE("parts a kind has not are silent, with no decay") {
    const DrumRecipe hat = DrumRecipe::forKey(42, 48000.0);
    CHECK(hat.toneAmp == 0.0f);
    CHECK(hat.toneDecay == 0.0f);
    CHECK(hat.noiseAmp > 0.0f);
    CHECK(hat.noiseHighpass);
    const DrumRecipe tom = DrumRecipe::forKey(45, 48000.0);
    CHECK(tom.noiseAmp == 0.0f);
    CHECK(tom.noiseDecay == 0.0f);
    CHECK(DrumRecipe::forKey(36, 48000.0).sweepDecay < 1.0);
    CHECK(DrumRecipe::forKey(42, 48000.0).sweepDecay == 1.0);  // no sweep: nothing decays
}

TEST_CASE("toms rise 80 Hz x 2^((key - 41) / 10.5), each swept from 1.6 times its pitch") {
    double last = 0.0;
    for (uint32_t key : {41u, 43u, 45u, 47u, 48u, 50u}) {
        CAPTURE(key);
        const DrumRecipe tom = DrumRecipe::forKey(key, 48000.0);
        CHECK(tom.baseHz == doctest::Approx(80.0 * std::pow(2.0, (key - 41.0) / 10.5)));
        CHECK((tom.baseHz + tom.sweepHz) / tom.baseHz == doctest::Approx(1.6));
        CHECK(tom.baseHz > last);
        last = tom.baseHz;
    }
}

TEST_CASE("the ramp-in is 1 ms and one frame; a clap re-strikes every 11 ms, other kinds never") {
    CHECK(DrumRecipe::forKey(36, 48000.0).rampInFrames == 49);
    CHECK(DrumRecipe::forKey(36, 44100.0).rampInFrames == 45);
    CHECK(DrumRecipe::forKey(39, 48000.0).clapPeriod == 528);
    CHECK(DrumRecipe::forKey(39, 44100.0).clapPeriod == 485);
    for (uint32_t key = 35; key <= 81; ++key)
        if (key != 39) CHECK(DrumRecipe::forKey(key, 48000.0).clapPeriod == 0);
}

TEST_CASE("the noise cutoff stays under 0.4 of the rate") {
    CHECK(DrumRecipe::forKey(42, 48000.0).noiseCutoffHz == 7000.0);
    CHECK(DrumRecipe::forKey(42, 8000.0).noiseCutoffHz == doctest::Approx(3200.0));
    CHECK(DrumRecipe::forKey(38, 8000.0).noiseCutoffHz == 1500.0);
}
