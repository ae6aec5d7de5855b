import ArgumentParser
import Glibc
import PixelBoopCore

struct TranscribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcribe",
        abstract: "Turn a sung or hummed recording (.wav, .flac) into a version-2 song of notes on the grid.",
        discussion: """
            The voice tracker follows the recording; each sung note becomes a note on --track: \
            its start on the step nearest (sixteenths at --bpm, the recording's first sample on \
            step 1), its length the steps it lasts, its pitch the held part's (past a scoop, the \
            centre of a vibrato; where the scoop was going when a note ends before it arrives) \
            on the nearest semitone, or the nearest note of --scale. A note \
            4 dB over the line's median level is an accent. Every --steps steps make a pattern \
            (A, B, C, ...), played in order by the chain. Notes shorter than 80 ms are left out. \
            The song is written to -o (a .json file, replaced as render replaces its output).
            """)

    @Argument(help: "The recording: WAV (PCM or float) or FLAC, mono or mixed down.")
    var recording: String

    @Option(name: [.short, .customLong("output")], help: "The song file to write (.json).")
    var output: String

    @Option(name: .long, help: "Tempo of the grid, BPM (\(Limits.text(Limits.tempoBPM))).")
    var bpm: Double = 120

    @Option(name: .long, help: "Snap pitches to a scale: \"A minor\", \"D dorian\", \"C major\" ...")
    var scale: String?

    @Option(name: .long, help: "Steps per pattern (\(Limits.text(SongPattern.lengths))).")
    var steps: Int = 16

    @Option(name: .long, help: "The track the notes go on: melody, chords or bass.")
    var track: String = "melody"

    @Flag(name: [.short, .long], help: "List each note heard (time, pitch, step) on stderr.")
    var verbose = false

    func validate() throws {
        guard bpm.isFinite, Limits.tempoBPM.contains(bpm) else {
            throw ValidationError("--bpm \(bpm): expected a tempo \(Limits.text(Limits.tempoBPM))")
        }
        try validateRange(steps, SongPattern.lengths, option: "--steps", unit: "steps per pattern")
        if let scale, Scale(parsing: scale) == nil {
            throw ValidationError("--scale \(OneLine.escape(scale)): expected \(Scale.help)")
        }
        guard let kind = TrackKind(rawValue: track), kind != .rhythm else {
            throw ValidationError("--track \(OneLine.escape(track)): expected melody, chords or bass")
        }
        guard output.lowercased().hasSuffix(".json") else {
            throw ValidationError("-o \(OneLine.escape(output)): expected a song file name ending in .json")
        }
    }

    func run() throws {
        runReportingErrors {
            let audio: RecordingFile
            do {
                audio = try RecordingFile.read(path: recording)
            } catch let error as RecordingError {
                throw BoopExit(error.kind == .content ? .dataError : .noInput, error.message)
            }
            let transcriber = Transcriber(bpm: bpm, scale: scale.flatMap(Scale.init(parsing:)))
            let heard = try transcriber.notes(in: audio.samples, rate: audio.sampleRate)
            let name = PathText.lastComponent(PathText.deletingExtension(recording))
            let song = transcriber.song(heard, name: name, steps: steps, track: TrackKind(rawValue: track)!)
            if verbose {
                for note in heard {
                    StandardError.write(
                        String(
                            cFormat: "%8.3f s  %6.3f s  MIDI %6.2f  %5.1f dBFS\n", note.start, note.end - note.start, note.midi,
                            note.level))
                }
            }
            do {
                try PatternFile.write(song: song, version1: false, to: output)
            } catch let error as PatternFileError {
                throw BoopExit(error.kind == .cannotCreate ? .cannotCreate : .ioError, error.description)
            }
            let count = song.patterns.reduce(0) { $0 + $1.tracks.values.joined().count }
            StandardError.write(
                "transcribe: \(counted(count, "note")) in \(counted(song.patterns.count, "pattern")) of \(steps) steps at \(Limits.text(bpm)) BPM: \(OneLine.escape(output))\n"
            )
        }
    }
}
