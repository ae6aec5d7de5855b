import Glibc
import PixelBoopCore

/// A matching session's notes as judged (`MatchJudgement`): the errors that make the bias and
/// the spread, and apart from them the wrong notes (named) and the notes sung in another octave.
struct MatchTally {
    let tolerance: Double
    /// A4 in Hz, for naming notes.
    let reference: Double
    private(set) var errors: [Double] = []
    private(set) var wrong: [(trial: Int, sung: String, target: String, cents: Double)] = []
    private(set) var octaves: [(trial: Int, octave: Int)] = []

    init(tolerance: Double, reference: Double) {
        self.tolerance = tolerance
        self.reference = reference
    }

    func name(_ hz: Double) -> String { PitchDetector.nearestNote(to: hz, reference: reference).name }

    /// Takes one heard note; returns the line to print for it (JSON or text).
    mutating func add(trial: Int, sung: SungPitch, score: MatchScore, target: Double, json: Bool) -> String {
        let judgement = MatchJudgement(score, tolerance: tolerance)
        switch judgement {
        case .right: errors.append(score.cents)
        case .octave(let o):
            errors.append(score.cents)
            octaves.append((trial, o))
        case .wrong: wrong.append((trial, name(sung.frequency), name(target), score.cents))
        }
        if json {
            let kind = judgement == .wrong ? "wrong" : judgement == .right ? "right" : "octave"
            return String(
                cFormat:
                    "{\"trial\":%d,\"sung_hz\":%.4f,\"cents\":%.2f,\"octave\":%d,\"stable_ms\":%d,\"judgement\":\"%@\",\"sung_note\":\"%@\",\"target_note\":\"%@\"}",
                trial, sung.frequency, score.cents, score.octave, sung.stableMilliseconds, kind,
                name(sung.frequency), name(target))
        }
        let line = String(
            cFormat: "  sang %@ %.2f Hz%@: %+.1f cents, steady for %d ms", name(sung.frequency), sung.frequency,
            Self.octaveText(score.octave), score.cents, sung.stableMilliseconds)
        guard judgement == .wrong else { return line }
        return line + String(cFormat: " - a wrong note: sang %@ for %@", name(sung.frequency), name(target))
    }

    static func octaveText(_ octave: Int) -> String {
        switch octave {
        case 0: return ""
        case -1: return " (an octave below)"
        case 1: return " (an octave above)"
        default: return " (\(abs(octave)) octaves \(octave < 0 ? "below" : "above"))"
        }
    }

    /// The summary's extra fields: `,"wrong_notes":[...],"octave_displacements":[...],"tolerance_cents":T`.
    var jsonFields: String {
        let w = wrong.map {
            String(
                cFormat: "{\"trial\":%d,\"sung\":\"%@\",\"target\":\"%@\",\"cents\":%.2f}", $0.trial, $0.sung, $0.target,
                $0.cents)
        }
        let o = octaves.map { "{\"trial\":\($0.trial),\"octave\":\($0.octave)}" }
        return ",\"wrong_notes\":[\(w.joined(separator: ","))],\"octave_displacements\":[\(o.joined(separator: ","))]"
            + String(cFormat: ",\"tolerance_cents\":%.1f", tolerance)
    }

    /// Lines after the bias and spread: the wrong notes named, the octave displacements counted.
    var textLines: [String] {
        var lines: [String] = []
        if !wrong.isEmpty {
            let list = wrong.map { "trial \($0.trial) sang \($0.sung) for \($0.target)" }.joined(separator: ", ")
            lines.append(
                String(
                    cFormat: "%@ (over %.0f cents off, left out of bias and spread): ", Self.count(wrong.count, "wrong note"),
                    tolerance)
                    + list + ".")
        }
        if !octaves.isEmpty {
            let list = octaves.map { "trial \($0.trial)\(Self.octaveText($0.octave))" }.joined(separator: ", ")
            lines.append(
                "\(Self.count(octaves.count, "note")) in another octave (scored in its nearest octave): " + list + ".")
        }
        return lines
    }

    static func count(_ n: Int, _ noun: String) -> String { TrainStatsCommand.count(n, noun) }
}
