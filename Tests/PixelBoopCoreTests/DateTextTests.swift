import Foundation
import Testing

@testable import PixelBoopCore

/// Dates as text: ISO 8601 in UTC with milliseconds, as ISO8601DateFormatter wrote them
/// (`.withInternetDateTime, .withFractionalSeconds`), read back with a Z or an offset; local
/// dates and days as Foundation gives them in the process's time zone.
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

    @Test("local dates and days as Foundation's formatter and calendar give them in this process's time zone")
    func local() {
        // The time zone is left as it is: changing TZ would race the other tests' reads of the
        // environment.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let epochDay = calendar.startOfDay(for: Date(timeIntervalSince1970: 0))
        for seconds in [0.0, 1_714_600_000, 1_700_000_000.5, 951_782_399] {
            let t = Timestamp(timeIntervalSince1970: seconds)
            let date = Date(timeIntervalSince1970: seconds)
            #expect(DateText.local(t, "%Y-%m-%d %H:%M") == formatter.string(from: date))
            let day = calendar.dateComponents([.day], from: epochDay, to: calendar.startOfDay(for: date)).day!
            #expect(DateText.localDay(t) - DateText.localDay(Timestamp(timeIntervalSince1970: 0)) == day, "\(seconds)")
        }
        // A day later is one day on.
        let t = Timestamp(timeIntervalSince1970: 1_714_600_000)
        #expect(DateText.localDay(t.addingTimeInterval(86400)) == DateText.localDay(t) + 1)
    }
}
