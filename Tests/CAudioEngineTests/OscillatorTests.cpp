#include <doctest/doctest.h>
#include "TestSignals.hpp"
#include "reference/Oscillator.hpp"

using namespace testsig;

TEST_CASE("reference oscillator: A4 is 440 Hz and reset equals a fresh instance") {
    boop::reference::Oscillator osc;
    osc.prepare(48000.0);
    osc.setFrequency(440.0);
    std::vector<float> x(48000);
    for (float& v : x) v = osc.process();
    CHECK(std::fabs(centsBetween(zeroCrossingFrequency(x, 48000.0, 0, x.size()), 440.0)) < 0.01);
    osc.reset();
    boop::reference::Oscillator fresh;
    fresh.prepare(48000.0);
    fresh.setFrequency(440.0);
    for (int i = 0; i < 1000; ++i) REQUIRE(osc.process() == fresh.process());
}

TEST_CASE("engine tuning on rendered samples: MIDI 21 ... 108 within 0.1 cent (A4 = 440 Hz)") {
    double worst = 0.0;
    for (int midi = 21; midi <= 108; ++midi) {
        EngineHandle engine(44100.0);
        const double hz = midiToHz(midi);
        REQUIRE(boop_engine_note_on(engine, 0, 1, BOOP_TIMBRE_MELODY, hz, 0.6f) == BOOP_OK);
        const size_t frames = 44100 * 2;
        auto x = engine.render(frames);
        const double measured = zeroCrossingFrequency(x, 44100.0, 4410, frames);
        const double err = std::fabs(centsBetween(measured, hz));
        worst = std::max(worst, err);
        INFO("midi " << midi << " measured " << measured << " Hz, expected " << hz);
        CHECK(err < 0.1);
    }
    MESSAGE("worst tuning error MIDI 21..108: " << worst << " cent");
    EngineHandle a4(44100.0);
    boop_engine_note_on(a4, 0, 1, BOOP_TIMBRE_MELODY, midiToHz(69), 0.6f);
    auto x = a4.render(44100);
    CHECK(zeroCrossingFrequency(x, 44100.0, 4410, x.size()) == doctest::Approx(440.0).epsilon(1e-6));
}
