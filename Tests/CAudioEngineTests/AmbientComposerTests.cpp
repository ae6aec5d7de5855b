#include <doctest/doctest.h>
#include <cmath>
#include <cstdint>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "ambient/AmbientEngine.hpp"
#include "ambient/HarmonyManager.hpp"

// The composition (AmbientComposer.cpp): chords change on step boundaries, whole multiples of the
// lead rhythm's cycle when they fit, on exact frames of the composition clock; every chord is
// built on a degree of the key's scale; the key moves only round the circle of fifths, from the
// tonic chord (the pivot: the old tonic becomes the new key's); and all of it is a function of the config and seed.

using boop::ambient::AmbientEngine;
using boop::ambient::kScaleIntervals;

namespace {

// A fast piece: chords every second at 240 bpm, so the tests hear several changes quickly.
boop_ambient_config fastPiece(std::uint64_t seed, std::uint32_t leadSteps, float modulation) {
    boop_ambient_config c = ambtest::config(seed, 22050.0);
    c.tempo_bpm = 240.0;
    c.chord_seconds = 1.0;
    c.lead_steps = leadSteps;
    c.lead_pulses = std::min<std::uint32_t>(c.lead_pulses, leadSteps);
    c.lead_rotation = 0;
    c.modulation_chance = modulation;
    return c;
}

// The frame chord k starts on, from the rule the composer states: a sixteenth is
// rate * 60 / (bpm * 4) frames; a chord lasts chord_seconds in whole steps, rounded to whole
// rhythm cycles when it is at least one cycle long; step k starts on the frame nearest k steps.
std::uint64_t chordFrame(const boop_ambient_config& c, std::uint64_t k) {
    const double framesPerStep = c.sample_rate * 60.0 / (c.tempo_bpm * 4.0);
    std::uint64_t steps = std::uint64_t(std::llround(c.chord_seconds * c.sample_rate / framesPerStep));
    if (steps >= c.lead_steps) steps = (steps + c.lead_steps / 2) / c.lead_steps * c.lead_steps;
    return std::uint64_t(std::floor(double(k * steps) * framesPerStep + 0.5));
}

struct Shown {
    std::uint64_t chords;
    int key, root, degree;
    bool operator==(const Shown& o) const {
        return chords == o.chords && key == o.key && root == o.root && degree == o.degree;
    }
};

Shown shown(const AmbientEngine& e) {
    boop_ambient_status s;
    e.status(s);
    return Shown{s.chords, s.key, s.chord_root, s.chord_degree};
}

// Renders up to frame `to` (from `at`), in blocks.
void renderTo(AmbientEngine& e, std::uint64_t& at, std::uint64_t to) {
    float block[2 * 1024];
    while (at < to) {
        const auto n = std::uint32_t(std::min<std::uint64_t>(1024, to - at));
        e.render(block, n);
        at += n;
    }
}

// The chords a piece shows, one entry per chord, each read on the frame it starts.
std::vector<Shown> chordsOf(const boop_ambient_config& c, int count) {
    AmbientEngine e(c);
    std::vector<Shown> out;
    std::uint64_t at = 0;
    for (int k = 0; k < count; ++k) {
        renderTo(e, at, chordFrame(c, std::uint64_t(k)) + 1);
        out.push_back(shown(e));
    }
    return out;
}

}  // namespace

TEST_CASE("each chord changes on its exact frame: the step rule, rounded to whole rhythm cycles") {
    // 16 steps a chord: kept for a cycle of 32 (shorter than one), rounded to 15 for a cycle of 3.
    for (std::uint32_t leadSteps : {32u, 3u, 16u}) {
        CAPTURE(leadSteps);
        const boop_ambient_config c = fastPiece(5, leadSteps, 0.0f);
        AmbientEngine e(c);
        std::uint64_t at = 0;
        for (std::uint64_t k = 1; k <= 5; ++k) {
            const std::uint64_t f = chordFrame(c, k);
            CAPTURE(k);
            renderTo(e, at, f);  // frames [0, f): chord k not yet made
            CHECK(shown(e).chords == k - 1);
            renderTo(e, at, f + 1);  // frame f made: chord k shown
            CHECK(shown(e).chords == k);
        }
    }
}

TEST_CASE("without modulation every chord is built on a degree of the configured key's scale") {
    for (std::uint32_t scale = 0; scale < 6; ++scale)
        for (std::int32_t key : {0, 3, 10}) {
            CAPTURE(scale);
            CAPTURE(key);
            boop_ambient_config c = fastPiece(100 + scale, 16, 0.0f);
            c.scale = scale;
            c.key = key;
            const std::vector<Shown> chords = chordsOf(c, 7);
            CHECK(chords.front().degree == 0);  // the piece opens on the tonic
            for (const Shown& s : chords) {
                CHECK(s.key == key);
                REQUIRE(s.degree >= 0);
                REQUIRE(s.degree < 7);
                CHECK(s.root == (key + kScaleIntervals[scale][s.degree]) % 12);
            }
        }
}

TEST_CASE("the key moves only from the tonic chord, a fifth up or down the circle") {
    int modulations = 0;
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        CAPTURE(seed);
        const std::vector<Shown> chords = chordsOf(fastPiece(seed, 16, 1.0f), 12);
        for (size_t i = 1; i < chords.size(); ++i) {
            const Shown &before = chords[i - 1], &now = chords[i];
            CHECK(now.root == (now.key + kScaleIntervals[0][now.degree]) % 12);
            if (now.key == before.key) continue;
            ++modulations;
            CHECK(before.degree == 0);
            const int step = ((now.key - before.key) % 12 + 12) % 12;
            CHECK((step == 7 || step == 5));
        }
    }
    CHECK(modulations > 0);  // a chance of 1 does modulate
}

TEST_CASE("the composition is a function of the seed: the same chords again, another seed's differ") {
    const std::vector<Shown> a = chordsOf(fastPiece(42, 16, 0.3f), 10), b = chordsOf(fastPiece(42, 16, 0.3f), 10);
    const std::vector<Shown> other = chordsOf(fastPiece(43, 16, 0.3f), 10);
    CHECK(a == b);
    CHECK_FALSE(a == other);
}
