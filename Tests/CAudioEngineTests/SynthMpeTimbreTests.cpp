// MPE on a version-1 timbre (the engine's voice banks, centred: no pan to tell the notes apart):
// a chord on three member channels, each note found in the mono mix by demodulating it at its
// key's frequency through a Blackman-Harris window (its sidelobes stay 92 dB down, the other notes
// lie 199 Hz and more away). A member's pressure gives its note the palette's vibrato, its CC 74
// the palette's lowpass gain at the note's pitch; the manager's pressure adds to each member's own.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "SynthRig.hpp"
#include "TestSignals.hpp"
#include "engine/MidiSynth.hpp"
#include "engine/SynthExpression.hpp"

using namespace testsig;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kKeys[3] = {48, 64, 79};  // C3, E4, G5 on member channels 2, 3 and 4
constexpr size_t kSecond = 48000;

// The lower zone's manager plays `voice`; the chord at velocity 64 stays below the engine's
// soft-clipper knee, so the notes do not intermodulate. One second, `change`, one second.
template <typename Change>
std::vector<float> chord(int voice, Change change) {
    SynthRig r(SynthRig::only(0, voice), 256);
    r.rpn(0, 6, 3);
    for (int n = 0; n < 3; ++n) r.send(uint8_t(0x91 + n), uint8_t(kKeys[n]), 64);
    r.render(kSecond);
    change(r);
    r.render(kSecond);
    return r.left;
}

// The same on the palette's sine voice, E4 alone on member channel 3.
template <typename Change>
std::vector<float> paletteE4(Change change) {
    SynthRig r(SynthRig::only(0, boop::MidiSynth::kPalette + BOOP_VOICE_SINE), 256);
    r.rpn(0, 6, 3);
    r.send(0x92, 64, 64);
    r.render(kSecond);
    change(r);
    r.render(kSecond);
    return r.left;
}

// The note near `hz` as a complex level every millisecond: the signal shifted down by hz and
// averaged through a Blackman-Harris window of `window` frames (unit sum: a sine of amplitude a
// gives a/2), centred on each millisecond from `begin` to `end`.
std::vector<std::complex<double>> demodulate(const std::vector<float>& x, double hz, size_t window, size_t begin,
                                             size_t end) {
    std::vector<double> w(window);
    double sum = 0.0;
    for (size_t j = 0; j < window; ++j) {
        const double p = 2.0 * kPi * double(j) / double(window - 1);
        w[j] = 0.35875 - 0.48829 * std::cos(p) + 0.14128 * std::cos(2 * p) - 0.01168 * std::cos(3 * p);
        sum += w[j];
    }
    const size_t first = begin - window / 2;
    std::vector<std::complex<double>> shifted(end - first);
    for (size_t n = first; n < end; ++n)
        shifted[n - first] = double(x[n]) * std::polar(1.0, -2.0 * kPi * hz * double(n) / SynthRig::kRate);
    std::vector<std::complex<double>> out;
    for (size_t t = begin; t + window / 2 < end; t += 48) {
        std::complex<double> z = 0.0;
        for (size_t j = 0; j < window; ++j) z += w[j] * shifted[t - window / 2 + j - first];
        out.push_back(z / sum);
    }
    return out;
}

// The note's frequency in cents from `hz` over 20 ms windows, a millisecond apart.
std::vector<double> cents(const std::vector<float>& x, double hz, size_t window, size_t begin, size_t end) {
    const auto z = demodulate(x, hz, window, begin, end);
    std::vector<double> c;
    for (size_t k = 0; k + 20 < z.size(); ++k) {
        const double turns = std::arg(z[k + 20] * std::conj(z[k])) / (2.0 * kPi);
        c.push_back(centsBetween(hz + turns / 0.02, hz));
    }
    return c;
}

double worst(const std::vector<double>& c) {
    double m = 0.0;
    for (double v : c) m = std::max(m, std::abs(v));
    return m;
}
double peakToPeak(const std::vector<double>& c) {
    const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
    return *hi - *lo;
}

// The note's amplitude in dB, averaged over [begin, end).
double level(const std::vector<float>& x, double hz, size_t begin, size_t end) {
    const auto z = demodulate(x, hz, 9600, begin, end);
    double sum = 0.0;
    for (const auto& v : z) sum += std::abs(v);
    return 20.0 * std::log10(2.0 * sum / double(z.size()));
}

// Steady: before the change [0.25, 0.95] s, after it [1.25, 1.95] s.
constexpr size_t kBefore = 12000, kBeforeEnd = 45600, kAfter = 60000, kAfterEnd = 93600;

}  // namespace

TEST_CASE("MPE on version-1 timbres: a member's pressure gives its note the palette's vibrato alone") {
    const auto p = paletteE4([](SynthRig& r) { r.send(0xD2, 127); });
    const double palette = peakToPeak(cents(p, midiToHz(64), 1920, kAfter, kAfterEnd));
    MESSAGE("palette E4 vibrato peak to peak: " << palette << " cents");
    for (int voice : {int(BOOP_TIMBRE_MELODY), int(BOOP_TIMBRE_TONE)}) {
        for (int heard = 0; heard < 3; ++heard) {
            CAPTURE(voice);
            CAPTURE(heard);
            const auto x = chord(voice, [heard](SynthRig& r) { r.send(uint8_t(0xD1 + heard), 127); });
            for (int n = 0; n < 3; ++n) {
                CAPTURE(n);
                const double hz = midiToHz(kKeys[n]);
                CHECK(worst(cents(x, hz, 9600, kBefore, kBeforeEnd)) < 0.02);
                if (n == heard) {
                    // +-50 cents at 5.5 Hz, seen through a 40 ms window and 20 ms differences.
                    const double pp = peakToPeak(cents(x, hz, 1920, kAfter, kAfterEnd));
                    MESSAGE("vibrato peak to peak: " << pp << " cents");
                    CHECK(pp > 90.0);
                    CHECK(pp < 100.5);
                    if (n == 1) CHECK(std::abs(pp - palette) < 0.5);
                } else {
                    const double w = worst(cents(x, hz, 9600, kAfter, kAfterEnd));
                    MESSAGE("steady note: " << w << " cents");
                    CHECK(w < 0.02);
                }
            }
        }
    }
}

TEST_CASE("MPE on version-1 timbres: CC 74 = 0 drops its note by the palette's dB, the others stay") {
    // The palette's sine voice, E4 alone on a member, CC 74 = 0 (its lowpass to 20 Hz).
    const auto p = paletteE4([](SynthRig& r) { r.send(0xB2, 74, 0); });
    const double e4 = midiToHz(64);
    const double palette = level(p, e4, kAfter, kAfterEnd) - level(p, e4, kBefore, kBeforeEnd);
    const double formula = 20.0 * std::log10(boop::lowpassGain(SynthRig::kRate, 20.0, boop::kExpressionQ, e4));
    MESSAGE("palette E4 at CC 74 = 0: " << palette << " dB (the lowpass's magnitude: " << formula << " dB)");
    CHECK(palette < -45.0);
    for (int voice : {int(BOOP_TIMBRE_MELODY), int(BOOP_TIMBRE_CHORDS), int(BOOP_TIMBRE_TONE)}) {
        CAPTURE(voice);
        const auto x = chord(voice, [](SynthRig& r) { r.send(0xB2, 74, 0); });  // E4's member
        for (int n = 0; n < 3; ++n) {
            CAPTURE(n);
            const double hz = midiToHz(kKeys[n]);
            const double change = level(x, hz, kAfter, kAfterEnd) - level(x, hz, kBefore, kBeforeEnd);
            if (n == 1) {
                MESSAGE("version-1 E4 at CC 74 = 0: " << change << " dB");
                CHECK(std::abs(change - palette) < 0.01);
            } else {
                MESSAGE("other note: " << change << " dB");
                CHECK(std::abs(change) < 0.002);
            }
        }
        // The drop glides over the volume's 5 ms: no frame steps further than the steady chord's do
        // (a drop at once steps about five times further on the unfiltered tone, 5 % on the others).
        CHECK(maxStep(x, kSecond, kSecond + 960) <= maxStep(x, kBefore, kBeforeEnd));
    }
}

TEST_CASE("MPE: the manager's pressure adds to each member's own, the sum clamped at 127") {
    const double hz[3] = {midiToHz(kKeys[0]), midiToHz(kKeys[1]), midiToHz(kKeys[2])};
    const auto depth = [&](const std::vector<float>& x, int n) {
        return peakToPeak(cents(x, hz[n], 1920, kAfter, kAfterEnd));
    };
    const int melody = BOOP_TIMBRE_MELODY;
    // E4's member 64 and the manager 63: E4 at full depth, as with its member alone at 127.
    const auto sum = chord(melody, [](SynthRig& r) {
        r.send(0xD2, 64);
        r.send(0xD0, 63);
    });
    const auto full = chord(melody, [](SynthRig& r) { r.send(0xD2, 127); });
    const auto clamped = chord(melody, [](SynthRig& r) {
        r.send(0xD2, 100);
        r.send(0xD0, 100);
    });
    const auto zone = chord(melody, [](SynthRig& r) { r.send(0xD0, 63); });
    MESSAGE("E4 peak to peak: 64 + 63 " << depth(sum, 1) << ", 127 alone " << depth(full, 1) << ", 100 + 100 "
                                        << depth(clamped, 1) << ", the manager's 63 alone " << depth(zone, 1));
    CHECK(std::abs(depth(sum, 1) - depth(full, 1)) < 0.01);
    // The palette's channels combine the same way.
    const auto p = [&](const std::vector<float>& x) { return peakToPeak(cents(x, hz[1], 1920, kAfter, kAfterEnd)); };
    const double paletteSum = p(paletteE4([](SynthRig& r) {
        r.send(0xD2, 64);
        r.send(0xD0, 63);
    }));
    const double paletteFull = p(paletteE4([](SynthRig& r) { r.send(0xD2, 127); }));
    MESSAGE("palette E4 peak to peak: 64 + 63 " << paletteSum << ", 127 alone " << paletteFull);
    CHECK(std::abs(paletteSum - paletteFull) < 0.01);
    CHECK(std::abs(depth(clamped, 1) - depth(full, 1)) < 0.01);
    // The manager's 63 alone reaches every note at 63/127 of full depth.
    for (int n = 0; n < 3; ++n) {
        CAPTURE(n);
        CHECK(std::abs(depth(zone, n) / depth(full, 1) - 63.0 / 127.0) < 0.02);
        if (n != 1) CHECK(std::abs(depth(sum, n) / depth(full, 1) - 63.0 / 127.0) < 0.02);
    }
}
