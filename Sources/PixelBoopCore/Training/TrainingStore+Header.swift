import Glibc

extension TrainingStore {
    /// Refuses a database that says in its header that it belongs to another program (an
    /// application id that is not ours), before SQLite opens it: opening a database in WAL mode,
    /// even read-only, makes `-wal` and `-shm` files beside it, and a hot journal beside one is
    /// refused by SQLite as an I/O error; neither is ours to touch or to report as our failure.
    /// A file too short for a header, or not an SQLite one, is left for SQLite to judge.
    static func refuseForeignHeader(_ path: String) throws(TrainingStoreError) {
        let fd = RawBytes.withPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 100)
        guard read(fd, &header, 100) == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else { return }
        // The header's application id: four bytes at offset 68, most significant first.
        let application = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        // A history boop has written is in WAL mode (header byte 18 is 2) with our id; a database in
        // rollback mode with a hot journal beside it (an interrupted transaction, which opening it
        // read-only cannot roll back: SQLite's I/O error) is someone else's too.
        var journal = stat()
        let hotJournal =
            header[18] == 1 && RawBytes.withPath(path + "-journal", { stat($0, &journal) }) == 0 && journal.st_size > 0
        guard (application != 0 && Int32(bitPattern: application) != applicationID) || (application == 0 && hotJournal)
        else { return }
        throw TrainingStoreError(
            kind: .foreign,
            message:
                "\(OneLine.escape(path)): not a PixelBoop training history (an SQLite database of something else); it is left as it is"
        )
    }

    /// The `-wal` and `-shm` files beside `path` that do not exist yet: what opening it in WAL
    /// mode would make, to be removed again when the file proves not to be ours.
    static func missingCompanions(of path: String) -> [String] {
        [path + "-wal", path + "-shm"].filter { name in
            var info = stat()
            return RawBytes.withPath(name, { stat($0, &info) }) != 0
        }
    }

    /// Removes companions this process made beside a database that is not ours.
    static func removeCompanions(_ names: [String]) {
        for name in names { _ = RawBytes.withPath(name) { unlink($0) } }
    }
}
