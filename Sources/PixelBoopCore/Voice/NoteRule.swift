/// Where a sung line's notes begin and end: the one rule `boop transcribe` applies to a whole take
/// and `boop listen --midi-out` applies as the voice arrives (`VoiceSegmenter`).
///
/// A note starts where the voice starts after a gap longer than `gapSeconds` (shorter dropouts are
/// a tracker's, or a breath inside a note), or where a legato line settles on another pitch: more
/// than `splitSemitones` from the note held, for `settleSeconds` (a scoop into a note or a vibrato
/// of half a semitone does not split it). A note shorter than `minimumSeconds` is a blip or a
/// consonant.
public enum NoteRule {
    public static let gapSeconds = 0.03
    public static let splitSemitones = 0.7
    public static let settleSeconds = 0.06
    public static let minimumSeconds = 0.08
}
