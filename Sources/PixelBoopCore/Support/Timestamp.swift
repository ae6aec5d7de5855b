import Glibc

/// A moment of wall-clock time (CLOCK_REALTIME), in seconds since 1970 as a Double: the part of
/// Foundation's `Date` boop uses, kept here so that boop links no Foundation (FoundationEssentials
/// was 2.5 MB of the binary for a clock, a file read and a few path helpers). The names are
/// Date's, so its arithmetic reads the same.
public struct Timestamp: Sendable, Hashable, Comparable, Codable {
    public var timeIntervalSince1970: Double

    /// Now.
    public init() {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        timeIntervalSince1970 = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    public init(timeIntervalSince1970 seconds: Double) { timeIntervalSince1970 = seconds }

    public init(timeIntervalSinceNow seconds: Double) {
        self = Timestamp().addingTimeInterval(seconds)
    }

    /// Foundation's `distantPast` (year 1): what a record without a readable time is given.
    public static let distantPast = Timestamp(timeIntervalSince1970: -62_135_769_600)

    public func addingTimeInterval(_ seconds: Double) -> Timestamp {
        Timestamp(timeIntervalSince1970: timeIntervalSince1970 + seconds)
    }

    /// Seconds from `other` to this moment (negative when `other` is later).
    public func timeIntervalSince(_ other: Timestamp) -> Double {
        timeIntervalSince1970 - other.timeIntervalSince1970
    }

    public var timeIntervalSinceNow: Double { timeIntervalSince(Timestamp()) }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.timeIntervalSince1970 < b.timeIntervalSince1970 }
}
