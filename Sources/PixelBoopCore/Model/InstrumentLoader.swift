import Glibc

extension Song {
    /// One track's `instruments` entry: a voice and its sound for a pitched track, a kit for
    /// rhythm; level, pan, mute and solo for every track.
    static func parseInstrument(_ value: Any, _ kind: TrackKind, _ json: StrictJSON) throws(PatternError) -> Instrument {
        let p = "instruments.\(kind.rawValue)"
        let mix: Set<String> = ["level", "pan", "mute", "solo"]
        let sound: Set<String> = ["voice", "width", "attack", "decay", "sustain", "release", "cutoff", "resonance"]
        let fields = try json.object(value, p, allowed: kind == .rhythm ? mix.union(["kit"]) : mix.union(sound))
        var inst = Instrument()
        func number(_ key: String, _ range: ClosedRange<Double>) throws(PatternError) -> Double? {
            try fields[key].map { v throws(PatternError) in try json.double(v, "\(p).\(key)", in: range) }
        }
        func flag(_ key: String) throws(PatternError) -> Bool {
            guard let v = fields[key] else { return false }
            guard let b = v as? Bool else { throw json.fail("\(p).\(key)", "true or false", got: v) }
            return b
        }
        if let v = fields["voice"] {
            let names = Instrument.Voice.allCases.map(\.rawValue)
            guard let s = v as? String, let voice = Instrument.Voice(rawValue: s) else {
                throw json.fail("\(p).voice", "one of \(names.joined(separator: ", "))", got: v)
            }
            inst.voice = voice
        }
        if let v = fields["kit"] {
            let names = Instrument.Kit.allCases.map(\.rawValue)
            guard let s = v as? String, let kit = Instrument.Kit(rawValue: s) else {
                throw json.fail("\(p).kit", "one of \(names.joined(separator: ", "))", got: v)
            }
            inst.kit = kit
        }
        inst.width = try number("width", Instrument.widthRange) ?? inst.width
        inst.attack = try number("attack", Instrument.secondsRange)
        inst.decay = try number("decay", Instrument.decayRange)
        inst.sustain = try number("sustain", Instrument.sustainRange)
        inst.release = try number("release", Instrument.releaseRange)
        inst.cutoff = try number("cutoff", Instrument.cutoffRange)
        inst.resonance = try number("resonance", Instrument.resonanceRange)
        inst.level = try number("level", Instrument.levelRange) ?? inst.level
        inst.pan = try number("pan", Instrument.panRange) ?? inst.pan
        inst.mute = try flag("mute")
        inst.solo = try flag("solo")
        return inst
    }
}
