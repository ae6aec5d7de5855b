import ArgumentParser
import PixelBoopCore

/// What `play` keeps time with: its own clock, or the JACK transport.
enum SyncSource: String, ExpressibleByArgument, CaseIterable {
    case none, jack, midi
}

/// `play`'s MIDI output: the sequencer's notes (and clock) on a JACK MIDI port; and `--sync`.
struct MidiOutOptions: ParsableArguments {
    @Flag(
        name: .customLong("midi-out"),
        help:
            "With --backend jack: also send the notes to a MIDI port boop:midi_out, each on its exact frame (channels 1, 2, 3, 10, as the .mid export)."
    )
    var midiOut = false

    @Flag(name: .long, help: "With --midi-out: send MIDI clock (24 per quarter note), Start, Stop, Continue.")
    var clock = false

    @Flag(
        name: .customLong("no-sound"),
        help: "With --midi-out: drive only external gear (the audio ports stay silent and unconnected).")
    var noSound = false

    @Option(
        name: .customLong("midi-connect"),
        help: "With --midi-out: connect boop:midi_out to this JACK MIDI input port (client:port) before the first note.")
    var midiConnect: String?

    @Option(
        name: .long,
        help:
            "With --backend jack: 'jack' follows the JACK transport (starts and stops with it, placed by its frame, the timebase master's BBT tempo); 'midi' follows a MIDI clock on boop:midi_in (tempo, Start, Stop, Continue, Song Position). Default none."
    )
    var sync: SyncSource = .none

    func check(backend: AudioBackend) throws {
        if sync != .none && backend != .jack { throw ValidationError("--sync \(sync.rawValue): only with --backend jack") }
        if (clock || noSound || midiConnect != nil) && !midiOut {
            throw ValidationError("--clock, --no-sound and --midi-connect: only with --midi-out")
        }
        if midiOut && backend != .jack {
            throw ValidationError("--midi-out: only with --backend jack (the ALSA sequencer output is not built in yet)")
        }
    }
}
