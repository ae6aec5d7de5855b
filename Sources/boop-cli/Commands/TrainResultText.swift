import Glibc
import PixelBoopCore

/// The end of a discrimination session (`train`, `train interval`) as text and as JSON: a
/// threshold only when the answers measured one inside the range played.
enum PsiReport {
    /// The smallest `--max-cents`: below it a session would have too few differences to adapt over.
    static let narrowestCents = Limits.trainMaxCents.lowerBound

    /// `{"threshold_cents","low_cents","high_cents","above_range","at_chance","max_cents","trials"}`:
    /// beyond the range, the threshold and the upper bound are null and the lower bound is the
    /// range's top (the threshold is over it); at chance, all three are null.
    static func json(_ result: PsiResult?, maxCents: Double) -> String {
        guard let r = result else {
            return String(
                cFormat:
                    "{\"threshold_cents\":null,\"low_cents\":null,\"high_cents\":null,\"above_range\":false,\"at_chance\":false,\"max_cents\":%.1f,\"trials\":0}",
                maxCents)
        }
        let values: String
        if r.atChance {
            values = "\"threshold_cents\":null,\"low_cents\":null,\"high_cents\":null"
        } else if r.beyondRange {
            values = String(cFormat: "\"threshold_cents\":null,\"low_cents\":%.4f,\"high_cents\":null", r.maxCents)
        } else {
            values = String(
                cFormat: "\"threshold_cents\":%.4f,\"low_cents\":%.4f,\"high_cents\":%.4f", r.threshold, r.low, r.high)
        }
        // "trials" stays last, as before these fields were added: the line still ends in it.
        return "{" + values
            + String(
                cFormat: ",\"above_range\":%@,\"at_chance\":%@,\"max_cents\":%.1f,\"trials\":%d}",
                r.aboveRange ? "true" : "false", r.atChance ? "true" : "false", r.maxCents, r.trials)
    }

    /// One line, without its full stop: "Threshold: 12.3 cents (68 %: 10.1-15.0) after 40 trials",
    /// or why there is none.
    /// `label` names the measure ("Threshold", "P5 threshold"); `limit` is the widest range the
    /// exercise allows, for the advice.
    static func text(_ r: PsiResult, label: String, limit: Double, fewTrials: Int) -> String {
        let trials = TrainStatsCommand.count(r.trials, "trial")
        let range = String(cFormat: "%.0f cents", r.maxCents)
        let advice =
            r.widerRange(limit: limit).map { String(cFormat: "try --max-cents %.0f", $0) }
            ?? "\(range) is the widest range this exercise plays"
        if r.atChance {
            return "Your answers were at chance (\(r.correct) of \(r.trials) right): no threshold. "
                + "The differences went up to \(range); if you heard none of them, \(advice)"
        }
        if r.beyondRange {
            return "\(label): over \(range): not measured after \(trials) (the largest difference played); \(advice)"
        }
        let high = r.high > r.maxCents ? "over \(range)" : String(cFormat: "%.1f", r.high)
        return String(cFormat: "%@: %.1f cents (68 %%: %.1f-%@) after %@", label, r.threshold, r.low, high, trials)
            + (r.trials < fewTrials ? " (uncertain: few trials)" : "")
    }
}
