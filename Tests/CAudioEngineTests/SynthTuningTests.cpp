// The live synth under a Scala tuning (boop_synth_set_tuning, MidiSynth::setTuning): every key of
// a 19-tone equal scale and of a just-intonation scale with a mapping sounds within 0.01 cent of
// the Scala arithmetic (written out here), a key the mapping leaves out stays silent, and pitch
// bend still bends a tuned key.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "SynthRig.hpp"
#include "TestSignals.hpp"
#include "capi/TuningHandle.hpp"
#include "engine/Engine.hpp"
#include "engine/MidiSynth.hpp"
#include "engine/SynthBlocks.hpp"

using namespace testsig;

namespace {

boop_tuning* parse(const std::string& scl, const char* kbm = nullptr) {
    boop_tuning* tuning = nullptr;
    std::string mapping = kbm ? kbm : "";
    REQUIRE(boop_tuning_parse(scl.data(), scl.size(), kbm ? mapping.data() : nullptr, mapping.size(), &tuning, nullptr,
                              0) == BOOP_OK);
    return tuning;
}

// The frequency the sine voice on channel 1 plays for `key` (one second held, its middle measured).
double played(const boop_tuning* tuning, int key, int bend = 8192) {
    int voices[16];
    std::fill(voices, voices + 16, boop::MidiSynth::kOff);
    voices[0] = boop::MidiSynth::kPalette + BOOP_VOICE_SINE;
    SynthRig r(voices);
    if (tuning) r.synth.setTuning(tuning->tuning);
    r.send(0xE0, uint8_t(bend & 0x7F), uint8_t(bend >> 7));
    r.send(0x90, uint8_t(key), 100);
    r.render(48000);
    if (rms(r.left, 9600, 48000) < 1e-4) return 0.0;
    return zeroCrossingFrequency(r.left, SynthRig::kRate, 9600, 48000);
}

}  // namespace

TEST_CASE("19-tone equal temperament: every key from C3 to C6 within 0.01 cent of C4 x 2^(n/19)") {
    std::string scl = "19-tone equal\n19\n";
    for (int i = 1; i <= 19; ++i) scl += std::to_string(1200.0 * i / 19) + "\n";
    boop_tuning* tuning = parse(scl);
    double worst = 0;
    for (int key = 48; key <= 84; ++key) {
        const double expected = 261.62556530059862 * std::exp2((key - 60) / 19.0);
        worst = std::max(worst, std::fabs(centsBetween(played(tuning, key), expected)));
    }
    MESSAGE("19-EDO, keys 48-84: worst " << worst << " cents");
    CHECK(worst < 0.01);
    boop_tuning_free(tuning);
}

TEST_CASE("just intonation with A4 = 440 Hz; an unmapped key is silent; a bend bends the tuned key") {
    const std::string scl = "ji\n12\n16/15\n9/8\n6/5\n5/4\n4/3\n45/32\n3/2\n8/5\n5/3\n9/5\n15/8\n2/1\n";
    const double ratios[] = {1.0,       16.0 / 15, 9.0 / 8, 6.0 / 5, 5.0 / 4, 4.0 / 3,
                             45.0 / 32, 3.0 / 2,   8.0 / 5, 5.0 / 3, 9.0 / 5, 15.0 / 8};
    boop_tuning* tuning = parse(scl, "12\n0\n127\n60\n69\n440.0\n12\n0\n1\n2\n3\n4\n5\nx\n7\n8\n9\n10\n11\n");
    const double c4 = 440.0 / (5.0 / 3.0);
    double worst = 0;
    for (int key = 48; key <= 84; ++key) {
        const int offset = key - 60, octave = (offset >= 0 ? offset : offset - 11) / 12, degree = offset - 12 * octave;
        if (degree == 6) {
            CHECK(played(tuning, key) == 0.0);  // F#: an x in the mapping
            continue;
        }
        worst = std::max(worst, std::fabs(centsBetween(played(tuning, key), c4 * std::exp2(octave) * ratios[degree])));
    }
    MESSAGE("just intonation, keys 48-84: worst " << worst << " cents");
    CHECK(worst < 0.01);
    // A whole bend up (2 semitones by default) on E4 (5/4 over C4).
    CHECK(std::fabs(centsBetween(played(tuning, 64, 16383), c4 * 1.25 * std::exp2(2.0 * 8191 / 8192 / 12))) < 0.01);
    boop_tuning_free(tuning);
}
