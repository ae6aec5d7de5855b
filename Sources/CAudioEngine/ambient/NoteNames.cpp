#include "ambient/NoteNames.hpp"

#include <cstring>

namespace boop::ambient {

namespace {

struct Entry {
    const char* name;
    int pitchClass;
};

// Every letter with no accidental, a sharp and a flat: the names as they are written.
constexpr Entry kNames[] = {
    {"C", 0},  {"C#", 1}, {"Cb", 11}, {"D", 2},  {"D#", 3}, {"Db", 1}, {"E", 4},
    {"E#", 5}, {"Eb", 3}, {"F", 5},   {"F#", 6}, {"Fb", 4}, {"G", 7},  {"G#", 8},
    {"Gb", 6}, {"A", 9},  {"A#", 10}, {"Ab", 8}, {"B", 11}, {"B#", 0}, {"Bb", 10},
};

// For each pitch class, the index in kNames of its natural or, without one, its sharp, its flat
// and its conventional key name.
struct ByPitch {
    int sharp, flat, conventional;
};
constexpr ByPitch kByPitch[12] = {
    {0, 0, 0},    {1, 5, 5},    {3, 3, 3},    {4, 8, 8},    {6, 6, 6},    {9, 9, 9},
    {10, 14, 10}, {12, 12, 12}, {13, 17, 17}, {15, 15, 15}, {16, 20, 20}, {18, 18, 18},
};

}  // namespace

NoteName parseNoteName(const char* text) noexcept {
    NoteName n;
    if (text == nullptr) return n;
    for (const Entry& e : kNames) {
        if (std::strcmp(e.name, text) != 0) continue;
        n.pitchClass = e.pitchClass;
        n.name = e.name;
        n.spelling = e.name[1] == '#' ? Spelling::Sharps : e.name[1] == 'b' ? Spelling::Flats : Spelling::Conventional;
        return n;
    }
    return n;
}

const char* noteName(int pc, Spelling spelling) noexcept {
    const ByPitch& p = kByPitch[((pc % 12) + 12) % 12];
    switch (spelling) {
        case Spelling::Sharps:
            return kNames[p.sharp].name;
        case Spelling::Flats:
            return kNames[p.flat].name;
        case Spelling::Conventional:
            break;
    }
    return kNames[p.conventional].name;
}

}  // namespace boop::ambient
