// The live synth's expression controllers (engine/SynthExpression) against their definitions in
// CAudioEngineSynth.h: vibrato of +-50 cents at 5.5 Hz at full depth, CC 74's cutoff of
// 20 x 1000^(v/127) Hz, and the palette lowpass's gain checked against a sine filtered by the
// filter itself (dsp::Svf), measured over whole cycles.
#include <doctest/doctest.h>
#include <cmath>
#include "dsp/Svf.hpp"
#include "engine/SynthExpression.hpp"

using boop::cc74Cutoff;
using boop::kExpressionQ;
using boop::lowpassGain;
using boop::Vibrato;

namespace {

constexpr double kPi = 3.14159265358979323846;

// The steady-state amplitude of the SVF lowpass's output for a unit sine at `hz` (whole Hz).
double measuredGain(double rate, double cutoff, double q, double hz) {
    boop::dsp::SvfCoeffs c;
    c.set(rate, cutoff, q);
    boop::dsp::SvfState s;
    const int settle = static_cast<int>(rate);  // one second: the transient long gone
    const int measure = static_cast<int>(rate);
    double squares = 0.0;
    for (int n = 0; n < settle + measure; ++n) {
        const float y = s.lowpass(c, static_cast<float>(std::sin(2.0 * kPi * hz * n / rate)));
        if (n >= settle) squares += static_cast<double>(y) * y;
    }
    // A whole number of cycles (whole hz over one second): the amplitude is sqrt(2) x the RMS.
    return std::sqrt(2.0 * squares / measure);
}

}  // namespace

TEST_CASE("vibrato depth is the larger of modulation and pressure, over 127") {
    CHECK(Vibrato::depthOf(0, 0) == 0.0);
    CHECK(Vibrato::depthOf(127, 0) == 1.0);
    CHECK(Vibrato::depthOf(10, 64) == doctest::Approx(64.0 / 127.0));
    CHECK(Vibrato::depthOf(100, 64) == doctest::Approx(100.0 / 127.0));
}

TEST_CASE("vibrato's ratio swings 2^(+-50 depth / 1200) along a sine") {
    Vibrato v;
    v.depth = 1.0;
    v.phase = 0.0;
    CHECK(v.ratio() == doctest::Approx(1.0));
    v.phase = 0.25;
    CHECK(v.ratio() == doctest::Approx(std::exp2(50.0 / 1200.0)).epsilon(1e-12));
    v.phase = 0.75;
    CHECK(v.ratio() == doctest::Approx(std::exp2(-50.0 / 1200.0)).epsilon(1e-12));
    v.depth = 0.5;
    CHECK(v.ratio() == doctest::Approx(std::exp2(-25.0 / 1200.0)).epsilon(1e-12));
    v.depth = 0.0;
    CHECK(v.ratio() == 1.0);
}

TEST_CASE("vibrato's phase advances 5.5 cycles a second and stays in [0, 1)") {
    Vibrato v;
    const double rate = 48000.0;
    // 1 s in 64-frame blocks: 5.5 turns, so the phase ends half way round.
    for (int i = 0; i < 750; ++i) {
        v.advance(64, rate);
        REQUIRE(v.phase >= 0.0);
        REQUIRE(v.phase < 1.0);
    }
    CHECK(v.phase == doctest::Approx(0.5).epsilon(1e-9));
}

TEST_CASE("CC 74's cutoff: 20 Hz at 0, 20 x 1000^(v/127) between, 20 kHz at 127") {
    CHECK(cc74Cutoff(0) == doctest::Approx(20.0));
    CHECK(cc74Cutoff(127) == 20000.0);
    for (int v : {1, 32, 64, 100, 126})
        CHECK(cc74Cutoff(static_cast<uint8_t>(v)) == doctest::Approx(20.0 * std::pow(1000.0, v / 127.0)));
    // Monotonic: a higher value never closes the filter.
    for (int v = 1; v < 128; ++v) CHECK(cc74Cutoff(static_cast<uint8_t>(v)) > cc74Cutoff(static_cast<uint8_t>(v - 1)));
}

TEST_CASE("lowpassGain: Butterworth's 1/sqrt(2) at the cutoff, unity far below, bypassed at 0.45 x the rate") {
    const double rate = 48000.0;
    CHECK(lowpassGain(rate, 1000.0, kExpressionQ, 1000.0) == doctest::Approx(std::sqrt(0.5)).epsilon(1e-4));
    CHECK(lowpassGain(rate, 1000.0, kExpressionQ, 20.0) == doctest::Approx(1.0).epsilon(1e-4));
    // Second order: about -12 dB an octave well above the cutoff.
    const double a = lowpassGain(rate, 200.0, kExpressionQ, 2000.0);
    const double b = lowpassGain(rate, 200.0, kExpressionQ, 4000.0);
    CHECK(20.0 * std::log10(a / b) == doctest::Approx(12.0).epsilon(0.1));
    CHECK(lowpassGain(rate, 0.45 * rate, kExpressionQ, 10000.0) == 1.0);
    CHECK(lowpassGain(rate, 30000.0, kExpressionQ, 10000.0) == 1.0);
    CHECK(lowpassGain(rate, 1000.0, kExpressionQ, 0.0) == 1.0);
    CHECK(lowpassGain(rate, std::nan(""), kExpressionQ, 1000.0) == 1.0);
}

TEST_CASE("lowpassGain matches the SVF's measured gain on a sine, within 1 %") {
    const double rate = 48000.0;
    for (double cutoff : {200.0, 1000.0, 5000.0})
        for (double hz : {100.0, 440.0, 1000.0, 3000.0, 9000.0}) {
            CAPTURE(cutoff);
            CAPTURE(hz);
            const double predicted = lowpassGain(rate, cutoff, kExpressionQ, hz);
            const double measured = measuredGain(rate, cutoff, kExpressionQ, hz);
            CHECK(measured == doctest::Approx(predicted).epsilon(0.01));
        }
}
