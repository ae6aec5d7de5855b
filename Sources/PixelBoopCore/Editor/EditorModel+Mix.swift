import Glibc

/// Each track's instrument and mix: `m` mutes, `M` solos, and the track panel (`I`) sets the
/// voice (kit on rhythm), envelope, filter, level and pan. Each change is one undo step.
extension EditorModel {
    /// The fields the track panel lists for a track, top to bottom.
    public static func instrumentFields(_ kind: TrackKind) -> [String] {
        kind == .rhythm
            ? ["kit", "level", "pan"]
            : ["voice", "width", "attack", "decay", "sustain", "release", "cutoff", "resonance", "level", "pan"]
    }

    public var instrument: Instrument { song.instrument(track) }

    /// `m`: the current track muted or not.
    public mutating func toggleMute() {
        let kind = track
        editSong { $0.instruments[kind, default: Instrument()].mute.toggle() }
        message = "\(kind.rawValue) \(instrument.mute ? "muted" : "unmuted")"
    }

    /// `M`: the current track soloed or not (any soloed track silences the others).
    public mutating func toggleSolo() {
        let kind = track
        editSong { $0.instruments[kind, default: Instrument()].solo.toggle() }
        message = "\(kind.rawValue) \(instrument.solo ? "soloed" : "solo off")"
    }

    public mutating func moveInstrumentField(by delta: Int) {
        let count = EditorModel.instrumentFields(track).count
        instrumentField = min(max(instrumentField + delta, 0), count - 1)
    }

    /// A field's value as the panel shows it.
    public func instrumentValue(_ field: String) -> String {
        let i = instrument
        let s = i.sound(for: track)
        switch field {
        case "kit": return i.kit.rawValue
        case "voice": return i.voice?.rawValue ?? "classic (\(i.resolvedVoice(for: track).rawValue))"
        case "width": return String(cFormat: "%.2f", i.width)
        case "attack": return String(cFormat: "%.3f s", s.attack)
        case "decay": return String(cFormat: "%.3f s", s.decay)
        case "sustain": return String(cFormat: "%.2f", s.sustain)
        case "release": return String(cFormat: "%.3f s", s.release)
        case "cutoff": return String(cFormat: "%.0f Hz", s.cutoff)
        case "resonance": return String(cFormat: "%.2f", s.resonance)
        case "level": return String(cFormat: "%.2f", i.level)
        case "pan": return String(cFormat: "%+.2f", i.pan)
        default: return ""
        }
    }

    /// Left / right (h / l) in the track panel: the field under the panel's cursor one notch down
    /// or up (a voice or kit further in its list; times by 10 ms, cutoff by a sixth of an octave).
    public mutating func changeInstrument(by delta: Int) {
        let fields = EditorModel.instrumentFields(track)
        let field = fields[min(max(instrumentField, 0), fields.count - 1)]
        let kind = track
        var inst = instrument
        let s = inst.sound(for: kind)
        func step(_ v: Double, _ by: Double, _ range: ClosedRange<Double>, places: Double = 1000) -> Double {
            min(max(((v + by * Double(delta)) * places).rounded() / places, range.lowerBound), range.upperBound)
        }
        switch field {
        case "kit":
            let all = Instrument.Kit.allCases
            inst.kit = all[((all.firstIndex(of: inst.kit)! + delta) % all.count + all.count) % all.count]
        case "voice":
            let all: [Instrument.Voice?] = [nil] + Instrument.Voice.allCases.map { $0 }
            let i = all.firstIndex(of: inst.voice)!
            inst.voice = all[((i + delta) % all.count + all.count) % all.count]
        case "width": inst.width = step(inst.width, 0.05, Instrument.widthRange, places: 100)
        case "attack": inst.attack = step(s.attack, 0.01, Instrument.secondsRange)
        case "decay": inst.decay = step(s.decay, 0.05, Instrument.secondsRange)
        case "sustain": inst.sustain = step(s.sustain, 0.05, 0...1, places: 100)
        case "release": inst.release = step(s.release, 0.05, Instrument.secondsRange)
        case "cutoff":
            inst.cutoff = min(max((s.cutoff * pow(2, Double(delta) / 6)).rounded(), 20), 20000)
        case "resonance": inst.resonance = step(s.resonance, 0.1, Instrument.resonanceRange, places: 100)
        case "level": inst.level = step(inst.level, 0.05, Instrument.levelRange, places: 100)
        case "pan": inst.pan = step(inst.pan, 0.1, Instrument.panRange, places: 100)
        default: return
        }
        editSong { $0.instruments[kind] = inst }
    }
}
