import Glibc
import PixelBoopCore

/// Saving for `boop edit`: nothing is lost and nothing is replaced behind the user's back. A
/// read-only file is replaced only after "overwrite read-only file? (y/n)"; a save that fails opens
/// a line where another path is typed (`W` opens the same line at any time); a path naming another
/// existing file asks before replacing it; a session ended from outside leaves its work in
/// `FILE.save` or, when that folder takes no file, in the state folder (`EmergencySave`). The files
/// themselves are PixelBoopCore's (`PatternSaving`, `PatternFile`, `EmergencySave`): this file only
/// asks the questions and says what happened.
extension EditSession {
    /// Saves to `path` (the edited file by default), asking first when it is read-only and not
    /// yet agreed to. True when the pattern is on disk.
    @discardableResult
    func save(to path: String? = nil) -> Bool {
        let path = path ?? file
        // A file left as it was is not written again (its keys' order and spacing are the user's).
        if path == file, !model.isModified, let diskStamp, DiskStamp.of(file) == diskStamp {
            model.message = "no changes to save"
            return true
        }
        if path == file, let conflict = conflict() {
            model.question = conflict
            return false
        }
        if PatternSaving.needsConfirmation(path, confirmed: confirmedReadOnly) {
            model.question = .overwriteReadOnly(path: path)
            return false
        }
        return write(to: path)
    }

    /// Writes without asking; on failure opens the path line with the reason.
    func write(to path: String) -> Bool {
        do {
            try PatternSaving.save(
                song: model.song, version1: model.version1, to: path, editing: file, environment: environment)
        } catch {
            askSavePath(label: "not saved (\(OneLine.escape(error.reason))); save to", text: path)
            return false
        }
        let savedAs = path != file
        if savedAs {
            setFile(path)
            takeLock()
        }
        diskStamp = DiskStamp.of(path)
        overrides = []
        model.markSaved()
        workKept = nil   // saving removed every FILE.save
        olderSaveKept = false
        model.message = "saved \(OneLine.escape(savedAs ? path : fileName))" + formatNote()
        return true
    }

    /// A file opened as a version-1 pattern is written as a version-2 song only while the work
    /// needs it, and the status line says so (and says when it is written as version 1 again).
    private func formatNote() -> String {
        guard model.version1 else { return "" }
        let reason = model.song.version2Reason
        defer { savedAsVersion2 = reason != nil }
        if let reason { return " as a version-2 song (\(reason) needs it)" }
        return savedAsVersion2 ? " as a version-1 pattern again" : ""
    }

    /// Before writing the edited file: another editor holding it, or the file changed on disk
    /// since this session read or saved it, is asked about (unless agreed to for this save).
    func conflict() -> EditorModel.Question? {
        if !overrides.contains(.lock), editLock == nil, case .busy(let holder) = takeLock() {
            return .openElsewhere(path: file, holder: holder)
        }
        if !overrides.contains(.disk), let now = DiskStamp.of(file), now != diskStamp {
            return .changedOnDisk(path: file)
        }
        return nil
    }

    /// Takes the edited file's lock when no other editor holds it (at start, after a save as,
    /// and again before a save while another held it).
    @discardableResult
    func takeLock() -> EditLock.Outcome {
        let outcome = EditLock.acquire(for: file, environment: environment)
        if case .held(let lock) = outcome { editLock = lock } else { editLock = nil }
        return outcome
    }

    /// "changed on disk: r": the file as it is now replaces the song, as one undo step.
    func reloadFromDisk() {
        do {
            model.reload(try PieceFile.load(path: file))
            diskStamp = DiskStamp.of(file)
            replacePatternInTransport()
            model.message = "reloaded \(OneLine.escape(fileName)) from disk (u brings your version back)"
        } catch {
            model.message = "cannot reload: \(OneLine.escape("\(error)"))"
        }
    }

    func askSavePath(label: String, text: String? = nil) {
        ask(.save, label: label, text: text ?? file)
    }

    func ask(_ purpose: PromptPurpose, label: String, text: String) {
        promptPurpose = purpose
        model.prompt = PathPrompt(label: label, text: text)
    }

    /// A key while the path line is open; Enter saves there, Esc gives up.
    func promptKey(_ event: InputEvent) -> Int32? {
        guard var prompt = model.prompt else { return nil }
        if case .mouse = event { return nil }
        switch prompt.apply(event) {
        case .editing:
            model.prompt = prompt
        case .cancelled:
            model.prompt = nil
            quitAfterSave = false
            if promptPurpose == .export {
                model.message = "not exported"
            } else {
                model.message = model.isModified && promptPurpose == .save ? "not saved" : nil
            }
        case .done(let typed):
            model.prompt = nil
            if promptPurpose != .save { return typedLine(typed, for: promptPurpose) }
            switch PatternSaving.destination(typed: typed, editing: file, home: environment["HOME"]) {
            case .folder(let path, let suggested):
                askSavePath(label: "\(OneLine.escape(path)) is a folder; save as", text: suggested)
            case .otherFile(let path):
                model.question = .overwriteExisting(path: path)
            case .free(let path):
                return save(to: path) && quitAfterSave ? 0 : nil
            }
        }
        return nil
    }

    func restoreBackup() {
        guard let source = model.restoreSource else { return }
        do {
            var restored = try PieceFile.load(path: source)
            restored.version1 = nil   // the editor keeps the kind of file itself
            let saved = model.savedSong
            let scale = model.scale
            model = EditorModel(song: restored, saved: saved, version1: model.version1)
            model.setScale(scale)
            model.restoreSource = source
            replacePatternInTransport()
            model.message = "restored unsaved changes from \(OneLine.escape(source))"
        } catch {
            model.message = "cannot restore: \(OneLine.escape("\(error)"))"
        }
    }

    /// Before a call that could take the process down (opening a sound device again runs ALSA's,
    /// PulseAudio's or libjack's code against a server that just came back), unsaved work goes to
    /// FILE.save, as on a hang-up, so even a crash loses nothing: the next `boop edit` offers it.
    /// Written only when the work changed since the last copy; never over a copy from an earlier
    /// session the user chose to keep (it is offered again next time, as promised).
    func keepWorkBeforeRisk() {
        guard model.isModified, !olderSaveKept, workKept != model.song else { return }
        if (try? EmergencySave.write(song: model.song, version1: model.version1, for: file, environment: environment))
            != nil
        {
            workKept = model.song
        }
    }

    /// "save changes? n": the work is dropped, and with it any copy written before a risky call.
    func discardWork() -> Int32 {
        if workKept != nil { EmergencySave.removeAll(for: file, environment: environment) }
        return 0
    }

    func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The session ends from outside: unsaved work goes to FILE.save, or to the state folder when
    /// FILE's folder takes no file (as nano does, with somewhere to go when it cannot).
    func hangUp() -> Int32 {
        guard model.isModified else { return 0 }
        do {
            let place = try EmergencySave.write(
                song: model.song, version1: model.version1, for: file, environment: environment)
            tapLog.append(
                "boop: edit: unsaved changes written to \(OneLine.escape(place)); `boop edit \(OneLine.escape(file))` offers them back"
            )
            return 0
        } catch {
            let places = EmergencySave.locations(for: file, environment: environment).map(OneLine.escape)
            tapLog.append(
                "boop: edit: unsaved changes could not be written to \(places.joined(separator: " nor ")): \(OneLine.escape(error.reason))"
            )
            return ExitStatus.ioError.rawValue
        }
    }
}

/// What the user agreed to for the save under way: saving beside another editor, over a file
/// changed on disk.
enum SaveOverride: Hashable {
    case lock, disk
}

extension EditSession {
    /// The answers to "open in another editor" (y saves, W saves elsewhere) and "changed on disk"
    /// (o overwrites, r reloads, W saves elsewhere); anything else leaves the file as it is.
    func answerConflict(_ question: EditorModel.Question, _ event: InputEvent) -> Int32? {
        let key: Character? = if case .char(let c) = event { Character(c.lowercased()) } else { nil }
        switch (question, key) {
        case (.openElsewhere, "y"):
            overrides.insert(.lock)
            return save() && quitAfterSave ? 0 : nil
        case (.changedOnDisk, "o"):
            overrides.insert(.disk)
            return save() && quitAfterSave ? 0 : nil
        case (.changedOnDisk, "r"):
            quitAfterSave = false
            overrides = []
            reloadFromDisk()
        case (_, "w"):
            overrides = []
            askSavePath(label: "save as")
        default:
            quitAfterSave = false
            overrides = []
            model.message = "not saved: \(OneLine.escape(fileName)) left as it is on disk (W saves elsewhere)"
        }
        return nil
    }
}

extension EditCommand {
    /// Whether `file` is there to load: anything but "no such file" is (a loop of symbolic links, a
    /// folder that may not be searched, ...), so that it is reported as `render` would report it
    /// rather than edited as a new pattern whose save replaces what was there. A link to a missing
    /// file is a new file, saved through the link.
    static func exists(_ file: String) -> Bool {
        var info = stat()
        return RawBytes.withPath(file) { stat($0, &info) } == 0 || errno != ENOENT
    }
}
