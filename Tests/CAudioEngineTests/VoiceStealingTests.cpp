// Every note the polyphony allows sounds, and a steal takes the voice the documented rule names
// (docs/DESIGN.md, "The melody voice"): the voice released first, else the oldest held one.
//
// The oracle is the same events rendered with the largest pool (256 voices, more than any case
// here sounds at once): a note that must sound has, in a window after its attack, the energy at
// its fundamental that it has there. Pitches of notes that overlap are kept apart (by at least
// three semitones, and off the first harmonics of each other), so another note's presence or
// absence cannot move that energy; the gains are low, so the mix's soft clipper stays linear.
#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>
#include "TestSignals.hpp"

using namespace testsig;

namespace {

constexpr double kRate = 44100.0;
constexpr size_t kWindow = 4096;  // 93 ms: a Hann window resolves three semitones at 131 Hz

struct Note {
    uint64_t on, off;
    boop_timbre timbre;
    int midi;
};

// Energy at hz over a Hann window of kWindow frames from begin (Goertzel).
double energyAt(const std::vector<float>& x, size_t begin, double hz) {
    const double w = 2.0 * M_PI * hz / kRate, coeff = 2.0 * std::cos(w);
    double s1 = 0.0, s2 = 0.0;
    for (size_t i = 0; i < kWindow; ++i) {
        const double hann = 0.5 - 0.5 * std::cos(2.0 * M_PI * static_cast<double>(i) / (kWindow - 1));
        const double s = hann * x[begin + i] + coeff * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    return s1 * s1 + s2 * s2 - coeff * s1 * s2;
}

std::vector<float> play(const std::vector<Note>& notes, uint32_t voices, size_t frames) {
    EngineHandle engine(kRate, voices, 1, 4096, 1u << 16);
    struct Event {
        uint64_t frame;
        bool on;
        uint32_t id;
    };
    std::vector<Event> events;
    for (uint32_t i = 0; i < notes.size(); ++i) {
        events.push_back({notes[i].on, true, i});
        events.push_back({notes[i].off, false, i});
    }
    // Offs before ons on one frame, as the sequencer queues them.
    std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
        return a.frame != b.frame ? a.frame < b.frame : !a.on && b.on;
    });
    for (const Event& e : events) {
        if (e.on)
            boop_engine_note_on(engine, e.frame, e.id, notes[e.id].timbre, midiToHz(notes[e.id].midi), 0.1f);
        else
            boop_engine_note_off(engine, e.frame, e.id);
    }
    return engine.render(frames, 256);
}

uint64_t attackFrames(boop_timbre t) { return t == BOOP_TIMBRE_CHORDS ? 1764 : 441; }  // 40 ms, else 10 ms

// Three semitones apart at least, and not within a semitone of a low harmonic of each other.
bool clash(int a, int b) {
    const int d = std::abs(a - b);
    if (d < 3) return true;
    for (int h : {12, 19, 24, 28, 31, 34, 36})
        if (std::abs(d - h) < 2) return true;
    return false;
}

bool overlaps(const Note& a, const Note& b) { return a.on < b.off + 20000 && b.on < a.off + 20000; }

std::vector<Note> randomSong(std::mt19937& rng) {
    std::vector<Note> notes;
    const boop_timbre timbres[] = {BOOP_TIMBRE_MELODY, BOOP_TIMBRE_CHORDS, BOOP_TIMBRE_BASS, BOOP_TIMBRE_TONE};
    const int count = std::uniform_int_distribution<int>(8, 40)(rng);
    uint64_t at = 0;
    for (int attempts = 0; static_cast<int>(notes.size()) < count && attempts < 2000; ++attempts) {
        // Mostly chords (several notes on one frame), sometimes a step later.
        if (std::uniform_int_distribution<int>(0, 2)(rng) == 0)
            at += static_cast<uint64_t>(std::uniform_int_distribution<int>(0, 30000)(rng));
        Note n;
        n.timbre = timbres[std::uniform_int_distribution<int>(0, 3)(rng)];
        n.midi = n.timbre == BOOP_TIMBRE_BASS ? std::uniform_int_distribution<int>(48, 62)(rng)
                                              : std::uniform_int_distribution<int>(55, 93)(rng);
        n.on = at;
        n.off = at + attackFrames(n.timbre) + 441 + kWindow + std::uniform_int_distribution<int>(0, 40000)(rng);
        bool ok = true;
        for (const Note& o : notes) ok = ok && !(overlaps(n, o) && clash(n.midi, o.midi));
        if (ok) notes.push_back(n);
    }
    return notes;
}

// The most notes held at once at any note-on in [from, to] (a note counts from on to off).
int heldPeak(const std::vector<Note>& notes, uint64_t from, uint64_t to) {
    int peak = 0;
    for (const Note& n : notes) {
        if (n.on < from || n.on > to) continue;
        int held = 0;
        for (const Note& o : notes) held += o.on <= n.on && n.on < o.off;
        peak = std::max(peak, held);
    }
    return peak;
}

}  // namespace

TEST_CASE("every note the polyphony allows sounds: 300 random songs, 1 ... 256 voices") {
    std::mt19937 rng(20261128);
    int judged = 0, songs = 0;
    for (int song = 0; song < 300; ++song) {
        const std::vector<Note> notes = randomSong(rng);
        // Small pools most often (where stealing happens), every size sometimes.
        const uint32_t voices = song % 4 == 0 ? std::uniform_int_distribution<uint32_t>(1, 256)(rng)
                                              : std::uniform_int_distribution<uint32_t>(1, 12)(rng);
        uint64_t end = 0;
        for (const Note& n : notes) end = std::max(end, n.off);
        const size_t frames = static_cast<size_t>(end) + 8820;
        const auto limited = play(notes, voices, frames);
        const auto roomy = play(notes, BOOP_ENGINE_VOICES_MAX, frames);
        ++songs;
        for (const Note& n : notes) {
            const uint64_t from = n.on + attackFrames(n.timbre) + 441;
            if (heldPeak(notes, n.on, from + kWindow) > static_cast<int>(voices)) continue;  // may be stolen
            const double hz = midiToHz(n.midi);
            const double got = energyAt(limited, from, hz), want = energyAt(roomy, from, hz);
            INFO("song " << song << " voices " << voices << " note " << n.midi << " timbre " << n.timbre << " at "
                         << n.on << ": " << dB(got) - dB(want) << " dB against the unlimited pool");
            CHECK(std::fabs(dB(got) - dB(want)) < 1.0);
            ++judged;
        }
    }
    MESSAGE(judged << " notes judged in " << songs << " songs");
    CHECK(judged > 3000);
}

TEST_CASE("a release that ends by itself gives its voice back: ten notes, then a three-note chord, 8 voices") {
    std::vector<Note> notes;
    for (int i = 0; i < 10; ++i)
        notes.push_back({static_cast<uint64_t>(i) * 11025, static_cast<uint64_t>(i) * 11025 + 5512, BOOP_TIMBRE_MELODY,
                         72 + (i % 5) * 3});
    for (int midi : {60, 64, 67}) notes.push_back({120000, 140000, BOOP_TIMBRE_CHORDS, midi});
    const auto limited = play(notes, 8, 150000);
    const auto roomy = play(notes, BOOP_ENGINE_VOICES_MAX, 150000);
    for (int midi : {60, 64, 67}) {
        const double hz = midiToHz(midi);
        INFO("chord note " << midi);
        CHECK(std::fabs(dB(energyAt(limited, 123000, hz)) - dB(energyAt(roomy, 123000, hz))) < 0.5);
    }
}

TEST_CASE("a steal takes the voice released first, before any held one, then the oldest held") {
    // Four voices: A B C D held; C released, then A; a fifth note takes C's voice (released
    // first, though A is older) while A's release runs on; a sixth takes A's; a seventh, with
    // none releasing, the oldest held: B.
    const std::vector<Note> notes = {
        {0, 30000, BOOP_TIMBRE_MELODY, 60},      // A: released second (its 150 ms release ends near 36600)
        {100, 90000, BOOP_TIMBRE_MELODY, 64},    // B: the oldest held
        {200, 28000, BOOP_TIMBRE_MELODY, 67},    // C: released first
        {300, 90000, BOOP_TIMBRE_MELODY, 71},    // D
        {31000, 90000, BOOP_TIMBRE_MELODY, 74},  // E: steals C
        {36000, 90000, BOOP_TIMBRE_MELODY, 77},  // F: steals A, the one still releasing
        {45000, 90000, BOOP_TIMBRE_MELODY, 81},  // G: steals B
    };
    const auto limited = play(notes, 4, 100000);
    const auto roomy = play(notes, BOOP_ENGINE_VOICES_MAX, 100000);
    auto loss = [&](int midi, size_t at) {
        return dB(energyAt(roomy, at, midiToHz(midi))) - dB(energyAt(limited, at, midiToHz(midi)));
    };
    CHECK(loss(67, 31000 - kWindow) < 0.5);  // both releases as in the unlimited pool before E
    CHECK(loss(60, 31000 - kWindow) < 0.5);
    CHECK(loss(67, 31541) > 20.0);  // after E: C is gone...
    CHECK(loss(60, 31441) < 0.5);   // ...and A releases on
    CHECK(loss(64, 45000 - kWindow) < 0.5);
    CHECK(loss(64, 45441) > 20.0);  // G took B, the oldest held; D, E, F and G sound
    for (int midi : {71, 74, 77, 81}) {
        INFO("held note " << midi);
        CHECK(loss(midi, 46000) < 0.5);
    }
}
