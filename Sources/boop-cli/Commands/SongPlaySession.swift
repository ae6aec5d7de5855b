import Foundation
import PixelBoopCore

/// `boop play` of a song: space pauses and resumes, q or Ctrl-C stops; one line shows the chain
/// entry, its pattern and the step heard.
final class SongPlaySession {
    private let transport: SongTransport
    private let verbose: Bool
    private let showView: Bool
    private var view = LineView()
    private var terminal: TerminalSession?
    private var screen: ScreenOutput?

    init(transport: SongTransport, display: Bool, verbose: Bool) {
        self.transport = transport
        self.verbose = verbose
        showView = display && isatty(STDOUT_FILENO) == 1
    }

    func run() throws {
        Signals.install()
        terminal = TerminalSession.start(.keys(hideCursor: showView))
        defer { terminal?.restore() }
        screen = showView ? ScreenOutput(reopening: STDOUT_FILENO) : nil
        view = LineView(resumeCount: terminal?.resumeCount ?? 0)
        try transport.start()
        if verbose { StandardError.write(shown(transport.info.describe(device: transport.device)) + "\n") }
        let loop = LiveLoop(terminal: terminal, screen: screen)
        var finished = false
        loop.watch(Signals.wakeDescriptor) { .stop }
        loop.onKeys = { events in
            for event in events {
                switch event {
                case .char(" "): try self.transport.setPaused(self.transport.state == .playing)
                case .char("q"), .char("Q"): return .stop
                default: break
                }
            }
            return .carryOn
        }
        loop.onTurn = {
            if Signals.interrupted { return .stop }
            do {
                try self.transport.tick()
            } catch {
                throw BoopExit(.ioError, "\(error)")
            }
            if let failure = self.screen?.failure {
                _ = try? self.transport.stop()
                StandardOutput.exit(for: failure == EPIPE ? .closed : .failed(failure))
            }
            finished = self.transport.state == .finished
            return finished ? .stop : .carryOn
        }
        loop.secondsUntilDue = { self.transport.secondsUntilDue(atMost: 0.5) }
        if showView {
            loop.frame = { self.view.frame(self.lines(), resumeCount: self.terminal?.resumeCount ?? 0) }
            loop.frameInterval = 1.0 / 60
        }
        try loop.run()
        let stats: PlaybackStats
        do {
            stats = try transport.stop(tail: finished ? 0.3 : 0)
        } catch {
            throw BoopExit(.ioError, error.description)
        }
        if verbose {
            StandardError.write(
                "\(stats.summary(sampleRate: transport.sampleRate)), dropped events \(transport.droppedEvents)\n")
        }
    }

    private func lines() -> [String] {
        let song = transport.song
        var line = "\(shown(song.name))  \(song.chain.count) entries"
        if let (seg, step) = transport.heard {
            let pattern = song.patterns[seg.pattern]
            line =
                "\(shown(song.name))  entry \(seg.entry + 1)/\(song.chain.count): \(shown(pattern.name))"
                + String(format: "  step %d/%d  %.0f BPM", step + 1, pattern.length, seg.bpm)
        }
        let paused = transport.state == .paused ? "  (paused)" : ""
        return [line + paused + "   [space] pause  [q] quit"]
    }
}
