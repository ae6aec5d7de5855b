#pragma once
// The one table of note names, for the engine and (through boop_ambient_spelled_name) for the
// Swift layer's note spellings: every spelling with at most one accidental ("C", "C#", "Db", ...
// "B#", "Cb"), so a name keeps the sharp or flat it was written with.

namespace boop::ambient {

// How pitch classes are spelled: as written with sharps, as written with flats, or as keys are
// conventionally named (the key signatures with the fewest accidentals: Db, Eb, F#, Ab, Bb).
enum class Spelling : int { Conventional = 0, Sharps = 1, Flats = 2 };

struct NoteName {
    int pitchClass = -1;  // 0 ... 11, -1 when the text is not a note name
    Spelling spelling = Spelling::Conventional;
    const char* name = nullptr;  // the table's static copy of the name as written
};

// Reads "C", "C#", "Db", ... (a letter A-G, then at most one '#' or 'b'): its pitch class, the
// spelling it implies (a sharp: Sharps, a flat: Flats, none: Conventional) and the static name.
NoteName parseNoteName(const char* text) noexcept;

// The static name of pitch class pc (any integer, taken modulo 12) in the given spelling: a
// natural where there is one, else the sharp or the flat.
const char* noteName(int pc, Spelling spelling) noexcept;

}  // namespace boop::ambient
