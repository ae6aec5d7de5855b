import Glibc

/// One editor per file, and no save over changes made since: what `boop edit` checks before
/// writing the file it edits.
///
/// The lock is advisory, per file and per user: `flock` on a small file in
/// `$XDG_RUNTIME_DIR/pixelboop/locks` (else the state folder's `locks`), named for the edited
/// file's real path, holding the owner's process number. The kernel drops it when the process ends
/// however it ends, so no stale lock outlives a crash. It sits apart from the edited file because
/// every save replaces that file (a new inode, through the atomic writer), which would leave a
/// lock on the file itself behind on the old one, and because a read-only folder takes no lock
/// file. Editors of other users are not seen by the lock; the changed-on-disk check (`DiskStamp`)
/// catches their saves, as it catches any other program's.
public final class EditLock {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// What acquiring found.
    public enum Outcome {
        case held(EditLock)
        /// Another process holds it: "process 1234 (boop)".
        case busy(holder: String)
        /// No lock could be made (no folder for it); editing goes on with the disk check alone.
        case unavailable
    }

    /// Takes the lock for `file` without waiting.
    public static func acquire(for file: String, environment: [String: String]) -> Outcome {
        let folder = lockFolder(environment)
        FileBytes.makeFolders(folder, mode: 0o700)
        let name = EmergencySave.encodedName(EmergencySave.canonical(file))
        let path = folder + "/" + name.dropLast(".save".count) + ".lock"
        let fd = RawBytes.withPath(path) { open($0, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        guard fd >= 0 else { return .unavailable }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let taken = errno == EWOULDBLOCK
            let holder = holderText(fd)
            close(fd)
            return taken ? .busy(holder: holder ?? "another process") : .unavailable
        }
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 { _ = pwrite(fd, text, text.count, 0) }
        return .held(EditLock(descriptor: fd))
    }

    /// `$XDG_RUNTIME_DIR/pixelboop/locks` when that is an absolute path (the XDG rule: a folder
    /// of the user's own, emptied at logout), else `locks` in the state folder.
    static func lockFolder(_ environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            var info = stat()
            if RawBytes.withPath(runtime, { stat($0, &info) }) == 0, info.st_uid == getuid() {
                return runtime + "/pixelboop/locks"
            }
        }
        return EmergencySave.stateFolder(environment) + "/locks"
    }

    /// "process 1234 (boop)" from the lock file's number and /proc, or nil when it holds none.
    private static func holderText(_ fd: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(fd, &buffer, buffer.count - 1, 0)
        guard count > 0, let pid = Int32(String(decoding: buffer[0..<count].prefix { $0 != 10 }, as: UTF8.self))
        else { return nil }
        let comm = (FileBytes.text("/proc/\(pid)/comm"))?.split(separator: "\n").first
        return "process \(pid)" + (comm.map { " (\(OneLine.escape(String($0))))" } ?? "")
    }
}

/// What a file was on disk when the editor last read or wrote it: its identity, size and
/// modification time. Another editor's save replaces the file (a new inode); an edit in place
/// changes its size or time: either differs from the stamp.
public struct DiskStamp: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    /// The stamp of what `path` names now (links followed), or nil when nothing is there.
    public static func of(_ path: String) -> DiskStamp? {
        var info = stat()
        guard RawBytes.withPath(path, { stat($0, &info) }) == 0 else { return nil }
        return DiskStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec)
    }
}
