import Foundation
import Testing

@testable import PixelBoopCore

/// Dates as text: ISO 8601 in UTC with milliseconds, as ISO8601DateFormatter wrote them
/// (`.withInternetDateTime, .withFractionalSeconds`), read back with a Z or an offset; local
/// dates through strftime under a fixed TZ.
@Suite("DateText")
struct DateTextTests {
    @Test(
        "known instants",
        arguments: [
            (0.0, "1970-01-01T00:00:00.000Z"), (1_714_566_896.79, "2024-05-01T12:34:56.790Z"),
            (-0.5, "1969-12-31T23:59:59.500Z"), (951_782_400.0, "2000-02-29T00:00:00.000Z"),
            (4_102_444_799.999, "2099-12-31T23:59:59.999Z")
        ])
    func writes(seconds: Double, text: String) {
        #expect(DateText.iso8601(Timestamp(timeIntervalSince1970: seconds)) == text)
    }

    @Test("the same text ISO8601DateFormatter writes")
    func asFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for seconds in [0.0, 1_714_566_896.79, 1_600_000_000.123, 86_399.999, 1_234_567_890.5] {
            #expect(
                DateText.iso8601(Timestamp(timeIntervalSince1970: seconds))
                    == formatter.string(from: Date(timeIntervalSince1970: seconds)))
        }
    }

    @Test("read back: what it writes, and an offset taken off")
    func reads() throws {
        for seconds in [0.0, 1_714_566_896.79, -0.5, 951_782_400.25] {
            let text = DateText.iso8601(Timestamp(timeIntervalSince1970: seconds))
            let back = try #require(DateText.date(iso8601: text))
            #expect(abs(back.timeIntervalSince1970 - seconds) < 1e-6)
        }
        let plusTwo = try #require(DateText.date(iso8601: "2024-05-01T14:34:56.5+02:00"))
        #expect(plusTwo.timeIntervalSince1970 == 1_714_566_896.5)
        let minusOneThirty = try #require(DateText.date(iso8601: "2024-05-01T11:04:56.000-01:30"))
        #expect(minusOneThirty.timeIntervalSince1970 == 1_714_566_896)
    }

    @Test(
        "other text is no date",
        arguments: [
            "", "2024-05-01", "2024-05-01T12:34:56Z", "2024-13-01T12:34:56.000Z", "2024-05-01T24:00:00.000Z",
            "2024-05-01T12:60:00.000Z", "2024-05-01 12:34:56.000Z", "2024-05-01T12:34:56.Z", "2024-05-01T12:34:56.000",
            "2024-05-01T12:34:56.000+0200", "x024-05-01T12:34:56.000Z", "2024-05-01T12:34:56.000Zjunk"
        ])
    func refuses(text: String) {
        #expect(DateText.date(iso8601: text) == nil)
    }

    @Test("local dates and days under TZ")
    func local() {
        let saved = getenv("TZ").map { String(cString: $0) }
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        setenv("TZ", "UTC-2", 1)   // POSIX: two hours east of UTC
        tzset()
        let t = Timestamp(timeIntervalSince1970: 1_714_600_000)   // 2024-05-01 21:46:40 UTC
        #expect(DateText.local(t, "%Y-%m-%d %H:%M") == "2024-05-01 23:46")
        #expect(DateText.localDay(t) == 19844)   // 2024-05-01 is day 19844 from 1970-01-01
        #expect(DateText.localDay(t.addingTimeInterval(3600)) == 19845)   // past local midnight
    }
}
