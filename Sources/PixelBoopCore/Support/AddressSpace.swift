import Glibc

/// Whether `ulimit -v` (RLIMIT_AS) leaves a sound server's client library too little room. ALSA's
/// `pulse` PCM runs libpulse, which maps a 64 MiB shared-memory pool and starts threads, and
/// glibc gives each new thread an 8 MiB stack and a malloc arena reserved as up to 128 MiB of
/// address space. Under a tight limit one of those fails inside libpulse, which then reports its
/// connection as refused, or (opening for capture) waits for ever for a thread that never started.
public enum AddressSpace {
    /// What libpulse's client needs beyond what the process already maps: its pool, and a
    /// thread's stack and arena, twice over.
    public static let clientNeedMiB = 256

    /// The limit and what is left under it, in MiB, when the limit is set; else nil.
    public static func room() -> (limit: Int, free: Int)? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return nil
        }
        let limitMiB = Int(limit.rlim_cur >> 20)
        // /proc/self/statm: the first field is the whole mapped size, in pages.
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return (limitMiB, limitMiB) }
        defer { close(fd) }
        var text = [UInt8](repeating: 0, count: 128)
        let n = read(fd, &text, text.count)
        guard n > 0, let pages = Int(String(decoding: text[..<n].prefix { $0 != 0x20 }, as: UTF8.self)) else {
            return (limitMiB, limitMiB)
        }
        let mapped = (pages * Int(sysconf(Int32(_SC_PAGESIZE)))) >> 20
        return (limitMiB, max(0, limitMiB - mapped))
    }

    /// The limit and the room left, in MiB, when that is too little for a sound server's client; else nil.
    public static func tooTightForAClient() -> (limit: Int, free: Int)? {
        guard let r = room(), r.free < clientNeedMiB else { return nil }
        return r
    }
}
