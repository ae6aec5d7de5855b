import Glibc

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
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ProcessText.passwordHome
        return home + "/.local/state/pixelboop"
    }

    /// The first place that holds a saved copy, or nil.
    public static func find(for file: String, environment: [String: String]) -> String? {
        locations(for: file, environment: environment).first { PatternFile.exists($0).exists }
    }

    /// Writes the editor's song (version 1 when it fits) to the first place that takes it; returns
    /// that path. The state folder is made (0700) when needed. Throws the last place's error when
    /// none does.
    @discardableResult
    public static func write(song: Song, version1: Bool, for file: String, environment: [String: String])
        throws(PatternFileError) -> String
    {
        var lastError: PatternFileError?
        for place in locations(for: file, environment: environment) {
            if place != file + ".save" {
                FileBytes.makeFolders(PathText.deletingLastComponent(place), mode: 0o700)
            }
            do {
                try PatternFile.write(song: song, version1: version1, to: place)
                return place
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }

    /// Removes every saved copy (after the work itself was saved).
    public static func removeAll(for file: String, environment: [String: String]) {
        for place in locations(for: file, environment: environment) { _ = RawBytes.withPath(place) { unlink($0) } }
    }

    /// The file's absolute path with links and `..` resolved where they exist: one name per file.
    static func canonical(_ file: String) -> String {
        let target = PatternFile.absolute(PatternFile.resolvingLinks(PatternFile.absolute(file)))
        let folder = PathText.deletingLastComponent(target)
        guard let real = RawBytes.withPath(folder, { realpath($0, nil) }) else { return target }
        defer { free(real) }
        let resolved = RawBytes.decode(UnsafeRawBufferPointer(start: real, count: strlen(real)))
        return (resolved == "/" ? "" : resolved) + "/" + PathText.lastComponent(target)
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
