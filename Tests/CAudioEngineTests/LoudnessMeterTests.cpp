// The BS.1770-4 meter against the reference signals of EBU Tech 3341 (generated here): each must
// read its stated loudness within +-0.1 LU (the true-peak cases are in TruePeakTests).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "dsp/LoudnessMeter.hpp"

namespace {

const double kPi = 3.14159265358979323846;

// A stereo sine at `dbfs` (relative to a full-scale sine) in both channels, appended to `out`.
void sine(std::vector<float>& out, double rate, double hz, double dbfs, double seconds, double phase = 0) {
    const double a = std::pow(10.0, dbfs / 20.0);
    const auto n = static_cast<size_t>(std::lround(seconds * rate));
    const size_t start = out.size() / 2;
    for (size_t i = 0; i < n; ++i) {
        const float v = static_cast<float>(a * std::sin(2 * kPi * hz * double(start + i) / rate + phase));
        out.push_back(v);
        out.push_back(v);
    }
}

double integrated(const std::vector<float>& stereo, double rate) {
    boop::dsp::LoudnessMeter m;
    m.prepare(rate, 2);
    m.add(stereo.data(), stereo.size() / 2);
    return m.integrated();
}

}  // namespace

TEST_CASE("EBU 3341 case 1 and 2: a 1 kHz sine at -23 and -33 dBFS reads -23.0 and -33.0 LUFS") {
    for (double rate : {44100.0, 48000.0, 96000.0}) {
        CAPTURE(rate);
        for (double level : {-23.0, -33.0}) {
            std::vector<float> s;
            sine(s, rate, 1000, level, 20);
            CHECK(std::fabs(integrated(s, rate) - level) <= 0.1);
        }
    }
}

TEST_CASE("EBU 3341 cases 3-5: the gates ignore what they should") {
    const double rate = 48000;
    {
        std::vector<float> s;  // case 3: the quiet ends fall under the relative gate
        sine(s, rate, 1000, -36, 10);
        sine(s, rate, 1000, -23, 60);
        sine(s, rate, 1000, -36, 10);
        CHECK(std::fabs(integrated(s, rate) - -23.0) <= 0.1);
    }
    {
        std::vector<float> s;  // case 4: and the -72 dBFS ends under the absolute gate
        sine(s, rate, 1000, -72, 10);
        sine(s, rate, 1000, -36, 10);
        sine(s, rate, 1000, -23, 60);
        sine(s, rate, 1000, -36, 10);
        sine(s, rate, 1000, -72, 10);
        CHECK(std::fabs(integrated(s, rate) - -23.0) <= 0.1);
    }
    {
        std::vector<float> s;  // case 5: two levels, both above the gate, average in power
        sine(s, rate, 1000, -26, 20);
        sine(s, rate, 1000, -20, 20.1);
        sine(s, rate, 1000, -26, 20);
        CHECK(std::fabs(integrated(s, rate) - -23.0) <= 0.1);
    }
    {
        std::vector<float> s;  // silence and under 400 ms: nothing to measure
        sine(s, rate, 1000, -200, 5);
        CHECK(std::isinf(integrated(s, rate)));
        std::vector<float> t;
        sine(t, rate, 1000, -23, 0.3);
        CHECK(std::isinf(integrated(t, rate)));
    }
}

TEST_CASE("momentary and short-term loudness of a steady sine") {
    boop::dsp::LoudnessMeter m;
    m.prepare(48000, 2);
    std::vector<float> s;
    sine(s, 48000, 1000, -23, 5);
    m.add(s.data(), s.size() / 2);
    CHECK(std::fabs(m.momentary() - -23.0) <= 0.1);
    CHECK(std::fabs(m.shortTerm() - -23.0) <= 0.1);
}

TEST_CASE("K-weighting: +4 dB shelf at high frequencies, high-pass at low ones") {
    // BS.1770's response: about +0.7 dB at 1 kHz, +4 dB at 10 kHz, -1 dB near 40 Hz relative to that.
    auto gainAt = [](double hz) {
        boop::dsp::KWeighting k;
        k.prepare(48000);
        double e = 0;
        const int n = 48000;
        for (int i = 0; i < 2 * n; ++i) {
            const double y = k.process(std::sin(2 * kPi * hz * i / 48000));
            if (i >= n) e += y * y;
        }
        return 10 * std::log10(2 * e / n);
    };
    CHECK(std::fabs(gainAt(1000) - 0.69) < 0.05);
    CHECK(std::fabs(gainAt(10000) - 4.0) < 0.2);
    CHECK(gainAt(20) < -8.0);
}
