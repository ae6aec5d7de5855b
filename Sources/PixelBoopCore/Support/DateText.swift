import Glibc

/// Dates as text without Foundation's ICU-backed formatters: ISO 8601 in UTC with milliseconds
/// (what ISO8601DateFormatter wrote with `.withInternetDateTime, .withFractionalSeconds`, the
/// milliseconds rounded as it rounded them) and local dates through strftime (the time zone of
/// TZ or /etc/localtime, as DateFormatter's default).
public enum DateText {
    /// "2024-05-01T12:34:56.790Z".
    public static func iso8601(_ date: Timestamp) -> String {
        let millis = (date.timeIntervalSince1970 * 1000).rounded()
        guard millis.isFinite, abs(millis) < 1e17 else { return "" }
        let total = Int64(millis)
        let seconds = total >= 0 ? total / 1000 : (total - 999) / 1000
        let fraction = Int(total - seconds * 1000)
        return format(time_t(seconds), "%Y-%m-%dT%H:%M:%S", local: false) + String(cFormat: ".%03dZ", fraction)
    }

    /// The date `iso8601(_:)` wrote (a UTC offset such as "+02:00" also read); nil for other text.
    public static func date(iso8601 text: String) -> Timestamp? {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count, b[from..<(from + count)].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(String(decoding: b[from..<(from + count)], as: UTF8.self))
        }
        guard b.count >= 21, let year = number(0, 4), b[4] == 0x2D, let month = number(5, 2), b[7] == 0x2D,
            let day = number(8, 2), b[10] == 0x54, let hour = number(11, 2), b[13] == 0x3A, let minute = number(14, 2),
            b[16] == 0x3A, let second = number(17, 2), b[19] == 0x2E, (1...12).contains(month), (1...31).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 20
        while i < b.count, (0x30...0x39).contains(b[i]) { i += 1 }
        guard i > 20, let digits = number(20, i - 20).map({ Double($0) }) else { return nil }
        let fraction = digits / pow(10, Double(i - 20))
        var offset = 0
        if i == b.count - 1, b[i] == 0x5A {
            offset = 0
        } else if i + 6 == b.count, b[i] == 0x2B || b[i] == 0x2D, let h = number(i + 1, 2), b[i + 3] == 0x3A,
            let m = number(i + 4, 2)
        {
            offset = (b[i] == 0x2B ? 1 : -1) * (h * 3600 + m * 60)
        } else {
            return nil
        }
        var t = tm()
        (t.tm_year, t.tm_mon, t.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
        (t.tm_hour, t.tm_min, t.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        let seconds = Int64(timegm(&t)) - Int64(offset)
        let millis = Double(seconds * 1000) + (fraction * 1000).rounded()
        return Timestamp(timeIntervalSince1970: millis / 1000)
    }

    /// `date` in local time through strftime's `format` ("%Y-%m-%d %H:%M").
    public static func local(_ date: Timestamp, _ format: String) -> String {
        self.format(time_t(date.timeIntervalSince1970.rounded(.down)), format, local: true)
    }

    /// The local calendar day of `date`, counted from 1970-01-01 (differences are days apart).
    public static func localDay(_ date: Timestamp) -> Int {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&t, &parts)
        parts.tm_hour = 0
        parts.tm_min = 0
        parts.tm_sec = 0
        parts.tm_isdst = 0
        return Int(timegm(&parts)) / 86400
    }

    private static func format(_ time: time_t, _ format: String, local: Bool) -> String {
        var t = time
        var parts = tm()
        if local { localtime_r(&t, &parts) } else { gmtime_r(&t, &parts) }
        var buffer = [CChar](repeating: 0, count: 128)
        let n = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
