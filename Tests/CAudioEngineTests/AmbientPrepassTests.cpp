#include <doctest/doctest.h>
#include <cstdint>
#include <cstring>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "ambient/AmbientEngine.hpp"

// The loudness measured on the piece's own first seconds (AmbientPrepass.cpp): measureAhead mixes
// them once and keeps them; render() masters them later, and what the listener sees in the status
// (the chord changes, the peaks) arrives when its frames are heard, not when they were
// composed. It is only for a new engine: afterwards, or after a render, it declines.
// (AmbientMeasureTests checks the measurement and the samples against a separate measurement.)

using ambtest::config;
using boop::ambient::AmbientEngine;

namespace {

// A short piece with chords every second, so several changes fall inside the kept seconds.
boop_ambient_config piece() {
    boop_ambient_config c = config(17, 22050.0);
    c.tempo_bpm = 240.0;
    c.chord_seconds = 1.0;
    c.fade_in_seconds = 0.25f;
    return c;
}

struct Seen {
    std::uint64_t frame, chords;
    int key, root, degree;
    float peakL, peakR;
    float levels[5];  // pad, lead, grain, ocean, reverb
    bool operator==(const Seen& o) const {
        return frame == o.frame && chords == o.chords && key == o.key && root == o.root && degree == o.degree &&
               peakL == o.peakL && peakR == o.peakR;
    }
    bool sameLevels(const Seen& o) const { return std::memcmp(levels, o.levels, sizeof levels) == 0; }
};

Seen seen(const AmbientEngine& e) {
    boop_ambient_status s;
    e.status(s);
    return Seen{s.frame,        s.chords,
                s.key,          s.chord_root,
                s.chord_degree, s.peak_left,
                s.peak_right,   {s.level_pad, s.level_lead, s.level_grain, s.level_ocean, s.level_reverb}};
}

}  // namespace

TEST_CASE("after measuring ahead, the status shows each chord and level when its frames are heard") {
    const boop_ambient_config c = piece();
    AmbientEngine ref(c), ahead(c);
    double lufs = 0;
    REQUIRE(ahead.measureAhead(3.0, lufs));  // 0.25 s of fade-in and 3 s kept: three chord changes
    const std::uint64_t kept = std::uint64_t((0.25 + 3.0) * c.sample_rate);
    CHECK(ahead.frame() == 0);        // nothing heard yet
    CHECK(seen(ahead) == seen(ref));  // and nothing shown ahead of it
    // The same blocks through both: the kept frames, then on past them.
    std::vector<float> a(2 * 1000), b(2 * 1000);
    int changes = 0;
    std::uint64_t lastChords = seen(ref).chords;
    for (int i = 0; i < 180; ++i) {  // 4.2 s: past the 3.25 s kept
        const std::uint32_t n = i % 3 == 0 ? 1000 : (i % 3 == 1 ? 32 : 517);
        ref.render(a.data(), n);
        ahead.render(b.data(), n);
        CAPTURE(i);
        REQUIRE(std::memcmp(a.data(), b.data(), 2 * n * sizeof(float)) == 0);
        const Seen s = seen(ref), t = seen(ahead);
        REQUIRE(s == t);
        // The layers' meters of the kept frames were summed per 32-frame chunk and are counted where
        // each chunk begins: near, not equal, within the kept frames; past them, the same.
        if (s.frame - n >= kept) CHECK(s.sameLevels(t));
        changes += s.chords != lastChords ? 1 : 0;
        lastChords = s.chords;
    }
    CHECK(changes >= 4);  // chords at 1, 2, 3 (kept) and 4 s (past them)
    CHECK(ahead.frame() == ref.frame());
}

TEST_CASE("measureAhead is for a new engine: it declines a second time, after a render or with a worker") {
    const boop_ambient_config c = piece();
    double lufs = 12345.0;
    {
        AmbientEngine e(c);
        REQUIRE(e.measureAhead(1.0, lufs));
        CHECK(lufs < 0.0);  // a loudness in LUFS
        double again = 12345.0;
        CHECK_FALSE(e.measureAhead(1.0, again));
        CHECK(again == 12345.0);  // untouched when declined
    }
    {
        AmbientEngine e(c);
        float block[2 * 64];
        e.render(block, 64);
        double after = 12345.0;
        CHECK_FALSE(e.measureAhead(1.0, after));
        CHECK(after == 12345.0);
    }
    {
        AmbientEngine e(c);
        if (e.startWorker()) {
            double withWorker = 12345.0;
            CHECK_FALSE(e.measureAhead(1.0, withWorker));
            CHECK(withWorker == 12345.0);
        }
    }
}

TEST_CASE("measuring ahead is deterministic: two engines of one config measure the same bits") {
    const boop_ambient_config c = piece();
    AmbientEngine one(c), two(c);
    double a = 0, b = 0;
    REQUIRE(one.measureAhead(2.0, a));
    REQUIRE(two.measureAhead(2.0, b));
    CHECK(a == b);
}
