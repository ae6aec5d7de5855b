import Glibc

/// The song's mix for auditions and the keyboard, and the MIDI output.
extension PatternTransport {
    /// Gives the tracks the song's instruments (and levels) from now on; an empty map plays the
    /// version-1 timbres again.
    public func setMix(_ instruments: [TrackKind: Instrument]) throws(AudioError) {
        try sync.locked { (s: inout Shared) throws(AudioError) -> Void in
            s.mix = instruments.filter { $0.value != Instrument() }
            try s.engine.prepare(song: Song(name: "", instruments: s.mix, patterns: []), at: s.engine.frameClock)
        }
    }

    /// JACK: connects a MIDI output port to the keyboard's midi_in (after `openSound`).
    public func connectMidiIn(from port: String) throws(AudioError) {
        try sync.locked { (s: inout Shared) throws(AudioError) -> Void in try s.playback.connectMidiIn(from: port) }
    }

    /// Connects the MIDI output to another client's input port (after `openSound`, before `start`).
    public func connectMidiOut(to port: String) throws(AudioError) {
        try sync.locked { (s: inout Shared) throws(AudioError) -> Void in try s.playback.connectMidiOut(to: port) }
    }
}

extension PatternTransport.Shared {
    /// The MIDI output ends every note it sent on (and a running clock) at its next cycle.
    mutating func midiPanic() {
        guard midi != nil else { return }
        midi!.reset()
        playback.midiPanic()
    }
}
