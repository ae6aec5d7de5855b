// The voice tracker: no spurious high reading at a tone's onset (a C7 at an A4's start), the
// pitch of a clean tone to a fraction of a cent, and a steady voice-like tone held through
// breath noise without octave slips.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "dsp/PitchTracker.hpp"

namespace {
constexpr double kRate = 16000.0;
constexpr uint32_t kWindow = 1024, kHop = 160;

std::vector<boop::dsp::PitchFrame> track(const std::vector<float>& x) {
    boop::dsp::PitchTracker t;
    t.prepare(kRate, kWindow, 8);
    t.setRange(50, 1400);
    std::vector<float> padded(kWindow / 2, 0.0f);
    padded.insert(padded.end(), x.begin(), x.end());
    padded.insert(padded.end(), kWindow / 2, 0.0f);
    std::vector<boop::dsp::PitchFrame> out;
    boop::dsp::PitchFrame f;
    for (size_t k = 0; k * kHop < x.size(); ++k)
        if (t.push(padded.data() + k * kHop, kWindow, f)) out.push_back(f);
    boop::dsp::PitchFrame rest[32];
    for (uint32_t n; (n = t.flush(rest, 32)) > 0;) out.insert(out.end(), rest, rest + n);
    return out;
}
}  // namespace

TEST_CASE("PitchTracker: an A4 after silence never reads above it, and settles to a fraction of a cent") {
    std::vector<float> x(size_t(kRate * 1.5), 0.0f);
    for (size_t i = size_t(kRate * 0.5); i < x.size(); ++i)
        x[i] = float(0.5 * std::sin(2 * M_PI * 440.0 * double(i) / kRate));
    const auto frames = track(x);
    REQUIRE(frames.size() == x.size() / kHop);
    for (const auto& f : frames) CHECK(f.frequency < 440.0 * 1.03);
    const auto& late = frames[frames.size() - 20];
    CHECK(std::fabs(1200.0 * std::log2(late.frequency / 440.0)) < 0.05);
}

TEST_CASE("PitchTracker: a glottal pulse train in white noise at 10 dB SNR stays on its octave") {
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0.0, 1.0);
    const double f0 = 150.0;
    // Rosenberg flow, differentiated (lip radiation), normalised to unit RMS.
    std::vector<double> v(size_t(kRate * 2));
    double previous = 0.0, power = 0.0;
    for (size_t i = 0; i < v.size(); ++i) {
        const double ph = std::fmod(f0 * double(i) / kRate, 1.0);
        const double flow = ph < 0.4    ? 0.5 * (1 - std::cos(M_PI * ph / 0.4))
                            : ph < 0.56 ? std::cos(M_PI * (ph - 0.4) / 0.32)
                                        : 0.0;
        v[i] = flow - previous;
        previous = flow;
        power += v[i] * v[i];
    }
    const double scale = 0.1 / std::sqrt(power / double(v.size()));
    std::vector<float> x(v.size());
    for (size_t i = 0; i < v.size(); ++i) x[i] = float(scale * v[i] + 0.1 * std::sqrt(0.1) * noise(rng));  // 10 dB
    const auto frames = track(x);
    int octave = 0, near = 0, total = 0;
    for (size_t k = 10; k + 10 < frames.size(); ++k, ++total) {
        const double g = frames[k].frequency > 0 ? frames[k].frequency : frames[k].guess;
        const double c = g > 0 ? 1200.0 * std::log2(g / f0) : 1e9;
        if (std::fabs(c) < 50) ++near;
        if (std::fabs(std::fabs(c) - 1200) < 50) ++octave;
    }
    CHECK(octave == 0);
    CHECK(near >= total * 99 / 100);
}
