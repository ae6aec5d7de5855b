import Glibc

/// `train sing-interval`: which interval, in which direction, to sing next. The items are an
/// interval and a direction ("M3up", "P5down"); they are scheduled as the identification
/// exercises' items are (`EarScheduler`, Leitner boxes over the whole history), a note judged
/// right (`MatchJudgement.right`: within the tolerance, in the octave asked for) counting as the
/// item named right, any other heard note as a miss. Attempts with no note heard say nothing of
/// the singer's intervals and move no item.
public struct SungIntervalDrill: Sendable {
    public let intervals: [SungInterval]
    public private(set) var scheduler: EarScheduler

    /// "M3up", "M3down": the scheduler's name of an interval and its direction.
    public static func item(_ i: SungInterval) -> String { i.name + (i.direction < 0 ? "down" : "up") }

    /// The interval as match attempts store it: "M3" above, "M3down" below.
    public static func stored(_ i: SungInterval) -> String { i.name + (i.direction < 0 ? "down" : "") }

    /// `names`: "m3,M3,P5" (each m2 ... P8); `direction`: up, down or both. nil when a name is
    /// unknown, carries a direction of its own, repeats, or the list is empty.
    public static func intervals(_ names: String, direction: String) -> [SungInterval]? {
        let directions: [String]
        switch direction {
        case "up": directions = ["up"]
        case "down": directions = ["down"]
        case "both": directions = ["up", "down"]
        default: return nil
        }
        let list = names.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
        guard !list.isEmpty, Set(list).count == list.count,
            list.allSatisfy({ n in SungInterval(n).map { $0.name == n && $0.semitones > 0 } ?? false })
        else { return nil }
        return list.flatMap { n in directions.compactMap { SungInterval(n + $0) } }
    }

    /// The boxes as `history` (every match attempt, oldest first) left them; `tolerance`: each
    /// session's --tolerance (`TrainingProfile.tolerances`).
    public init(intervals: [SungInterval], history: [MatchAttempt], tolerance: [Int64: Double]) {
        self.intervals = intervals
        let past = history.compactMap { a -> (item: String, answer: String)? in
            guard let text = a.interval, let i = SungInterval(text), let right = Self.right(a, tolerance: tolerance) else {
                return nil
            }
            let item = Self.item(i)
            return (item, right ? item : "wrong")
        }
        scheduler = EarScheduler(items: intervals.map(Self.item), history: past)
    }

    /// Whether a stored attempt was judged right; nil when no note was heard.
    public static func right(_ a: MatchAttempt, tolerance: [Int64: Double]) -> Bool? {
        guard let sung = a.sungHz, sung > 0, a.targetHz > 0 else { return nil }
        let limit = tolerance[a.session] ?? MatchJudgement.defaultTolerance
        return MatchJudgement(MatchScore(sung: sung, target: a.targetHz), tolerance: limit) == .right
    }

    public mutating func next(using rng: inout SeededGenerator) -> SungInterval {
        let item = scheduler.next(using: &rng)
        return intervals.first { Self.item($0) == item } ?? intervals[0]
    }

    public mutating func record(_ i: SungInterval, right: Bool) {
        scheduler.record(item: Self.item(i), answer: right ? Self.item(i) : "wrong")
    }

    /// The most semitones a target lies above and below its reference.
    public var span: (up: Int, down: Int) { Self.span(intervals) }

    public static func span(_ intervals: [SungInterval]) -> (up: Int, down: Int) {
        (
            intervals.filter { $0.direction > 0 }.map(\.semitones).max() ?? 0,
            intervals.filter { $0.direction < 0 }.map(\.semitones).max() ?? 0
        )
    }
}
