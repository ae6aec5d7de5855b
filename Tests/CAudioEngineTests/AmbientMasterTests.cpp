#include <doctest/doctest.h>
#include <cmath>
#include <cstdint>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "ambient/AmbientEngine.hpp"
#include "dsp/SoftClipper.hpp"

// The mix and the master stage (AmbientMaster.cpp): the master gain scales the mix; the fades are
// gains ahead of the limiter and the clipper and never touch the mix itself (the composition and
// the effects never depend on the master stage's state), so once a fade-in is over the piece is
// the piece without one; the limiter's gain is exactly 1 under its threshold; |out| <= 1 always.

using ambtest::config;
using boop::ambient::AmbientEngine;

namespace {

std::vector<float> renderFrames(AmbientEngine& e, std::size_t frames) {
    std::vector<float> out(2 * frames);
    for (std::size_t done = 0; done < frames;) {
        const auto n = std::uint32_t(std::min<std::size_t>(777, frames - done));
        e.render(out.data() + 2 * done, n);
        done += n;
    }
    return out;
}

// SoftLimiter's threshold (0.8): a pre-limiter peak at or under it leaves the limiter's gain at
// exactly 1, and the clipper maps it to at most cubic(0.8).
constexpr float kThreshold = 0.8f;

// The clipper's x - 4/27 x^3 inverted on its increasing part (Newton), for samples under it.
double uncubic(double v) {
    double u = v;
    for (int k = 0; k < 30; ++k) u -= (u - 4.0 / 27.0 * u * u * u - v) / (1.0 - 4.0 / 9.0 * u * u);
    return u;
}

// Float rounding of a gain product and of the clipper, relative (a few float ulps of 6e-8).
constexpr double kRounding = 1e-5;

}  // namespace

TEST_CASE("a master gain of zero is exact silence, and the status peaks show none") {
    boop_ambient_config c = config(3, 22050.0);
    c.master_gain = 0.0f;
    c.fade_in_seconds = 0.0f;
    AmbientEngine e(c);
    const std::vector<float> out = renderFrames(e, 22050);
    for (float v : out) REQUIRE(v == 0.0f);
    boop_ambient_status s;
    e.status(s);
    CHECK(s.peak_left == 0.0f);
    CHECK(s.peak_right == 0.0f);
}

TEST_CASE("a fade-in never raises a sample, and after it the piece is the piece without one, bit for bit") {
    const double rate = 22050.0;
    boop_ambient_config with = config(9, rate), without = with;
    with.master_gain = without.master_gain = 0.3f;  // quiet: the limiter never acts on either
    with.fade_in_seconds = 0.5f;
    without.fade_in_seconds = 0.0f;
    AmbientEngine faded(with), plain(without);
    const std::size_t frames = std::size_t(rate * 2.0);
    const std::vector<float> a = renderFrames(faded, frames), b = renderFrames(plain, frames);
    // The precondition of the comparison: no pre-limiter peak of the plain piece reached the
    // threshold (the clipper is increasing, so its output shows that), and a fade only lowers.
    REQUIRE(ambtest::peak(b) <= boop::dsp::SoftClipper::cubic(kThreshold));
    REQUIRE(ambtest::rms(b) > 0.001);
    // The ramp steps once a frame (0.5 s * rate steps to 1); a double's sum may take one step more.
    const double steps = 0.5 * rate;
    const std::size_t fadeEnd = std::size_t(steps) + 1;
    for (std::size_t i = 0; i < a.size(); ++i) {
        REQUIRE(std::fabs(a[i]) <= std::fabs(b[i]));
        // Frame f's gain is (f + 1) / steps, ahead of the clipper, which never raises: |out| is at
        // most that gain times the plain piece's pre-clipper sample.
        const double gain = std::min(1.0, double(i / 2 + 1) / steps);
        REQUIRE(std::fabs(a[i]) <= gain * uncubic(std::fabs(b[i])) * (1.0 + kRounding));
        if (i >= 2 * fadeEnd) REQUIRE(a[i] == b[i]);
    }
}

TEST_CASE("the master gain scales the mix: quiet pieces differ by the clipper's curve alone") {
    // Under the threshold the output is cubic(g * mix): the same mix at two gains, so
    // cubic^-1(out) / g is the same signal for both (to float rounding of g * mix).
    const double rate = 22050.0;
    boop_ambient_config lo = config(21, rate), hi = lo;
    lo.master_gain = 0.1f;
    hi.master_gain = 0.2f;
    AmbientEngine a(lo), b(hi);
    const std::size_t frames = std::size_t(rate);
    const std::vector<float> x = renderFrames(a, frames), y = renderFrames(b, frames);
    REQUIRE(ambtest::peak(y) <= boop::dsp::SoftClipper::cubic(kThreshold));
    double worst = 0, level = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double mixLo = uncubic(x[i]) / 0.1, mixHi = uncubic(y[i]) / 0.2;
        worst = std::max(worst, std::fabs(mixLo - mixHi));
        level = std::max(level, std::fabs(mixHi));
    }
    REQUIRE(level > 0.01);
    // Each side is a float product and a float cubic: a few ulps of the sample, scaled by 1/g.
    CHECK(worst <= kRounding * level);
}

TEST_CASE("a loud master gain is limited and clipped: never above 1, never non-finite") {
    boop_ambient_config c = config(4, 22050.0);
    c.master_gain = 2.0f;
    c.fade_in_seconds = 0.0f;
    AmbientEngine e(c);
    const std::vector<float> out = renderFrames(e, 44100);
    CHECK(ambtest::nonFinite(out) == 0);
    CHECK(ambtest::peak(out) <= 1.0);
    boop_ambient_status s;
    e.status(s);
    CHECK(s.nonfinite_resets == 0);
}
