#include <doctest/doctest.h>
#include "TestSignals.hpp"
#include "dsp/Lowpass.hpp"
#include "reference/Oscillator.hpp"

using namespace testsig;

static double gainDb(double rate, double hz) {
    boop::dsp::Lowpass lp;
    lp.prepare(rate, 2000.0);
    boop::reference::Oscillator osc;
    osc.prepare(rate);
    osc.setFrequency(hz);
    std::vector<float> in, out;
    for (int i = 0; i < int(rate); ++i) {
        const float s = osc.process();
        in.push_back(s);
        out.push_back(lp.process(s));
    }
    const size_t from = size_t(rate / 4);  // past the transient
    return 20.0 * std::log10(rms(out, from, out.size()) / rms(in, from, in.size()));
}

TEST_CASE("2 kHz lowpass: -3 dB at 2000 Hz, flat below, 12 dB/octave above, at several rates") {
    for (double rate : {44100.0, 48000.0, 96000.0}) {
        INFO("rate " << rate);
        CHECK(gainDb(rate, 2000.0) == doctest::Approx(-3.0).epsilon(0.5 / 3.0));
        CHECK(std::fabs(gainDb(rate, 200.0)) < 0.1);
        CHECK(gainDb(rate, 4000.0) < -10.0);
        CHECK(gainDb(rate, 8000.0) < -22.0);
    }
}

TEST_CASE("lowpass: coefficients apart from state; reset equals a fresh instance") {
    boop::dsp::Lowpass a, b;
    a.prepare(44100.0);
    b.prepare(44100.0);
    for (int i = 0; i < 100; ++i) a.process(i % 2 ? 1.0f : -1.0f);
    a.reset();
    for (int i = 0; i < 100; ++i) REQUIRE(a.process(float(i)) == b.process(float(i)));
    CHECK(20 * std::log10(a.coefficients.magnitudeAt(44100.0, 2000.0)) == doctest::Approx(-3.01).epsilon(0.01));
}

TEST_CASE("melody through the engine: 2 kHz component 3 dB below a 200 Hz one") {
    auto level = [](double hz) {
        EngineHandle e(44100.0);
        boop_engine_note_on(e, 0, 1, BOOP_TIMBRE_MELODY, hz, 1.0f);
        auto x = e.render(22050);
        return rms(x, 4410, x.size());
    };
    CHECK(20 * std::log10(level(2000.0) / level(200.0)) == doctest::Approx(-3.0).epsilon(0.5 / 3.0));
}
