import CAudioEngine

extension TrackKind {
    /// The engine's instrument slot of each track (the rhythm's holds the kits' pan).
    public var instrumentSlot: UInt32 { UInt32(TrackKind.allCases.firstIndex(of: self)!) }
}

extension AudioEngine {
    /// Gives a track's instrument slot its sound from `frame` on (CAudioEngine.h, "Instruments").
    public func setInstrument(_ instrument: Instrument, for kind: TrackKind, at frame: UInt64) throws(AudioError) {
        let s = instrument.sound(for: kind)
        var c = boop_instrument(
            voice: instrument.resolvedVoice(for: kind).cValue, width: instrument.width, attack: s.attack,
            decay: s.decay, sustain: s.sustain, release: s.release, cutoff: s.cutoff, resonance: s.resonance,
            pan: instrument.pan)
        try AudioError.check(boop_engine_set_instrument(handle, frame, kind.instrumentSlot, &c), "set instrument")
    }

    /// Starts a note on a track's instrument slot.
    public func instrumentNoteOn(id: UInt32, slot: UInt32, frequency: Double, gain: Float, at frame: UInt64) throws(AudioError) {
        guard frequency.isFinite, frequency > 0, frequency < sampleRate / 2 else {
            throw AudioError.invalidFrequency("\(frequency) Hz: expected above 0 and below \(sampleRate / 2) Hz at this rate")
        }
        try AudioError.check(
            boop_engine_instrument_note_on(handle, frame, id, slot, frequency, gain), "instrument note on \(frequency) Hz")
    }

    /// Strikes a drum of a kit.
    public func kitHit(_ kit: Instrument.Kit, key: Int, gain: Float, at frame: UInt64) throws(AudioError) {
        guard Limits.midiNote.contains(key) else {
            throw AudioError.invalidConfiguration("drum key \(key): expected \(Limits.text(Limits.midiNote))")
        }
        try AudioError.check(boop_engine_kit_hit(handle, frame, kit.cValue, UInt32(key), gain), "kit hit")
    }

    /// Sets every track of a song that has an instrument of its own (and the kits' pan) from `frame` on.
    public func prepare(song: Song, at frame: UInt64) throws(AudioError) {
        for kind in TrackKind.allCases {
            let inst = song.instrument(kind)
            if kind == .rhythm ? inst.pan != 0 : !inst.isClassic { try setInstrument(inst, for: kind, at: frame) }
        }
    }
}
