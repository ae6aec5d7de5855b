import Glibc

extension NoteSpec {
    /// The frequency in Hz under a Scala tuning: a name picks the MIDI key it spells (C4 = key 60,
    /// C#4 = key 61, whatever the scale calls them) and sounds at the tuning's frequency for that key
    /// x 2^((cents + extraCents)/1200); a frequency is shifted by `extraCents` alone. Throws
    /// `AudioError.invalidFrequency` for a key the tuning leaves unmapped or a result outside
    /// `Limits.toneHz`.
    public func frequency(tuning: ScalaTuning, extraCents: Double = 0) throws(AudioError) -> Double {
        guard case .note(let name, let cents) = self else { return try frequency(extraCents: extraCents) }
        let total = cents + extraCents
        let source = "\(name)\(NoteSpec.centsSuffix(total)) (key \(name.midi)) in \(PathText.lastComponent(tuning.scalePath))"
        guard let hz = tuning.hz(key: name.midi) else {
            throw AudioError.invalidFrequency(
                "\(source): the tuning leaves this key unmapped (an x in the mapping, or outside its range)")
        }
        return try Pitch.validated(hz * pow(2.0, total / 1200.0), source: source)
    }
}
