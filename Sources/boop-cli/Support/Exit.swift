import ArgumentParser
import CAudioEngine
import Glibc
import PixelBoopCore

/// The exit statuses of DESIGN.md (sysexits).
enum ExitStatus: Int32 {
    case ok = 0
    case usage = 64   // bad command-line use, including a note or frequency out of range
    case dataError = 65   // invalid pattern/preset content
    case noInput = 66   // input file missing
    case unavailable = 69   // audio device unavailable
    case cannotCreate = 73   // output cannot be created
    case ioError = 74   // I/O error while running (device disappeared ...)
    case interrupted = 130   // interrupted render
}

/// A failure to report as exactly one line on stderr followed by a documented exit status.
struct BoopExit: Error, CustomStringConvertible {
    let status: ExitStatus
    let message: String
    init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }
    var description: String { message }

    /// The exit status DESIGN.md gives each AudioError.
    init(_ error: AudioError) {
        switch error {
        case .deviceUnavailable: self.init(.unavailable, error.description)
        case .deviceLost, .ioError: self.init(.ioError, error.description)
        case .cannotCreateFile: self.init(.cannotCreate, error.description)
        case .invalidFrequency, .invalidConfiguration: self.init(.usage, error.description)
        default: self.init(.ioError, error.description)
        }
    }
}

/// Prints `boop: message` on stderr and exits with the status. Every command funnels its failures
/// through here so the one-line contract holds everywhere.
/// A temporary file still remembered here is unfinished (a finished one was renamed into place
/// and forgotten): it goes, whichever command failed and wherever.
func fail(_ exit: BoopExit) -> Never {
    boop_temp_remove_all()
    StandardError.line(exit.message)
    Glibc.exit(exit.status.rawValue)
}

/// Runs a command body, turning BoopExit and AudioError into the one-line-and-status contract.
func runReportingErrors(_ body: () throws -> Void) {
    do {
        try body()
    } catch let e as BoopExit {
        fail(e)
    } catch let e as AudioError {
        fail(BoopExit(e))
    } catch {
        fail(BoopExit(.ioError, "\(error)"))
    }
}
