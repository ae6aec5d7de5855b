import ArgumentParser
import PixelBoopCore

/// `boop synth`'s sound: what each channel plays (--channel, --instruments), the output stage's
/// look-ahead, and the client's name.
struct SynthSoundOptions: ParsableArguments {
    @Option(
        name: .customLong("channel"),
        help: ArgumentHelp(
            "A channel's sound, N=SOUND (N \(Limits.text(LiveSynth.channels))): a version-1 timbre (melody, chords, bass, tone, drums), a palette voice (\(Instrument.Voice.allCases.map(\.rawValue).joined(separator: ", "))), a kit (\(Instrument.Kit.allCases.filter { $0 != .gm }.map(\.rawValue).joined(separator: ", ")); gm is drums), off, or with --instruments a song track (melody, chords, bass, rhythm); repeatable.",
            valueName: "N=SOUND"))
    var channels: [String] = []

    @Option(
        name: .customLong("instruments"),
        help: ArgumentHelp(
            "A version-2 song whose instruments the channels play: melody on 1, chords on 2, bass on 3, rhythm on 10 (--channel moves or adds them).",
            valueName: "song.json"))
    var instruments: String?

    @Option(
        name: .customLong("lookahead"),
        help:
            "1 (default): the true-peak limiter, whose look-ahead delays the sound (JACK's port latency reports it); 0: no delay, a soft clipper under the ceiling instead (for playing live)."
    )
    var lookahead: Int = 1

    @Option(
        name: .customLong("mpe"),
        help: ArgumentHelp(
            "MPE zones: lower (manager channel 1, members 2 ... N+1), upper (manager 16, members 15 down), N 1 ... 15 (15 by default), or both (7 members each). Members play their manager's sound, each note with its own bend (+-48 semitones), pressure (vibrato) and CC 74 (cutoff); an MPE Configuration Message (RPN 6) from the controller changes the zones.",
            valueName: "lower[:N]|upper[:N]|both"))
    var mpe: String?

    /// --mpe as zones (none without it).
    var mpeZones: MpeZones { mpe.flatMap { MpeZones(text: $0) } ?? MpeZones() }

    @Option(
        name: .customLong("name"), help: "The JACK or ALSA sequencer client's name: its ports are NAME:midi_in, NAME:out_1 ...")
    var name: String = "boop"

    func validate() throws {
        if let mpe, MpeZones(text: mpe) == nil {
            throw ValidationError("--mpe \(shown(mpe)): expected lower[:N], upper[:N] (N 1 ... 15) or both")
        }
        if lookahead != 0 && lookahead != 1 { throw ValidationError("--lookahead \(lookahead): expected 0 or 1") }
        if name.isEmpty || name.utf8.count > 63 || name.contains(":") {
            throw ValidationError("--name \(shown(name)): expected 1 to 63 bytes without ':'")
        }
        for text in channels { _ = try parse(text, song: nil, checkingOnly: true) }
    }

    /// --channel N=SOUND: the channel and its sound (a song track needs the song).
    private func parse(_ text: String, song: Song?, checkingOnly: Bool = false) throws -> (Int, SynthVoice) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let tracks = TrackKind.allCases.map(\.rawValue)
        guard parts.count == 2, let n = Int(parts[0]), LiveSynth.channels.contains(n),
            SynthVoice(name: parts[1]) != nil || tracks.contains(parts[1])
        else {
            throw ValidationError(
                "--channel \(shown(text)): expected N=SOUND with N \(Limits.text(LiveSynth.channels)) and SOUND one of \((SynthVoice.names + ["rhythm"]).joined(separator: ", "))"
            )
        }
        if let song, let kind = TrackKind(rawValue: parts[1]) { return (n, SynthVoice.track(kind, of: song)) }
        if let voice = SynthVoice(name: parts[1]) { return (n, voice) }
        if checkingOnly && instruments != nil { return (n, .off) }
        throw ValidationError("--channel \(shown(text)): rhythm names a song's track: only with --instruments")
    }

    /// Each channel's sound: --instruments' tracks on their channels, then each --channel.
    func channelVoices() throws -> [Int: SynthVoice] {
        var map: [Int: SynthVoice] = [:]
        let song = try loadSong()
        if let song {
            for (kind, channel) in [(TrackKind.melody, 1), (.chords, 2), (.bass, 3), (.rhythm, 10)] {
                map[channel] = SynthVoice.track(kind, of: song)
            }
        }
        for text in channels {
            let (n, voice) = try parse(text, song: song)
            map[n] = voice
        }
        return map
    }

    /// The --instruments song (exit 66 missing, 65 invalid or a version-1 pattern).
    private func loadSong() throws -> Song? {
        guard let path = instruments else { return nil }
        let song: Song
        do {
            song = try PieceFile.load(path: path)
        } catch {
            throw BoopExit(error.kind == .missingFile ? .noInput : .dataError, "--instruments: \(error.message)")
        }
        guard song.version1 == nil else {
            throw BoopExit(
                .dataError, "--instruments \(path): a version-1 pattern has no instruments (expected a version-2 song)")
        }
        return song
    }

    /// The help's and the README's paragraph on what the MIDI messages do, and the program map.
    static var controlsText: String {
        let lines = SynthTables.controls.map { "  \($0.message) (\($0.name)): \($0.effect)" }
        return "MIDI messages:\n" + lines.joined(separator: "\n") + "\nProgram Change, by General MIDI family:\n"
            + SynthTables.programLines.map { "  " + $0 }.joined(separator: "\n")
    }

    /// The same as a Markdown table and a list, as the README carries them (a test compares).
    static var markdownText: String {
        let rows = SynthTables.controls.map { "| \($0.message) | \($0.name) | \($0.effect) |" }
        return "| message | | effect |\n|---|---|---|\n" + rows.joined(separator: "\n")
            + "\n\nProgram Change, by General MIDI family (program: voice):\n\n"
            + SynthTables.programLines.map { "- " + $0 }.joined(separator: "\n")
    }
}
