import Glibc

/// The bytes of a file, a text of the process's surroundings: what boop took from FoundationEssentials
/// (`Data`, `FileManager`, `ProcessInfo`), done with the C library so that boop links no Foundation.
public typealias Bytes = [UInt8]

public enum FileBytes {
    /// The whole content of `path` (its own bytes: a name need not be UTF-8), or nil when it cannot
    /// be opened or read; at most `limit` bytes are read.
    public static func read(_ path: String, limit: Int = Int.max) -> Bytes? {
        let fd = RawBytes.withPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out = Bytes()
        var buffer = Bytes(repeating: 0, count: 65536)
        while out.count < limit {
            let n = Glibc.read(fd, &buffer, min(buffer.count, limit - out.count))
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            out.append(contentsOf: buffer[0..<n])
        }
        return out
    }

    /// The text of `path` (UTF-8, invalid bytes replaced), or nil.
    public static func text(_ path: String) -> String? {
        read(path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether anything is at `path` (a link followed).
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return RawBytes.withPath(path) { stat($0, &st) } == 0
    }

    /// Makes `path` and any missing folder above it with `mode`; true when it is a folder afterwards.
    @discardableResult
    public static func makeFolders(_ path: String, mode: mode_t = 0o755) -> Bool {
        var st = stat()
        if RawBytes.withPath(path, { stat($0, &st) }) == 0 { return (st.st_mode & S_IFMT) == S_IFDIR }
        let parent = PathText.deletingLastComponent(path)
        if !parent.isEmpty, parent != path, parent != "/" { makeFolders(parent, mode: mode) }
        return RawBytes.withPath(path) { mkdir($0, mode) } == 0 || errno == EEXIST
    }
}

public enum ProcessText {
    /// The environment, as `ProcessInfo.processInfo.environment` gave it (the first of a repeated name).
    public static var environment: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return result
    }

    /// The user's home folder from the password database (as Foundation's homeDirectoryForCurrentUser
    /// when HOME is not used), "/" when there is none.
    public static var passwordHome: String {
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return "/" }
        let home = String(cString: dir)
        return home.isEmpty ? "/" : home
    }

    /// The current folder, "." when it cannot be named.
    public static var currentFolder: String {
        guard let cwd = getcwd(nil, 0) else { return "." }
        defer { free(cwd) }
        return String(cString: cwd)
    }
}
