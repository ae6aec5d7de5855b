import Glibc
import PixelBoopCore

/// `E`'s export, beside the editor: the piece as it was when asked, written on a thread of its own
/// while the editor goes on (the status line shows how far it is). Esc or Ctrl-C cancels it, and so
/// do quitting, SIGTERM and SIGHUP: the writer stops at its next block, its temporary file goes and
/// nothing is written. A song at the limits takes minutes; the editor never waits for it.
final class ExportJob: Sendable {
    enum Outcome: Sendable, Equatable {
        case written, cancelled
        case failed(String)
    }

    /// Shared by the editor's thread and the export's, through the lock alone.
    struct State: Sendable {
        var fraction = 0.0
        var cancel = false
        var outcome: Outcome?
    }

    /// What the thread runs: writes the file, asking `shouldStop` between blocks; false (or a
    /// CancellationError) when it stopped.
    typealias Work = @Sendable (_ progress: @escaping (Double) -> Void, _ shouldStop: @escaping () -> Bool) throws -> Bool

    let path: String
    let state = LockedBox(State())
    private let thread = LockedBox<pthread_t?>(nil)

    private init(path: String) { self.path = path }

    /// Starts the export's thread; throws when none can be started (no memory, the thread limit).
    static func start(path: String, work: @escaping Work) throws -> ExportJob {
        let job = ExportJob(path: path)
        let runner = Unmanaged.passRetained(Runner(job: job, work: work))
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Runner>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, runner.toOpaque())
        guard status == 0 else {
            runner.release()
            throw BoopExit(.ioError, "cannot start the export (\(String(cString: strerror(status))))")
        }
        job.thread.withLock { $0 = thread }
        return job
    }

    /// What the thread holds: the job it reports to and the work.
    private final class Runner: Sendable {
        let job: ExportJob
        let work: Work
        init(job: ExportJob, work: @escaping Work) {
            self.job = job
            self.work = work
        }
        func run() {
            let outcome: Outcome
            do {
                let done = try work(
                    { [job] fraction in job.state.withLock { $0.fraction = fraction } },
                    { [job] in job.state.withLock { $0.cancel } })
                outcome = done ? .written : .cancelled
            } catch is CancellationError {
                outcome = .cancelled
            } catch {
                outcome = .failed("\(error)")
            }
            job.state.withLock { $0.outcome = outcome }
        }
    }

    func cancel() { state.withLock { $0.cancel = true } }

    /// Waits for the thread (after `cancel`, at most a block of rendering).
    func join() {
        guard let thread = thread.withLock({ $0 }) else { return }
        pthread_join(thread, nil)
    }
}

extension EditSession {
    /// Starts writing the piece as it is now to `path` (a song's or a version-1 pattern's file, as
    /// `boop render` writes the saved file).
    func startExport(to path: String, midi: Bool) {
        // A version-1 file renders as `boop render` renders it: as its one-pattern song.
        let song = model.savesVersion1 ? Song(version1: model.song) : model.song
        let format = SampleFormat.natural(forPath: path)
        do {
            exportJob = try ExportJob.start(path: path) { progress, shouldStop in
                if midi { return try MidiFileWriter.write(song, to: path, shouldStop: shouldStop) }
                var renderer = SongRenderer(song: song)
                renderer.channels = song.version1 == nil ? 2 : 1
                _ = try renderer.render(to: path, format: format, progress: progress, shouldStop: shouldStop)
                return true
            }
            model.message = exportStatus(fraction: 0)
        } catch {
            model.message = "not exported: \(error)"
        }
    }

    private func exportStatus(fraction: Double) -> String {
        // A tenth of a percent: a song at the limits is hundreds of hours, each percent minutes.
        let tenths = Int(fraction * 1000)
        return "exporting \(OneLine.escape(exportJob?.path ?? "")): \(tenths / 10).\(tenths % 10)% (Esc cancels)"
    }

    /// On every turn of the loop while an export runs: its progress on the status line, and its
    /// end (a failure opens the export line again with the reason, as a typed name's would).
    func pollExport() {
        guard let job = exportJob else { return }
        let state = job.state.withLock { $0 }
        guard let outcome = state.outcome else {
            if !state.cancel { model.message = exportStatus(fraction: state.fraction) }
            return
        }
        job.join()
        exportJob = nil
        switch outcome {
        case .written: model.message = "exported \(OneLine.escape(job.path))"
        case .cancelled: model.message = "export cancelled: \(OneLine.escape(job.path)) was not written"
        case .failed(let reason):
            ask(.export, label: "not exported (\(OneLine.escape(reason))); export to", text: job.path)
        }
    }

    /// Esc or Ctrl-C while an export runs cancel it (and nothing else); true when the key was that.
    /// With the help, a question or a prompt open, the key is theirs as always (Esc closes them).
    func exportKey(_ event: InputEvent) -> Bool {
        guard let job = exportJob, !model.showHelp, model.question == nil, model.prompt == nil else { return false }
        switch event {
        case .escape, .control("c"):
            job.cancel()
            model.message = "cancelling the export of \(OneLine.escape(job.path))"
            return true
        default: return false
        }
    }

    /// Leaving the editor: an export still running is cancelled and waited for (its temporary
    /// file removed by the writer).
    func endExport() {
        guard let job = exportJob else { return }
        job.cancel()
        job.join()
        exportJob = nil
    }
}
