import Foundation
import Testing

@testable import PixelBoopCore

/// Waiting for another program's lock on the history: a locked history is tried again (only a
/// lock is waited for), and the program holding it is named from /proc/locks.
@Suite("TrainingStore+Lock: waiting for and naming the lock's holder")
struct TrainingStoreLockTests {
    static func store(_ prefix: String) throws -> TrainingStore {
        try TrainingStore(path: try scratchFolder(prefix) + "/training.sqlite")
    }

    @Test("a locked history is tried again until the lock is gone; the answer is the last try's")
    func retriesWhileBusy() throws {
        let store = try Self.store("lock-retry")
        var tries = 0
        let value = try store.retryingWhileLocked { () throws(TrainingStoreError) -> Int in
            tries += 1
            if tries < 3 { throw TrainingStoreError(kind: .busy, message: "locked") }
            return 42
        }
        #expect(value == 42 && tries == 3)
    }

    @Test("any other failure is not waited for: it comes back at once, as it was")
    func otherFailures() throws {
        let store = try Self.store("lock-other")
        for kind in [TrainingStoreError.Kind.corrupt, .unreadable, .newer, .foreign] {
            var tries = 0
            let error = TrainingStoreError(kind: kind, message: "no")
            #expect(throws: error) {
                try store.retryingWhileLocked { () throws(TrainingStoreError) -> Void in
                    tries += 1
                    throw error
                }
            }
            #expect(tries == 1)
        }
    }

    @Test("the monotonic clock never goes back")
    func monotonic() {
        let a = TrainingStore.monotonicSeconds()
        let b = TrainingStore.monotonicSeconds()
        #expect(a > 0 && b >= a)
    }

    @Test("no holder is named for a history nobody locks, or one that is not there")
    func noHolder() throws {
        let store = try Self.store("lock-none")
        _ = try store.beginSession(settings: "{}")
        // This process's own locks (SQLite's, on the open history) are not another program's.
        #expect(TrainingStore.lockHolder(of: store.path) == nil)
        #expect(TrainingStore.lockHolder(of: store.path + ".absent") == nil)
    }

    /// Another program holding a lock: util-linux `flock --no-fork`, so the locking process is
    /// the command it runs (`sleep`), ended by the test.
    @Test(
        "another program's lock on the history's shared memory names it: its process id and command",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
    func namesTheHolder() throws {
        let folder = try scratchFolder("lock-holder")
        let path = folder + "/training.sqlite"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        _ = FileManager.default.createFile(atPath: path + "-shm", contents: Data())
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["--no-fork", path + "-shm", "sleep", "60"]
        try holder.run()
        defer {
            // SIGKILL: the test runner's children may not act on SIGTERM.
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        let process = "process \(holder.processIdentifier) ("
        // The lock is taken once `sleep` runs: a limit for a loaded machine, not a delay.
        let deadline = Date().addingTimeInterval(20)
        var named = TrainingStore.lockHolder(of: path)
        while named?.hasPrefix(process + "sleep") != true && Date() < deadline {
            usleep(5000)
            named = TrainingStore.lockHolder(of: path)
        }
        #expect(named?.hasPrefix(process + "sleep") == true, "\(String(describing: named))")
        // /proc/<pid>/comm ends in a newline: the one-line message leaves it out.
        #expect(named == process + "sleep)")
    }
}
