#pragma once
#include <cstdint>
#include <cstdio>
#include "ambient/NoteNames.hpp"
#include "dsp/Rng.hpp"
#include "rt/Realtime.hpp"

namespace boop::ambient {

enum class Scale : int { Major = 0, Minor = 1, Dorian = 2, Phrygian = 3, Lydian = 4, Mixolydian = 5 };
constexpr int kScaleCount = 6;

// The chord qualities, one line each: the name and the suffix a chord's name ends in.
#define BOOP_CHORD_QUALITIES(X) \
    X(Major, "")                \
    X(Minor, "m")               \
    X(Diminished, "dim")        \
    X(Augmented, "aug")         \
    X(Major7, "maj7")           \
    X(Minor7, "m7")             \
    X(Dominant7, "7")           \
    X(HalfDiminished7, "m7b5")

#define BOOP_CHORD_QUALITY_ENUMERATOR(NAME, SUFFIX) NAME,
enum class ChordQuality : int { BOOP_CHORD_QUALITIES(BOOP_CHORD_QUALITY_ENUMERATOR) };
#undef BOOP_CHORD_QUALITY_ENUMERATOR

inline constexpr int kScaleIntervals[kScaleCount][7] = {
    {0, 2, 4, 5, 7, 9, 11},  // major (ionian)
    {0, 2, 3, 5, 7, 8, 10},  // natural minor (aeolian)
    {0, 2, 3, 5, 7, 9, 10},  // dorian
    {0, 1, 3, 5, 7, 8, 10},  // phrygian
    {0, 2, 4, 6, 7, 9, 11},  // lydian
    {0, 2, 4, 5, 7, 9, 10},  // mixolydian
};

struct Chord {
    int root = 0;    // pitch class 0 ... 11
    int degree = 0;  // 0 ... 6 within the current key and scale
    ChordQuality quality = ChordQuality::Major;
    int notes[4] = {0, 4, 7, 11};  // semitones above the key's tonic (may exceed 12)
    int noteCount = 3;
};

// Keys, scales and chord progressions. Chords are diatonic triads or sevenths stacked in thirds
// on a scale degree. The progression prefers the circle of fifths: most often the root falls a
// fifth (degree + 3: vi -> ii -> V -> I), sometimes rises a fifth, rarely jumps; diminished
// chords are skipped. On arriving at the tonic the key may itself move one step round the
// circle of fifths (+7 or +5 semitones), so long pieces travel through related keys.
class HarmonyManager {
  public:
    static const int* intervals(Scale s) BOOP_RT {
        int i = static_cast<int>(s);
        if (i < 0 || i >= kScaleCount) i = 0;
        return kScaleIntervals[i];
    }
    static const char* scaleName(int s) noexcept {
        static const char* const kNames[kScaleCount] = {"major", "minor", "dorian", "phrygian", "lydian", "mixolydian"};
        return (s >= 0 && s < kScaleCount) ? kNames[s] : "?";
    }
    // The conventional name of pitch class pc (see NoteNames.hpp).
    static const char* noteName(int pc) noexcept { return ambient::noteName(pc, Spelling::Conventional); }
    static const char* qualitySuffix(ChordQuality q) noexcept {
#define BOOP_CHORD_QUALITY_SUFFIX(NAME, SUFFIX) SUFFIX,
        static const char* const kSuffixes[] = {BOOP_CHORD_QUALITIES(BOOP_CHORD_QUALITY_SUFFIX)};
#undef BOOP_CHORD_QUALITY_SUFFIX
        const auto i = static_cast<std::size_t>(q);
        return i < sizeof kSuffixes / sizeof kSuffixes[0] ? kSuffixes[i] : "";
    }
    // Writes e.g. "F#m7" (always NUL-terminated), the root in the given spelling (a key written
    // "C#" spells its chords with sharps, one written "Db" with flats).
    static void chordName(int root, ChordQuality q, char* out, std::size_t size,
                          Spelling spelling = Spelling::Conventional) noexcept {
        if (size == 0) return;
        std::snprintf(out, size, "%s%s", ambient::noteName(root, spelling), qualitySuffix(q));
    }

    // seventhChance: probability that a chord is a seventh chord; modulationChance: probability
    // of moving the key one step round the circle of fifths on reaching the tonic.
    void configure(int key, Scale scale, float seventhChance, float modulationChance, std::uint64_t seed) noexcept {
        initialKey_ = ((key % 12) + 12) % 12;
        scale_ = scale;
        seventhChance_ = seventhChance;
        modulationChance_ = modulationChance;
        seed_ = seed;
        reset();
    }
    void reset() BOOP_RT {
        rng_.seedWith(seed_, dsp::kStreamHarmony);
        key_ = initialKey_;
        chordCount_ = 0;
        current_ = build(0, false);
    }

    // Moves to the next chord (and maybe the next key). Returns the new chord.
    const Chord& next() BOOP_RT {
        const float uMove = rng_.uniform(), uJump = rng_.uniform(), uSeventh = rng_.uniform();
        const float uMod = rng_.uniform(), uDir = rng_.uniform();
        int d = current_.degree;
        if (d == 0 && chordCount_ > 0 && uMod < modulationChance_) {
            // Pivot: the new key's tonic replaces the old one; +7 = one step sharpwards.
            key_ = (key_ + (uDir < 0.6f ? 7 : 5)) % 12;
            ++modulations_;
        }
        if (uMove < 0.62f)
            d = (d + 3) % 7;  // root down a fifth
        else if (uMove < 0.84f)
            d = (d + 4) % 7;  // root up a fifth
        else
            d = (d + 1 + static_cast<int>(uJump * 6.0f)) % 7;  // anywhere else
        Chord c = build(d, uSeventh < seventhChance_);
        if (c.quality == ChordQuality::Diminished || c.quality == ChordQuality::HalfDiminished7) {
            c = build((d + 3) % 7, uSeventh < seventhChance_);
        }
        current_ = c;
        ++chordCount_;
        return current_;
    }

    const Chord& current() const BOOP_RT { return current_; }
    int key() const BOOP_RT { return key_; }
    Scale scale() const BOOP_RT { return scale_; }
    std::uint64_t chordCount() const BOOP_RT { return chordCount_; }
    std::uint64_t modulations() const BOOP_RT { return modulations_; }

    // The MIDI note of scale degree `degree` (any integer; wraps into octaves) above octave
    // `octave` of the current key (C4 = 60 -> octave 4).
    int scaleNote(int degree, int octave) const BOOP_RT {
        const int* iv = intervals(scale_);
        int oct = degree >= 0 ? degree / 7 : -((6 - degree) / 7);
        const int idx = degree - oct * 7;
        return 12 * (octave + 1) + key_ + iv[idx] + 12 * oct;
    }

    Chord build(int degree, bool seventh) const BOOP_RT {
        const int* iv = intervals(scale_);
        Chord c;
        c.degree = degree;
        const int count = seventh ? 4 : 3;
        for (int i = 0; i < count; ++i) {
            const int d = degree + 2 * i;
            c.notes[i] = iv[d % 7] + 12 * (d / 7);
        }
        c.noteCount = count;
        c.root = (key_ + c.notes[0]) % 12;
        const int third = c.notes[1] - c.notes[0], fifth = c.notes[2] - c.notes[0];
        if (third == 4 && fifth == 7)
            c.quality = ChordQuality::Major;
        else if (third == 3 && fifth == 7)
            c.quality = ChordQuality::Minor;
        else if (third == 3 && fifth == 6)
            c.quality = ChordQuality::Diminished;
        else
            c.quality = ChordQuality::Augmented;
        if (seventh) {
            const int sev = c.notes[3] - c.notes[0];
            if (c.quality == ChordQuality::Major)
                c.quality = sev == 11 ? ChordQuality::Major7 : ChordQuality::Dominant7;
            else if (c.quality == ChordQuality::Minor)
                c.quality = ChordQuality::Minor7;
            else if (c.quality == ChordQuality::Diminished)
                c.quality = ChordQuality::HalfDiminished7;
        }
        return c;
    }

  private:
    dsp::Rng rng_;
    std::uint64_t seed_ = 0;
    int initialKey_ = 0, key_ = 0;
    Scale scale_ = Scale::Major;
    float seventhChance_ = 0.3f, modulationChance_ = 0.25f;
    Chord current_;
    std::uint64_t chordCount_ = 0, modulations_ = 0;
};

}  // namespace boop::ambient
