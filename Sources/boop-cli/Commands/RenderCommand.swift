import ArgumentParser
import Glibc
import PixelBoopCore

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a pattern or a song to an audio file (WAV, FLAC or OGG by extension) or a MIDI file (.mid).",
        discussion:
            "The same arguments always give the same bytes. The file is written under a temporary name and renamed when complete; an interrupted render exits 130 and leaves no file.\n"
            + RenderCommand.palette
    )

    /// A song's voices and kits as the engine lists them (CAudioEngine.h, BOOP_VOICES and BOOP_KITS),
    /// a name and its line each; scripts/cli-tests.d/palette.sh holds the README to this list.
    static var palette: String {
        func rows(_ items: [(String, String)]) -> String {
            items.map { "  " + $0.0.padded(to: 10) + " " + $0.1 }
                .joined(separator: "\n")
        }
        return "A song's voices (a pitched track's \"voice\"):\n"
            + rows(Instrument.Voice.allCases.map { ($0.rawValue, $0.summary) })
            + "\nIts kits (the rhythm's \"kit\"):\n"
            + rows(Instrument.Kit.allCases.map { ($0.rawValue, $0.summary) })
    }

    @OptionGroup var patternOptions: PatternOptions

    @OptionGroup var gainOption: GainOption

    @Option(
        name: [.short, .customLong("output")],
        help: "The file to write (.wav, .flac, .ogg; .mid or .midi for a Standard MIDI File).")
    var output: String

    @Option(name: [.short, .customLong("rate")], help: "Sample rate in Hz (\(Limits.text(Limits.sampleRate)), default 44100).")
    var rate: Int?

    @OptionGroup var sampleFormat: SampleFormatOption

    @Flag(
        name: .long,
        help:
            "With a .mid output: the song's tuning as MIDI Tuning Standard messages (a Single Note Tuning Change of every key, tuning program 0, selected by RPN 3) at the start of each pitched track."
    )
    var mts = false

    @Flag(name: .shortAndLong, help: "No progress output.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Print what was rendered.")
    var verbose = false

    mutating func validate() throws {
        try validateRate(rate)
        if mts, !RenderCommand.isMidi(output) {
            throw ValidationError("--mts \(output): expected a .mid or .midi output (MIDI Tuning Standard messages are MIDI)")
        }
    }

    func run() throws {
        runReportingErrors {
            // A version-1 pattern is a one-pattern song: one renderer, one MIDI writer.
            let song = try patternOptions.loadPiece()
            let loops = patternOptions.loops ?? 1
            // A MIDI file holds the notes, not sound: no engine, so --rate, --voices and
            // --sample-format do not apply. Same temporary-name-then-rename contract as audio.
            if RenderCommand.isMidi(output) {
                try writeMidiFile(output: output) { shouldStop in
                    try MidiFileWriter.write(
                        song, loops: loops, seed: patternOptions.songSeed, mts: mts, to: output, shouldStop: shouldStop)
                }
                if verbose { StandardError.write(shown(midiSummary(song, loops: loops)) + "\n") }
                if let tuning = song.tuning, !quiet { noteTuning(tuning) }
                return
            }
            let format = sampleFormat.format(forPath: output)
            var renderer = SongRenderer(song: song)
            // A song's tracks may be panned; a version-1 pattern renders in one channel, as always.
            renderer.channels = song.version1 == nil ? 2 : 1
            renderer.sampleRate = Double(rate ?? 44100)
            if song.version1 != nil { warnAboveNyquist(song, sampleRate: renderer.sampleRate) }
            renderer.voices = patternOptions.voices
            renderer.loops = loops
            renderer.seed = patternOptions.songSeed
            renderer.gainDB = gainOption.gain
            if verbose { StandardError.write(gainOption.description + "\n") }
            try renderToFile(
                title: song.name, output: output, sampleRate: renderer.sampleRate, quiet: quiet,
                verbose: verbose, detail: "\(song.name), \(format.rawValue)"
            ) { progress, shouldStop in
                try renderer.render(to: output, format: format, progress: progress, shouldStop: shouldStop)
            }
        }
    }

    static func isMidi(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".mid") || lowered.hasSuffix(".midi")
    }

    /// A song's tuning in a .mid: without --mts the file has none (said, not silently dropped);
    /// with it, the keys MIDI Tuning Standard cannot hold are said.
    private func noteTuning(_ tuning: Song.SongTuning) {
        guard mts else {
            StandardError.write(
                "boop: warning: "
                    + OneLine.escape(
                        "\(output): the song's tuning (\(tuning.scl)) is not in a Standard MIDI File; its notes are the keys they play, to be tuned by the synth that plays them (boop synth --scl), or written as MIDI Tuning Standard messages with --mts"
                    ) + "\n")
            return
        }
        let outside = MidiTuningMessages.keysOutOfRange(tuning.keys)
        guard let first = outside.first else { return }
        StandardError.write(
            "boop: warning: "
                + OneLine.escape(
                    String(
                        cFormat:
                            "%@: %d key(s) of the tuning (%@), the first key %d at %@ Hz, lie outside what MIDI Tuning Standard holds (8.18 Hz ... 12543.85 Hz) and are sent as \"no change\"",
                        output, outside.count, tuning.scl, first, Pitch.formatHz(tuning.keys.keyHz[first]))) + "\n")
    }

    /// What -v says of a written .mid.
    private func midiSummary(_ song: Song, loops: Int) -> String {
        guard let origin = song.version1 else {
            return "wrote \(output): Standard MIDI File, song \(song.name), \(loops) loop(s)"
        }
        return String(
            cFormat: "wrote %@: Standard MIDI File, %d track(s) + tempo track, %d loop(s) at %g bpm",
            output, origin.tracks.count, loops, song.bpm)
    }

    /// Notes above Nyquist are skipped by the engine; say so in one line (not an error: the rest
    /// of the pattern renders as asked, unlike `tone`, where the note is the whole request and
    /// refusing it is exit 64).
    private func warnAboveNyquist(_ song: Song, sampleRate: Double) {
        let silent = song.notesAboveNyquist(sampleRate: sampleRate)
        guard let first = silent.first, !quiet else { return }
        StandardError.write(
            "boop: warning: "
                + OneLine.escape(
                    String(
                        cFormat:
                            "%@: tracks.%@[%d] pitch %d (%@ Hz) is not below half the sample rate (%@ Hz) and is silent%@",
                        patternOptions.pattern, first.track.rawValue, first.index, first.note.pitch,
                        Pitch.formatHz(first.hz), Pitch.formatHz(sampleRate / 2),
                        silent.count > 1 ? " (\(silent.count) such notes); raise -r" : "; raise -r")) + "\n")
    }
}
