/// The MPE zones `boop synth` starts with (boop_synth_set_mpe): member channels of the lower zone
/// (manager channel 1, members from 2 up) and of the upper one (manager 16, members from 15 down).
/// A controller's MPE Configuration Message (RPN 6) changes them while playing.
public struct MpeZones: Sendable, Equatable {
    public var lower: Int
    public var upper: Int
    public init(lower: Int = 0, upper: Int = 0) {
        self.lower = lower
        self.upper = upper
    }

    /// `lower[:N]`, `upper[:N]` (N 1 ... 15, all 15 by default) or `both` (7 members each).
    public init?(text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        var members = 15
        if parts.count == 2 {
            guard parts[0] != "both", let n = Int(parts[1]), (1...15).contains(n) else { return nil }
            members = n
        }
        switch parts[0] {
        case "lower": self.init(lower: members)
        case "upper": self.init(upper: members)
        case "both" where parts.count == 1: self.init(lower: 7, upper: 7)
        default: return nil
        }
    }
}
