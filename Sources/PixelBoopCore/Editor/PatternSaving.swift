import Glibc

/// The editor's saving rules, with every look at the file system in one place (`boop edit` keeps
/// only the questions it asks): a read-only file is replaced only once agreed to, a path typed at
/// the "save to" line that names a folder or another existing file is asked about first, and a
/// save removes the emergency copies the saved work made redundant.
public enum PatternSaving {
    /// What a path typed at the "save to" line names.
    public enum Destination: Equatable, Sendable {
        /// A folder: ask again, offering `suggested` (the edited file's name inside it).
        case folder(path: String, suggested: String)
        /// Another existing file: ask before replacing it.
        case otherFile(path: String)
        /// Nothing yet, or the edited file itself: save there.
        case free(path: String)
    }

    /// `typed` as the editor reads it: `~` and `~/...` from `home`, anything else as typed.
    public static func destination(typed: String, editing file: String, home: String?) -> Destination {
        let path = typed == "~" || typed.hasPrefix("~/") ? PatternFile.absolute(typed, home: home) : typed
        let (exists, isFolder) = PatternFile.exists(path)
        if exists && isFolder {
            return .folder(path: path, suggested: path + "/" + PathText.lastComponent(file))
        }
        if exists && !PatternFile.sameFile(path, file) { return .otherFile(path: path) }
        return .free(path: path)
    }

    /// True when `path` is read-only and replacing it was not agreed to (`confirmed` holds the
    /// agreed files, links resolved as `confirmationKey` gives them).
    public static func needsConfirmation(_ path: String, confirmed: Set<String>) -> Bool {
        PatternFile.isReadOnly(path) && !confirmed.contains(confirmationKey(path))
    }

    /// The name an agreement to replace a read-only file is kept under: the file the link names.
    public static func confirmationKey(_ path: String) -> String { PatternFile.resolvingLinks(path) }
}
