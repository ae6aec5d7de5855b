// Tuning of the TONE timbre measured on rendered samples: every MIDI note A0 ... C8,
// with and without cents offsets, at reference pitches 415 ... 466 Hz, must sound within 0.01 cent
// of f = ref x 2^((n - 69)/12) x 2^(c/1200). The frequency is measured by a least-squares sine fit
// over the steady part of each note (after the 8 ms attack), which resolves ~1e-7 cent.
#include <doctest/doctest.h>
#include <cstdio>
#include <string>
#include "TestSignals.hpp"
#include "ToneFit.hpp"

namespace {

constexpr double kGoalCents = 0.01;

struct Worst {
    double cents = 0;  // signed error of the worst case
    std::string what;
    int measured = 0;
    void consider(double error, const std::string& label) {
        ++measured;
        if (std::fabs(error) > std::fabs(cents)) {
            cents = error;
            what = label;
        }
    }
};

std::string label(int midi, double cents, double reference, double rate) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "MIDI %d %+g c, A4 = %g Hz, %g Hz rate", midi, cents, reference, rate);
    return buf;
}

// Renders one held TONE note through the C API and returns the measured frequency.
double measureTone(double rate, double frequency, double seconds = 0.5) {
    testsig::EngineHandle engine(rate, 1);
    REQUIRE(boop_engine_note_on(engine, 0, 1, BOOP_TIMBRE_TONE, frequency, 1.0f) == BOOP_OK);
    const size_t frames = size_t(seconds * rate);
    const auto out = engine.render(frames, 512);
    const size_t begin = size_t(0.02 * rate);  // past the 8 ms raised-cosine attack
    const tonefit::Fit fit = tonefit::fitSine(out, rate, begin, frames, frequency);
    CHECK(fit.amplitude == doctest::Approx(0.3).epsilon(0.01));  // accent gain x master 0.3
    return fit.frequency;
}

}  // namespace

TEST_CASE("the sine fit resolves far below 0.001 cent on an exact sine") {
    const double rate = 44100;
    double worst = 0;
    for (double f : {27.5, 27.5 * 1.0001, 261.6255653005986, 1000.0, 4186.009044809578, 12345.678}) {
        std::vector<double> x(22050);
        for (size_t n = 0; n < x.size(); ++n) x[n] = 0.3 * std::sin(2 * M_PI * f * double(n) / rate + 0.7);
        // Start 0.05 cent off (5x the goal): the fit must pull in from a guess, not just echo it.
        const double error = tonefit::cents(tonefit::fitSine(x, rate, 882, x.size(), f * 1.00003).frequency, f);
        worst = std::max(worst, std::fabs(error));
        // The same sine rounded to float, as the engine hands it out.
        std::vector<float> xf(x.begin(), x.end());
        const double errorF = tonefit::cents(tonefit::fitSine(xf, rate, 882, xf.size(), f / 1.00003).frequency, f);
        worst = std::max(worst, std::fabs(errorF));
    }
    MESSAGE("estimator worst error on exact sines: " << worst << " cent");
    CHECK(worst < 1e-5);
}

TEST_CASE("every tone A0 ... C8 is within 0.01 cent at references 415 ... 466 Hz, with cents offsets") {
    const double rate = 44100;
    Worst worst, unexplained;
    for (double reference : {415.0, 440.0, 442.0, 466.0}) {
        for (double cents : {0.0, 12.5, -3.0, 49.99, -33.3}) {
            for (int midi = 21; midi <= 108; ++midi) {
                const double expected = testsig::midiToHz(midi, cents, reference);
                const double measured = measureTone(rate, expected);
                worst.consider(tonefit::cents(measured, expected), label(midi, cents, reference, rate));
                // The only error the design allows: rounding the phase increment to the 2^-32 grid.
                const double grid = std::nearbyint(expected / rate * 4294967296.0) * rate / 4294967296.0;
                unexplained.consider(tonefit::cents(measured, grid), label(midi, cents, reference, rate));
            }
        }
    }
    MESSAGE("tones measured: " << worst.measured << "; worst tuning error " << worst.cents << " cent (" << worst.what
                               << "); goal 0.01 cent");
    MESSAGE("worst distance from the 2^-32 phase-increment grid: " << unexplained.cents << " cent (" << unexplained.what
                                                                   << ")");
    CHECK(std::fabs(unexplained.cents) < 1e-4);
    CHECK(worst.measured == 4 * 5 * 88);
    CHECK(std::fabs(worst.cents) < kGoalCents);
}

TEST_CASE("tuning holds at other sample rates") {
    Worst worst;
    for (double rate : {22050.0, 48000.0, 96000.0, 192000.0}) {
        for (int midi = 21; midi <= 108; ++midi) {
            const double expected = testsig::midiToHz(midi);
            if (expected >= rate / 2) continue;
            worst.consider(tonefit::cents(measureTone(rate, expected), expected), label(midi, 0, 440, rate));
        }
    }
    MESSAGE("tones measured: " << worst.measured << "; worst tuning error " << worst.cents << " cent (" << worst.what
                               << ")");
    CHECK(std::fabs(worst.cents) < kGoalCents);
}

TEST_CASE("two tones 3 cents apart measure 3 cents apart") {
    const double rate = 44100;
    const double a = testsig::midiToHz(69), b = testsig::midiToHz(69, 3.0);
    const double apart = tonefit::cents(measureTone(rate, b), measureTone(rate, a));
    MESSAGE("A4 vs A4+3c measured " << apart << " cent apart");
    CHECK(std::fabs(apart - 3.0) < kGoalCents);
}

TEST_CASE("tuning does not depend on when the note starts or on the block size") {
    const double rate = 44100, f = testsig::midiToHz(60, 12.5);
    for (uint32_t block : {1u, 64u, 441u, 4096u}) {
        testsig::EngineHandle engine(rate, 1);
        boop_engine_note_on(engine, 1234, 1, BOOP_TIMBRE_TONE, f, 1.0f);
        const auto out = engine.render(size_t(0.6 * rate), block);
        const double measured = tonefit::fitSine(out, rate, 1234 + size_t(0.02 * rate), out.size(), f).frequency;
        CHECK(std::fabs(tonefit::cents(measured, f)) < kGoalCents);
        CHECK(testsig::firstAbove(out, 1e-7f) >= 1234);
    }
}
