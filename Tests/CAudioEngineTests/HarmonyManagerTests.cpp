#include <doctest/doctest.h>
#include <cstring>
#include <set>
#include <string>
#include <vector>
#include "ambient/HarmonyManager.hpp"

using namespace boop::ambient;

TEST_CASE("diatonic chords of C major have the textbook qualities") {
    HarmonyManager h;
    h.configure(0, Scale::Major, 0.0f, 0.0f, 1);
    const ChordQuality triads[7] = {ChordQuality::Major,     ChordQuality::Minor, ChordQuality::Minor,
                                    ChordQuality::Major,     ChordQuality::Major, ChordQuality::Minor,
                                    ChordQuality::Diminished};
    const ChordQuality sevenths[7] = {ChordQuality::Major7,         ChordQuality::Minor7,    ChordQuality::Minor7,
                                      ChordQuality::Major7,         ChordQuality::Dominant7, ChordQuality::Minor7,
                                      ChordQuality::HalfDiminished7};
    for (int d = 0; d < 7; ++d) {
        CHECK(h.build(d, false).quality == triads[d]);
        CHECK(h.build(d, true).quality == sevenths[d]);
    }
    char name[16];
    const Chord g7 = h.build(4, true);
    HarmonyManager::chordName(g7.root, g7.quality, name, sizeof name);
    CHECK(std::string(name) == "G7");
    const Chord am = h.build(5, false);
    HarmonyManager::chordName(am.root, am.quality, name, sizeof name);
    CHECK(std::string(name) == "Am");
}

TEST_CASE("scales and keys place notes correctly") {
    HarmonyManager h;
    h.configure(9, Scale::Minor, 0.0f, 0.0f, 1);  // A minor
    CHECK(h.scaleNote(0, 4) == 69);               // A4
    CHECK(h.scaleNote(2, 4) == 72);               // C5
    CHECK(h.scaleNote(7, 4) == 81);               // A5
    CHECK(h.scaleNote(-1, 4) == 67);              // G4
    h.configure(2, Scale::Dorian, 0.0f, 0.0f, 1);
    CHECK(h.scaleNote(5, 3) == 50 + 9);  // D dorian's sixth is a major sixth
    h.configure(5, Scale::Lydian, 0.0f, 0.0f, 1);
    CHECK(h.scaleNote(3, 4) == 65 + 6);  // F lydian's raised fourth
}

TEST_CASE("progressions prefer roots moving by fifths and skip diminished chords") {
    HarmonyManager h;
    h.configure(0, Scale::Major, 0.3f, 0.0f, 42);
    int byFifth = 0, total = 2000;
    int prevRoot = h.current().root;
    for (int i = 0; i < total; ++i) {
        const Chord& c = h.next();
        CHECK(c.quality != ChordQuality::Diminished);
        CHECK(c.quality != ChordQuality::HalfDiminished7);
        const int interval = ((c.root - prevRoot) % 12 + 12) % 12;
        if (interval == 5 || interval == 7 || interval == 6) ++byFifth;  // 6: the diatonic fifth F-B
        prevRoot = c.root;
    }
    CHECK(byFifth > total * 0.7);
    CHECK(h.key() == 0);  // no modulation asked for
}

TEST_CASE("key changes move one step round the circle of fifths") {
    HarmonyManager h;
    h.configure(0, Scale::Major, 0.3f, 1.0f, 7);
    int prevKey = h.key();
    std::set<int> visited{prevKey};
    int changes = 0;
    for (int i = 0; i < 3000; ++i) {
        h.next();
        if (h.key() != prevKey) {
            const int step = ((h.key() - prevKey) % 12 + 12) % 12;
            CHECK((step == 7 || step == 5));
            ++changes;
            visited.insert(h.key());
        }
        prevKey = h.key();
    }
    CHECK(changes > 20);
    CHECK(static_cast<std::uint64_t>(changes) == h.modulations());
    CHECK(visited.size() == 12);  // the walk reaches every key eventually
}

TEST_CASE("the same seed gives the same progression, another seed another") {
    auto run = [](std::uint64_t seed) {
        HarmonyManager h;
        h.configure(4, Scale::Mixolydian, 0.4f, 0.5f, seed);
        std::vector<int> v;
        for (int i = 0; i < 64; ++i) {
            const Chord& c = h.next();
            v.push_back(h.key() * 1000 + c.root * 10 + static_cast<int>(c.quality));
        }
        return v;
    };
    CHECK(run(7) == run(7));
    CHECK(run(7) != run(8));
    HarmonyManager h;
    h.configure(0, Scale::Major, 0.3f, 0.5f, 3);
    for (int i = 0; i < 10; ++i) h.next();
    h.reset();
    CHECK(h.key() == 0);
    CHECK(h.chordCount() == 0);
}
