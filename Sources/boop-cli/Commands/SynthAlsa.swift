import ArgumentParser
import Glibc
import PixelBoopCore

/// `boop synth` on the ALSA backend (the default): the PCM as `play` uses it, MIDI from an ALSA
/// sequencer client `boop` with a writable port midi_in. Kept apart from the JACK path so either
/// can change without touching the other.
extension SynthCommand {
    func validateBackendFlags() throws {
        if backend == .jack && alsaOptions.given {
            throw ValidationError("-D, -r, --period-frames and --midi: only with the ALSA backend (on JACK use --midi-connect)")
        }
        if backend == .alsa && (noConnect || !midiConnect.isEmpty) {
            throw ValidationError("--no-connect and --midi-connect: only with --backend jack (on ALSA use --midi)")
        }
    }

    func runAlsa() throws {
        let synth: LiveSynth
        do {
            synth = try LiveSynth(
                clientName: sound.name, polyphony: voices, bendRange: bendRange, voices: try sound.channelVoices(),
                alsa: alsaOptions.config, gainDB: gainOption.gain, lookahead: sound.lookahead == 1,
                tuning: try tuningOptions.load(), mpe: sound.mpeZones)
        } catch AudioError.deviceUnavailable(let reason) where reason.hasPrefix("no ALSA sequencer") {
            throw BoopExit(.unavailable, "synth: \(reason); --backend jack plays from JACK MIDI instead")
        }
        try recording.begin(synth)
        let session = SynthSession(
            synth: synth, verbose: verbosity.verbose, display: !noDisplay && !verbosity.quiet && isatty(STDOUT_FILENO) == 1)
        session.recording = recording
        session.gainDB = gainOption.gain
        try session.run(connecting: alsaOptions.midi)
    }
}
