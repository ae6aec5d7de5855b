import Foundation
import Testing

@testable import PixelBoopCore

/// One editor per file: the lock is taken once, a second taker is told which process holds it,
/// and it is free again when its holder lets go; it lives under $XDG_RUNTIME_DIR when that is an
/// absolute folder of the user's own, else in the state folder; and a file's disk stamp changes
/// when it is replaced or edited in place.
@Suite("EditLock")
struct EditLockTests {
    static func folder() throws -> String { try scratchFolder("editlock") }

    @Test("held once; a second taker is told the holder; free again once let go")
    func exclusive() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let env = ["XDG_RUNTIME_DIR": dir]
        let file = dir + "/song.json"
        var first: EditLock? = nil
        if case .held(let lock) = EditLock.acquire(for: file, environment: env) { first = lock }
        #expect(first != nil)
        guard case .busy(let holder) = EditLock.acquire(for: file, environment: env) else {
            Issue.record("a second lock was granted")
            return
        }
        #expect(holder.hasPrefix("process \(getpid())"))
        // Another file is another lock.
        guard case .held = EditLock.acquire(for: dir + "/other.json", environment: env) else {
            Issue.record("another file's lock refused")
            return
        }
        first = nil
        guard case .held = EditLock.acquire(for: file, environment: env) else {
            Issue.record("not free after its holder let go")
            return
        }
        #expect(first == nil)
    }

    @Test("the lock folder: $XDG_RUNTIME_DIR/pixelboop/locks when absolute and ours, else the state folder's")
    func folders() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(EditLock.lockFolder(["XDG_RUNTIME_DIR": dir]) == dir + "/pixelboop/locks")
        #expect(EditLock.lockFolder(["XDG_RUNTIME_DIR": "relative", "XDG_STATE_HOME": dir]) == dir + "/pixelboop/locks")
        #expect(EditLock.lockFolder(["XDG_RUNTIME_DIR": dir + "/missing", "HOME": "/h"]) == "/h/.local/state/pixelboop/locks")
        #expect(EditLock.lockFolder(["HOME": "/h"]) == "/h/.local/state/pixelboop/locks")
    }

    @Test("no folder for the lock: editing goes on without one")
    func unavailable() throws {
        guard case .unavailable = EditLock.acquire(for: "/tmp/x.json", environment: ["XDG_STATE_HOME": "/proc/self/none"]) else {
            Issue.record("a lock under /proc")
            return
        }
    }

    @Test("a disk stamp changes when the file is replaced or edited in place, and is nil for nothing")
    func stamps() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/f.json"
        #expect(DiskStamp.of(path) == nil)
        try Data("one".utf8).write(to: URL(fileURLWithPath: path))
        let a = try #require(DiskStamp.of(path))
        #expect(DiskStamp.of(path) == a)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("+".utf8))
        try handle.close()
        let b = try #require(DiskStamp.of(path))
        #expect(b != a)   // longer
        try Data("two!".utf8).write(to: URL(fileURLWithPath: dir + "/g.json"))
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: dir + "/g.json", toPath: path)
        #expect(DiskStamp.of(path) != b)   // the same size, another file
    }
}
