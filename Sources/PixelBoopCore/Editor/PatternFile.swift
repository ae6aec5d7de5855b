import CAudioEngine
import Glibc

/// Why a pattern file was not written: one line naming the file and the reason.
public struct PatternFileError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// No temporary file could be made in the target's folder (exit 73 for a command).
        case cannotCreate
        /// Writing, flushing or renaming failed, or the file would not read back (exit 74).
        case ioError
    }

    public let kind: Kind
    /// Short: the system's reason alone ("Permission denied"), for a status message.
    public let reason: String
    public let description: String
}

/// Writing a pattern file so that nothing is ever half-written, lost or silently replaced: the one
/// atomic writer (`boop_file_write_atomic`: a temporary file beside the real target, a symbolic link
/// followed so the link stays a link and its target gets the edits) with the durable policy, the
/// file and then its folder flushed before the save is reported (docs/DESIGN.md, "Durability").
/// What is written is checked first: it must parse with the strict loader back to the same music.
public enum PatternFile {
    /// Writes a one-pattern song as a version-1 pattern file.
    public static func write(version1 song: Song, to path: String) throws(PatternFileError) {
        let data: Bytes
        do {
            data = try song.version1FileData()
            let reread = try Song.parseVersion1(data, file: path)
            guard EditorModel.sameNotes(reread, song) else { throw PatternFile.notSame }
        } catch {
            throw PatternFileError(
                kind: .ioError, reason: "the saved form does not read back the same",
                description: "\(OneLine.escape(path)): the saved form does not read back the same (not written)")
        }
        try write(data, to: path)
    }

    /// Writes `data` as the file `path` names (through symbolic links), keeping the permissions of
    /// the file it replaces.
    public static func write(_ data: Bytes, to path: String) throws(PatternFileError) {
        var why = [CChar](repeating: 0, count: 256)
        let whySize = why.count
        // The path's own bytes (`RawBytes`: a name from the command line need not be UTF-8).
        let status = RawBytes.withPath(path) { name in
            data.withUnsafeBytes { raw in
                boop_file_write_atomic(
                    name, raw.baseAddress, raw.count, BOOP_ATOMIC_FOLLOW_LINKS | BOOP_ATOMIC_KEEP_MODE,
                    BOOP_DURABILITY_SYNC, &why, whySize)
            }
        }
        guard status != BOOP_OK else { return }
        let reason = why[0] == 0 ? String(cString: boop_status_string(status)) : String(cBuffer: why)
        if status == BOOP_ERROR_CANNOT_CREATE {
            let target = resolvingLinks(path)
            let folder =
                PathText.deletingLastComponent(target).isEmpty
                ? "." : PathText.deletingLastComponent(target)
            throw PatternFileError(
                kind: .cannotCreate, reason: reason,
                description: "\(OneLine.escape(path)): cannot create a file in \(OneLine.escape(folder)): \(reason)")
        }
        throw PatternFileError(kind: .ioError, reason: reason, description: "\(OneLine.escape(path)): not written: \(reason)")
    }

    /// The file a path finally names: symbolic links followed (relative ones from their own
    /// folder), up to 40 of them as the kernel allows; a dangling link names its missing target.
    /// The atomic writer's own rule (`boop_file_resolve_links`), so what is asked about is what is
    /// replaced.
    public static func resolvingLinks(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let size = buffer.count
        guard RawBytes.withPath(path, { boop_file_resolve_links($0, &buffer, size) }) > 0 else { return path }
        return RawBytes.decode(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    }

    /// True when the file exists and nobody may write it (no w bit at all, as `chmod 444` leaves
    /// it). Asked by mode, not by access(2): root may write anything, but a file marked read-only
    /// is still not replaced without asking.
    public static func isReadOnly(_ path: String) -> Bool {
        var st = stat()
        guard RawBytes.withPath(path, { stat($0, &st) }) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
        return st.st_mode & 0o222 == 0
    }

    /// True when `a` and `b` name the same existing file (device and inode).
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat()
        var sb = stat()
        guard RawBytes.withPath(a, { stat($0, &sa) }) == 0, RawBytes.withPath(b, { stat($0, &sb) }) == 0 else {
            return false
        }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    /// An absolute, tidied form of `path` (from the working folder; `~/` is the home folder).
    public static func absolute(_ path: String, home: String? = nil) -> String {
        var p = path
        if p == "~" || p.hasPrefix("~/") {
            p = (home ?? ProcessText.passwordHome) + p.dropFirst()
        }
        if !p.hasPrefix("/") { p = workingFolder() + "/" + p }
        return PathText.standardized(p)
    }

    /// The working folder by its bytes (its name need not be UTF-8).
    static func workingFolder() -> String {
        guard let cwd = getcwd(nil, 0) else { return ProcessText.currentFolder }
        defer { free(cwd) }
        return RawBytes.decode(UnsafeRawBufferPointer(start: cwd, count: strlen(cwd)))
    }

    /// Whether something is at `path` (by its bytes), and whether it is a folder.
    public static func exists(_ path: String) -> (exists: Bool, folder: Bool) {
        var st = stat()
        guard RawBytes.withPath(path, { stat($0, &st) }) == 0 else { return (false, false) }
        return (true, st.st_mode & S_IFMT == S_IFDIR)
    }

    private struct Mismatch: Error {}
    private static let notSame = Mismatch()
}
