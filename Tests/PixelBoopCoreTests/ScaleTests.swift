import Testing

@testable import PixelBoopCore

/// The editor's scale lock: names read as the help lists them, membership from the step table, the
/// nearest scale note (lower on a tie) and moves by scale degrees, all within MIDI's 0 ... 127.
@Suite("Scale")
struct ScaleTests {
    @Test(
        "names parse to root and kind; a missing kind is major; two words join with a hyphen",
        arguments: [
            ("C major", 0, "major"), ("a minor", 9, "minor"), ("F# dorian", 6, "dorian"), ("Bb pentatonic", 10, "pentatonic"),
            ("A harmonic minor", 9, "harmonic-minor"), ("A harmonic-minor", 9, "harmonic-minor"), ("e", 4, "major"),
            ("Cb lydian", 11, "lydian"), ("E# blues", 5, "blues"), ("C♯ locrian", 1, "locrian")
        ])
    func parses(text: String, root: Int, kind: String) throws {
        let scale = try #require(Scale(parsing: text))
        #expect(scale.root == root)
        #expect(Scale.kinds[scale.kind].name == kind)
    }

    @Test("not a scale", arguments: ["", "H major", "C4 major", "C major minor extra", "C nonsense", "-1", "+C major"])
    func refuses(text: String) {
        #expect(Scale(parsing: text) == nil)
    }

    @Test("the name spells the root with sharps")
    func name() {
        #expect(Scale(root: 10, kind: 1).name == "A# minor")
        #expect(Scale(parsing: "Bb major")?.name == "A# major")
        #expect(Scale(root: -3, kind: 0).root == 9)   // roots fold into one octave
        #expect(Scale(root: 14, kind: 0).root == 2)
    }

    @Test("every kind's steps start at the root and rise within an octave; the diatonic ones have 7")
    func table() {
        for kind in Scale.kinds {
            #expect(kind.steps.first == 0)
            #expect(zip(kind.steps, kind.steps.dropFirst()).allSatisfy { $0 < $1 })
            #expect(kind.steps.last! < 12)
        }
        for name in ["major", "minor", "dorian", "phrygian", "lydian", "mixolydian", "locrian"] {
            #expect(Scale.kinds.first { $0.name == name }?.steps.count == 7)
        }
        // Ionian is major and aeolian is minor under their modal names.
        let steps = Dictionary(Scale.kinds.map { ($0.name, $0.steps) }, uniquingKeysWith: { a, _ in a })
        #expect(steps["ionian"] == steps["major"])
        #expect(steps["aeolian"] == steps["minor"])
    }

    @Test("membership in every octave, below middle C too")
    func contains() {
        let cMajor = Scale(root: 0, kind: 0)
        let inScale = (0...127).filter(cMajor.contains)
        #expect(inScale.count == 75)   // 10 whole octaves of 7 plus C ... G of the 11th
        #expect(cMajor.contains(60) && cMajor.contains(62) && !cMajor.contains(61))
        let aMinor = Scale(parsing: "A minor")!
        #expect((0...127).filter(aMinor.contains) == inScale)   // the relative minor: the same notes
    }

    @Test("nearest: the pitch itself when in the scale, else the nearer neighbour, the lower on a tie")
    func nearest() {
        let cMajor = Scale(root: 0, kind: 0)
        #expect(cMajor.nearest(60) == 60)
        #expect(cMajor.nearest(61) == 60)   // C# between C and D: the lower
        #expect(cMajor.nearest(66) == 65)   // F# between F and G
        let pentatonic = Scale(parsing: "C pentatonic")!   // C D E G A
        #expect(pentatonic.nearest(65) == 64)   // F: E is 1 away, G 2
        #expect(pentatonic.nearest(71) == 72)   // B: C above is 1 away, A 2 below
        #expect(pentatonic.nearest(127) == 127)   // G9 is in the scale
        #expect(Scale(parsing: "D major")!.nearest(0) == 1)   // C is not in it, nothing is below 0: C# above
    }

    @Test("moves by degrees, from outside the scale to the nearest note that way first, nil past 0 ... 127")
    func moves() {
        let cMajor = Scale(root: 0, kind: 0)
        #expect(cMajor.pitch(60, movedBy: 1) == 62)
        #expect(cMajor.pitch(60, movedBy: 7) == 72)
        #expect(cMajor.pitch(60, movedBy: -1) == 59)
        #expect(cMajor.pitch(60, movedBy: 0) == 60)
        #expect(cMajor.pitch(61, movedBy: 1) == 62)
        #expect(cMajor.pitch(61, movedBy: -1) == 60)
        #expect(cMajor.pitch(127, movedBy: 1) == nil)
        #expect(cMajor.pitch(0, movedBy: -1) == nil)
        let chromatic = Scale(parsing: "C chromatic")!
        #expect(chromatic.pitch(60, movedBy: 5) == 65)
    }
}

/// A song's `"scale"`: read, written back, refused when it is no scale; the editor's `S` keeps it
/// in a version-2 song and leaves a version-1 file alone.
struct SongScaleTests {
    @Test func readWrittenAndRefused() throws {
        let text = #"{"version": 2, "scale": "D dorian", "patterns": {"A": {"length": 16}}}"#
        let song = try Song.parse(Bytes(text.utf8), file: "s.json")
        #expect(song.scale == Scale(parsing: "D dorian"))
        #expect(try Song.parse(song.fileData(), file: "again.json") == song)
        for bad in [#""H major""#, "3", #""""#] {
            let broken = #"{"version": 2, "scale": "# + bad + #", "patterns": {"A": {"length": 16}}}"#
            #expect(throws: PatternError.self) { _ = try Song.parse(Bytes(broken.utf8), file: "s.json") }
        }
    }

    @Test func theEditorsLockIsKeptByAVersionTwoSong() throws {
        let v2 = try Song.parse(Bytes(#"{"version": 2, "patterns": {"A": {"length": 12}}}"#.utf8), file: "s.json")
        var m = EditorModel(song: v2, version1: false)
        m.chooseScale(Scale(parsing: "A minor"))
        #expect(m.song.scale == Scale(parsing: "A minor") && m.isModified)
        m.undo()
        #expect(m.song.scale == nil && m.scale == Scale(parsing: "A minor"))
        var v1 = EditorModel(version1: Song(name: "p"))
        v1.chooseScale(Scale(parsing: "A minor"))
        #expect(v1.song.scale == nil && !v1.isModified && v1.scale == Scale(parsing: "A minor"))
    }
}
