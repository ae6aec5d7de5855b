#include <doctest/doctest.h>
#include <string>
#include "ambient/HarmonyManager.hpp"
#include "ambient/NoteNames.hpp"

using namespace boop::ambient;

TEST_CASE("note names keep the sharp or flat they were written with") {
    const NoteName cs = parseNoteName("C#"), db = parseNoteName("Db");
    CHECK(cs.pitchClass == 1);
    CHECK(db.pitchClass == 1);
    CHECK(std::string(cs.name) == "C#");
    CHECK(std::string(db.name) == "Db");
    CHECK(std::string(noteName(cs.pitchClass, cs.spelling)) == "C#");
    CHECK(std::string(noteName(db.pitchClass, db.spelling)) == "Db");
    CHECK(parseNoteName("B#").pitchClass == 0);
    CHECK(parseNoteName("Cb").pitchClass == 11);
    CHECK(parseNoteName("H").pitchClass == -1);
    CHECK(parseNoteName("C##").pitchClass == -1);
    CHECK(parseNoteName(nullptr).pitchClass == -1);
}

TEST_CASE("every pitch class has a sharp, a flat and a conventional name, each read back as itself") {
    const char* conventional[12] = {"C", "Db", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"};
    for (int pc = 0; pc < 12; ++pc) {
        CHECK(std::string(noteName(pc, Spelling::Conventional)) == conventional[pc]);
        CHECK(std::string(HarmonyManager::noteName(pc)) == conventional[pc]);
        for (Spelling s : {Spelling::Sharps, Spelling::Flats, Spelling::Conventional}) {
            const NoteName back = parseNoteName(noteName(pc, s));
            CHECK(back.pitchClass == pc);
            if (s != Spelling::Conventional) CHECK((back.spelling == s || back.spelling == Spelling::Conventional));
        }
    }
    CHECK(std::string(noteName(-1, Spelling::Sharps)) == "B");
    CHECK(std::string(noteName(13, Spelling::Flats)) == "Db");
}

TEST_CASE("chord names are spelled as the key was written") {
    char name[16];
    HarmonyManager::chordName(1, ChordQuality::Minor7, name, sizeof name, parseNoteName("C#").spelling);
    CHECK(std::string(name) == "C#m7");
    HarmonyManager::chordName(1, ChordQuality::Minor7, name, sizeof name, parseNoteName("Db").spelling);
    CHECK(std::string(name) == "Dbm7");
    HarmonyManager::chordName(6, ChordQuality::Major, name, sizeof name);
    CHECK(std::string(name) == "F#");
}
