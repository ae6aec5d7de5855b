import Foundation

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

/// Writing a pattern file so that nothing is ever half-written, lost or silently replaced: a
/// temporary file beside the real target (a symbolic link is followed, so the link stays a link
/// and its target gets the edits), flushed, renamed over the target, the folder flushed. What is
/// written is checked first: it must parse with the strict loader back to the same music.
public enum PatternFile {
    public static func write(_ pattern: Pattern, to path: String) throws(PatternFileError) {
        let data: Data
        do {
            data = try pattern.fileData()
            let reread = try Pattern.parse(data, file: path)
            guard EditorModel.sameNotes(reread, pattern) else { throw PatternFile.notSame }
        } catch {
            throw PatternFileError(
                kind: .ioError, reason: "the saved form does not read back the same",
                description: "\(OneLine.escape(path)): the saved form does not read back the same (not written)")
        }
        try write(data, to: path)
    }

    /// Writes `data` as the file `path` names (through symbolic links).
    public static func write(_ data: Data, to path: String) throws(PatternFileError) {
        let target = resolvingLinks(path)
        let folder =
            (target as NSString).deletingLastPathComponent.isEmpty
            ? "." : (target as NSString).deletingLastPathComponent
        var template = Array((folder + "/.boop-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            let why = String(cString: strerror(errno))
            throw PatternFileError(
                kind: .cannotCreate, reason: why,
                description: "\(OneLine.escape(path)): cannot create a file in \(OneLine.escape(folder)): \(why)")
        }
        let temp = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var ok = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        let error = errno
        // Keep the permissions of the file being replaced (mkstemp makes 0600).
        var st = stat()
        let mode: mode_t = stat(target, &st) == 0 ? st.st_mode & 0o7777 : 0o644 & ~currentUmask()
        ok = ok && fchmod(fd, mode) == 0 && fsync(fd) == 0
        close(fd)
        guard ok, rename(temp, target) == 0 else {
            let why = String(cString: strerror(ok ? errno : error))
            unlink(temp)
            throw PatternFileError(kind: .ioError, reason: why, description: "\(OneLine.escape(path)): not written: \(why)")
        }
        // The rename itself is only durable once the folder is flushed.
        let dir = open(folder, O_RDONLY | O_DIRECTORY)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }

    /// The file a path finally names: symbolic links followed (relative ones from their own
    /// folder), up to 40 of them as the kernel allows; a dangling link names its missing target.
    public static func resolvingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var st = stat()
            guard lstat(current, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") {
                current = link
            } else {
                let folder = (current as NSString).deletingLastPathComponent
                current = folder.isEmpty ? link : folder + "/" + link
            }
        }
        return current
    }

    /// True when the file exists and nobody may write it (no w bit at all, as `chmod 444` leaves
    /// it). Asked by mode, not by access(2): root may write anything, but a file marked read-only
    /// is still not replaced without asking.
    public static func isReadOnly(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
        return st.st_mode & 0o222 == 0
    }

    /// True when `a` and `b` name the same existing file (device and inode).
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat()
        var sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    /// An absolute, tidied form of `path` (from the working folder; `~/` is the home folder).
    public static func absolute(_ path: String, home: String? = nil) -> String {
        var p = path
        if p == "~" || p.hasPrefix("~/") {
            p = (home ?? NSHomeDirectory()) + p.dropFirst()
        }
        if !p.hasPrefix("/") { p = FileManager.default.currentDirectoryPath + "/" + p }
        return (p as NSString).standardizingPath
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }

    private struct Mismatch: Error {}
    private static let notSame = Mismatch()
}

/// Where unsaved work goes when an editing session ends from outside (SIGTERM, SIGHUP, the
/// terminal gone): `FILE.save` beside the file, as before; when that folder takes no file (read-only,
/// full, gone), `$XDG_STATE_HOME/pixelboop/` (else `~/.local/state/pixelboop/`) under a name made
/// from the file's absolute path, so two files of the same name never share one.
public enum EmergencySave {
    /// The places tried, in order: beside the file, then the state folder.
    public static func locations(for file: String, environment: [String: String]) -> [String] {
        [file + ".save", stateFolder(environment) + "/" + encodedName(canonical(file))]
    }

    /// `$XDG_STATE_HOME/pixelboop` when that is an absolute path (the XDG rule), else
    /// `$HOME/.local/state/pixelboop`.
    public static func stateFolder(_ environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/pixelboop" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/state/pixelboop"
    }

    /// The first place that holds a saved copy, or nil.
    public static func find(for file: String, environment: [String: String]) -> String? {
        locations(for: file, environment: environment).first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Writes the pattern to the first place that takes it; returns that path. The state folder is
    /// made (0700) when needed. Throws the last place's error when none does.
    @discardableResult
    public static func write(_ pattern: Pattern, for file: String, environment: [String: String]) throws(PatternFileError)
        -> String
    {
        var lastError: PatternFileError?
        for place in locations(for: file, environment: environment) {
            if place != file + ".save" {
                try? FileManager.default.createDirectory(
                    atPath: (place as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
            do {
                try PatternFile.write(pattern, to: place)
                return place
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }

    /// Removes every saved copy (after the work itself was saved).
    public static func removeAll(for file: String, environment: [String: String]) {
        for place in locations(for: file, environment: environment) { unlink(place) }
    }

    /// The file's absolute path with links and `..` resolved where they exist: one name per file.
    static func canonical(_ file: String) -> String {
        let target = PatternFile.absolute(PatternFile.resolvingLinks(PatternFile.absolute(file)))
        let folder = (target as NSString).deletingLastPathComponent
        guard let real = realpath(folder, nil) else { return target }
        defer { free(real) }
        let resolved = String(cString: real)
        return (resolved == "/" ? "" : resolved) + "/" + (target as NSString).lastPathComponent
    }

    /// `/home/me/song.json` -> `%2Fhome%2Fme%2Fsong.json.save` (`%` and `/` percent-encoded, so
    /// the encoding is reversible and names never collide). A name over 255 bytes keeps its end
    /// behind a hash of the whole path.
    public static func encodedName(_ absolutePath: String) -> String {
        var name = ""
        for ch in absolutePath.unicodeScalars {
            switch ch {
            case "%": name += "%25"
            case "/": name += "%2F"
            default: name.unicodeScalars.append(ch)
            }
        }
        name += ".save"
        guard name.utf8.count > 255 else { return name }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a
        for byte in absolutePath.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        var tail = Substring(name)
        while tail.utf8.count > 200 { tail = tail.dropFirst() }
        return String(hash, radix: 16) + "-" + tail
    }
}
