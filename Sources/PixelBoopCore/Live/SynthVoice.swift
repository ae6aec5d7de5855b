import CAudioEngine

/// What a MIDI channel plays in `boop synth`: a version-1 track timbre or the General MIDI drums,
/// a voice or kit of the palette (the song renderer's), a song track's instrument, or nothing.
public enum SynthVoice: Sendable, Equatable {
    /// The version-1 sounds, by name.
    public enum Classic: String, CaseIterable, Sendable {
        case melody, chords, bass, tone, drums
    }

    case classic(Classic)
    case voice(Instrument.Voice)
    case kit(Instrument.Kit)
    /// A song track's instrument (`--instruments`): its voice and sound, or the rhythm's kit; a
    /// track that keeps its version-1 timbre plays that.
    case instrument(Instrument, TrackKind)
    case off

    /// A name given on the command line: a classic name, a palette voice, a kit, or `off`.
    public init?(name: String) {
        if let c = Classic(rawValue: name) {
            self = .classic(c)
        } else if let v = Instrument.Voice(rawValue: name) {
            self = .voice(v)
        } else if let k = Instrument.Kit(rawValue: name) {
            self = k == .gm ? .classic(.drums) : .kit(k)
        } else if name == "off" {
            self = .off
        } else {
            return nil
        }
    }

    /// Every name `init(name:)` takes, in the help's order.
    public static var names: [String] {
        Classic.allCases.map(\.rawValue) + Instrument.Voice.allCases.map(\.rawValue)
            + Instrument.Kit.allCases.filter { $0 != .gm }.map(\.rawValue) + ["off"]
    }

    /// The song track's instrument on a channel, as the song renderer plays that track.
    public static func track(_ kind: TrackKind, of song: Song) -> SynthVoice {
        let inst = song.instrument(kind)
        switch kind {
        case .rhythm: return inst.kit == .gm ? .classic(.drums) : .kit(inst.kit)
        case .melody, .chords, .bass:
            if inst.isClassic { return .classic(Classic(rawValue: kind.rawValue) ?? .melody) }
            return .instrument(inst, kind)
        }
    }

    /// boop_synth_config.channel_voice's value.
    var cValue: Int32 {
        switch self {
        case .classic(.drums): return Int32(BOOP_TIMBRE_COUNT)
        case .classic(let c):
            return Int32(Classic.allCases.firstIndex(of: c)!)
        case .voice(let v): return Int32(BOOP_SYNTH_VOICE_PALETTE) + Int32(v.index)
        case .kit(let k): return Int32(BOOP_SYNTH_VOICE_KIT) + Int32(k.index)
        case .instrument(let inst, let kind):
            return kind == .rhythm
                ? Int32(BOOP_SYNTH_VOICE_KIT) + Int32(inst.kit.index)
                : Int32(BOOP_SYNTH_VOICE_PALETTE) + Int32(inst.resolvedVoice(for: kind).index)
        case .off: return Int32(BOOP_SYNTH_VOICE_OFF)
        }
    }

    /// A song track's sound for boop_synth_set_channel_sound (its level and mute are the song's
    /// mix: a channel's volume is CC 7's).
    var sound: boop_instrument? {
        guard case .instrument(let inst, let kind) = self, kind != .rhythm else { return nil }
        let s = inst.sound(for: kind)
        return boop_instrument(
            voice: boop_instrument_voice(rawValue: inst.resolvedVoice(for: kind).index), width: inst.width,
            attack: s.attack, decay: s.decay, sustain: s.sustain, release: s.release, cutoff: s.cutoff,
            resonance: s.resonance, pan: inst.pan)
    }
}

/// The live synth's tables as the library has them (CAudioEngineSynth.h): what each MIDI message
/// does and the General MIDI program map, for the help and the README.
public enum SynthTables {
    /// (message, name, effect) for each line of BOOP_SYNTH_CONTROLS.
    public static let controls: [(message: String, name: String, effect: String)] =
        (0..<boop_synth_control_count()).map { i in
            (
                String(cString: boop_synth_control_message(i)), String(cString: boop_synth_control_name(i)),
                String(cString: boop_synth_control_effect(i))
            )
        }

    /// The voice each General MIDI program (0 ... 127) plays.
    public static func programVoice(_ program: Int) -> Instrument.Voice? {
        let v = boop_synth_program_voice(Int32(program))
        return Instrument.Voice.allCases.first { $0.index == v.rawValue }
    }

    /// One line a GM family: "0-7 piano: pluck", programs ranked as the map gives them.
    public static var programLines: [String] {
        (0..<16).map { f -> String in
            let programs = (f * 8)..<(f * 8 + 8)
            var runs: [(ClosedRange<Int>, String)] = []
            for p in programs {
                let name = programVoice(p)?.rawValue ?? "?"
                if let last = runs.last, last.1 == name {
                    runs[runs.count - 1].0 = last.0.lowerBound...p
                } else {
                    runs.append((p...p, name))
                }
            }
            let family = String(cString: boop_gm_family_name(UInt32(f)))
            let parts = runs.map { r, name in
                "\(r.lowerBound == r.upperBound ? "\(r.lowerBound)" : "\(r.lowerBound)-\(r.upperBound)") \(name)"
            }
            return "\(family): " + parts.joined(separator: ", ")
        }
    }
}
