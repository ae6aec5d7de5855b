import Glibc
import PixelBoopCore

/// The editor and its terminal: job control, the terminal's signals and the screen.
extension EditSession {
    // MARK: Job control

    /// Ctrl-Z or SIGTSTP: the sound device is closed (a stopped process must not hold it, and a
    /// device left unserved past its watchdog would be reported lost), the terminal restored, the
    /// process stopped; after `fg` everything comes back and the loop plays again if it played.
    func suspend() {
        guard terminal.canSuspend else {
            model.message = "Ctrl-Z: this shell has no job control (q quits)"
            return
        }
        let wasPlaying = transport?.state == .playing
        let hadSound = transport != nil
        if let transport { _ = try? transport.stop() }
        transport = nil
        // What is on its way to the screen first: the shell gets a clean terminal.
        screen.drain(seconds: 0.5)
        let stopped = terminal.suspend()
        resume()
        if hadSound {
            openTransport()
            if wasPlaying { togglePlay() }
        }
        if !stopped { model.message = "Ctrl-Z: nothing to return to here (no job-control shell); editing goes on" }
    }

    /// SIGCONT (also after `suspend`): raw mode, the alternate screen and the mouse again, and the
    /// whole screen redrawn at its size now.
    func resume() {
        terminal.resume()
        size = TerminalSession.size()
        writer.invalidate()
        dragging = false
        blockPress = nil
        blockDragging = false
        loop.redraw()
    }

    // MARK: Signals

    func handleSignal(_ sig: Int32) -> Int32? {
        switch sig {
        case SIGWINCH:
            size = TerminalSession.size()
            writer.invalidate()
        case SIGINT:
            if model.isModified { model.question = .saveBeforeQuit } else { return 0 }
        case SIGTSTP: suspend()
        case SIGCONT: resume()
        default:   // SIGTERM, SIGHUP, SIGQUIT
            return hangUp()
        }
        return nil
    }

    // MARK: Screen

    /// The bytes that bring the screen to the model now (asked only when the screen has taken
    /// everything before, so the writer's idea of the screen is what the terminal got).
    func nextFrame() -> String {
        let playing = transport.map { $0.state == .playing } ?? false
        // The playhead shows on the grid while the pattern heard is the one on it.
        model.heard = playing ? transport?.heardPosition : nil
        let playStep = model.heard.flatMap { $0.pattern == model.current ? $0.step : nil }
        let frame = view.frame(
            model: model, width: size.width, height: size.height, playStep: playStep,
            playing: playing, sound: sound, fileName: fileName)
        return writer.update(to: frame)
    }
}
