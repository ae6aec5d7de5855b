import ArgumentParser
import Glibc
import PixelBoopCore

/// What `play` keeps time with: its own clock, the JACK transport, or an incoming MIDI clock.
enum SyncSource: String, ExpressibleByArgument, CaseIterable {
    case none, jack, midi
}

/// `play`'s MIDI output: the sequencer's notes (and clock) on a JACK MIDI port, or on an ALSA
/// sequencer port whose events are scheduled on a queue for the time their frame is heard; and `--sync`.
struct MidiOutOptions: ParsableArguments {
    @Flag(
        name: .customLong("midi-out"),
        help:
            "Also send the notes to a MIDI port midi_out (channels 1, 2, 3, 10, as the .mid export): on JACK boop:midi_out, each on its exact frame; on ALSA a sequencer port boop:midi_out, scheduled in real time for when its frame is heard."
    )
    var midiOut = false

    @Flag(name: .long, help: "With --midi-out: send MIDI clock (24 per quarter note), Start, Stop, Continue.")
    var clock = false

    @Flag(
        name: .customLong("no-sound"),
        help:
            "With --midi-out: drive only external gear. JACK: the audio ports stay silent and unconnected; ALSA: no sound device is opened, the sequencer's events run on a timer at --rate."
    )
    var noSound = false

    @Option(
        name: .customLong("midi-connect"),
        help:
            "With --midi-out: connect boop:midi_out to this MIDI input before the first note (JACK: client:port; ALSA: client:port, a client number or part of its name)."
    )
    var midiConnect: String?

    @Option(
        name: .long,
        help:
            "With --backend jack: 'jack' follows the JACK transport (starts and stops with it, placed by its frame, the timebase master's BBT tempo; a song is placed in its own time, at its own tempi); 'midi' follows a MIDI clock on boop:midi_in (tempo, Start, Stop, Continue, Song Position; a pattern only). Default none."
    )
    var sync: SyncSource = .none

    func check(backend: AudioBackend) throws {
        if sync != .none && backend != .jack { throw ValidationError("--sync \(sync.rawValue): only with --backend jack") }
        if (clock || noSound || midiConnect != nil) && !midiOut {
            throw ValidationError("--clock, --no-sound and --midi-connect: only with --midi-out")
        }
    }

    /// On ALSA, --midi-out needs the sequencer: where /dev/snd/seq is missing, one line and 69.
    func checkSequencer(backend: AudioBackend) throws {
        guard midiOut && backend == .alsa && access("/dev/snd/seq", R_OK | W_OK) != 0 else { return }
        throw BoopExit(
            .unavailable,
            "--midi-out: no ALSA sequencer (/dev/snd/seq: \(String(cString: strerror(errno)))); --backend jack sends JACK MIDI instead"
        )
    }
}
