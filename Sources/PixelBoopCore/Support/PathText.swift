import Glibc

/// The path arithmetic boop took from NSString (lastPathComponent and its kin), on plain Strings
/// with the same results for the paths boop handles: `/` separates, runs of `/` count as one, a
/// trailing `/` is ignored, and `/` alone is the root.
public enum PathText {
    /// The components: `/` first for an absolute path, then the names ("a//b/" -> ["a", "b"]).
    static func components(_ path: String) -> [String] {
        let names = path.split(separator: "/").map(String.init)
        return path.hasPrefix("/") ? ["/"] + names : names
    }

    /// "/a/b.json" -> "b.json", "a/" -> "a", "/" -> "/", "" -> "".
    public static func lastComponent(_ path: String) -> String {
        components(path).last ?? ""
    }

    /// "/a/b" -> "/a", "/a" -> "/", "a" -> "", "/" -> "/".
    public static func deletingLastComponent(_ path: String) -> String {
        let parts = components(path)
        guard parts.count > 1 else { return parts.first == "/" ? "/" : "" }
        return join(Array(parts.dropLast()))
    }

    /// "a" + "b" -> "a/b", "a/" + "b" -> "a/b", "" + "b" -> "b" (slashes inside `path` kept as written).
    public static func appending(_ path: String, _ name: String) -> String {
        let tail = join(components(name).filter { $0 != "/" })
        guard !path.isEmpty else { return tail }
        return path.hasSuffix("/") ? path + tail : path + "/" + tail
    }

    /// "dir/song.json" -> "dir/song"; a name that starts with its only dot (".boop") keeps it;
    /// runs of `/` become one.
    public static func deletingExtension(_ path: String) -> String {
        let last = lastComponent(path)
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex, last != "/" else { return join(components(path)) }
        let base = deletingLastComponent(path)
        let stem = String(last[..<dot])
        return base.isEmpty ? stem : appending(base, stem)
    }

    /// NSString's standardizingPath for an absolute path: `.` and empty components dropped, `..`
    /// taking the previous one away, and each component that is a symbolic link replaced by its
    /// target as it goes.
    public static func standardized(_ path: String) -> String {
        var parts = components(path)
        guard !parts.isEmpty else { return path }
        var resolved = parts.removeFirst()
        let absolute = resolved == "/"
        for part in parts {
            switch part {
            case ".": break
            case ".." where absolute: resolved = deletingLastComponent(resolved)
            default:
                resolved = appending(resolved, part)
                if let target = linkTarget(resolved) {
                    resolved = target.hasPrefix("/") ? target : appending(deletingLastComponent(resolved), target)
                }
            }
        }
        for prefix in ["/private", "/var/automount"] where resolved.hasPrefix(prefix + "/") {
            resolved.removeFirst(prefix.count)
        }
        return resolved
    }

    private static func join(_ parts: [String]) -> String {
        guard let first = parts.first else { return "" }
        let rest = parts.dropFirst().joined(separator: "/")
        return first == "/" ? "/" + rest : ([first] + parts.dropFirst()).joined(separator: "/")
    }

    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
