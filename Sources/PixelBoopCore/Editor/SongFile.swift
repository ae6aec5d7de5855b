import Glibc

extension PatternFile {
    /// Writes the editor's song: a version-1 pattern file when `version1` and nothing needs version
    /// 2 (the very bytes a version-1 save always wrote), else a version-2 song. Checked first as a
    /// pattern is: it must parse back with the strict loader to the same music.
    public static func write(song: Song, version1: Bool, to path: String) throws(PatternFileError) {
        if version1 && !song.needsVersion2 { return try write(version1: song, to: path) }
        let data = song.fileData()
        let reread = try? Song.parse(data, file: path)
        guard let reread, reread.normalized == song.normalized,
            reread.patterns.map(\.tracks) == song.patterns.map({ $0.tracks.filter { !$0.value.isEmpty } })
        else {
            throw PatternFileError(
                kind: .ioError, reason: "the saved form does not read back the same",
                description: "\(OneLine.escape(path)): the saved form does not read back the same (not written)")
        }
        try write(data, to: path)
    }
}

extension PatternSaving {
    /// Writes the editor's song to `path` (durably, through the one atomic writer; version 1 when
    /// `version1` and it fits), then removes the emergency copies of `file` (the edited file) and,
    /// for a save under another name, of that name too: they hold nothing the saved file lacks.
    public static func save(
        song: Song, version1: Bool, to path: String, editing file: String, environment: [String: String]
    ) throws(PatternFileError) {
        try PatternFile.write(song: song, version1: version1, to: path)
        EmergencySave.removeAll(for: file, environment: environment)
        if path != file { EmergencySave.removeAll(for: path, environment: environment) }
    }

    /// The file `boop edit` opens without a name: untitled.json in `folder`, or untitled-2.json,
    /// untitled-3.json, ... when that exists (an existing file is never opened in its place).
    public static func untitled(in folder: String) -> String {
        var n = 1
        while true {
            let name = n == 1 ? "untitled.json" : "untitled-\(n).json"
            let path = folder == "." ? name : PathText.appending(folder, name)
            var st = stat()
            if RawBytes.withPath(path, { lstat($0, &st) }) != 0 { return path }
            n += 1
        }
    }
}
