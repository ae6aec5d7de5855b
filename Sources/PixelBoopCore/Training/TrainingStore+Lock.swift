import Glibc

extension TrainingStore {
    /// How long a session or `stats` waits in all for another program's lock on the history before
    /// it gives up with 74 (SQLite's busy handler waits within each statement; the retries below
    /// wait for the locks it does not handle, such as the switch of a new file to WAL).
    static let lockWaitSeconds = 10.0

    /// Runs `body` again while it fails because the history is locked, until `lockWaitSeconds`
    /// have passed since the first try; then the last error, with the holder named when the
    /// system shows one.
    func retryingWhileLocked<T>(_ body: () throws(TrainingStoreError) -> T) throws(TrainingStoreError) -> T {
        let deadline = TrainingStore.monotonicSeconds() + TrainingStore.lockWaitSeconds
        while true {
            do {
                return try body()
            } catch  where error.kind == .busy {
                if TrainingStore.monotonicSeconds() >= deadline {
                    let holder = TrainingStore.lockHolder(of: path).map { "; held by \($0)" } ?? ""
                    throw TrainingStoreError(
                        kind: .busy,
                        message: error.message + holder + ", waited \(Int(TrainingStore.lockWaitSeconds)) s")
                }
                // SQLite reports a busy database and offers no wait for the other writer to end
                // (its own busy handler sleeps and retries too): try again in 50 ms.
                usleep(50_000)
            }
        }
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// "process 1234 (sqlite3)": the first process /proc/locks shows holding a lock on the file,
    /// its journal or its shared memory (the SQLite locks live on these), or nil.
    static func lockHolder(of path: String) -> String? {
        var identities: Set<String> = []
        for name in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            guard RawBytes.withPath(name, { stat($0, &info) }) == 0 else { continue }
            let major = (info.st_dev >> 8) & 0xFFF | (info.st_dev >> 32) & ~0xFFF
            let minor = info.st_dev & 0xFF | (info.st_dev >> 12) & ~0xFF
            identities.insert(String(cFormat: "%02x:%02x:%lu", major, minor, UInt(info.st_ino)))
        }
        guard !identities.isEmpty, let locks = FileBytes.text("/proc/locks") else {
            return nil
        }
        let me = getpid()
        for line in locks.split(separator: "\n") {
            // "1: POSIX  ADVISORY  WRITE 1234 08:01:5678 0 EOF"
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, let pid = Int32(fields[4]), pid != me, identities.contains(String(fields[5]))
            else { continue }
            // comm ends in a newline, which the one-line message must not carry.
            let comm = FileBytes.text("/proc/\(pid)/comm")?.split(separator: "\n").first.map {
                String($0).trimmingWhitespace()
            }
            return "process \(pid)" + (comm.map { " (\(OneLine.escape($0)))" } ?? "")
        }
        return nil
    }
}
