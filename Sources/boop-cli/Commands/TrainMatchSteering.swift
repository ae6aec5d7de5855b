import Glibc
import PixelBoopCore

/// The live session a singer steers: r replays the reference, x listens again for the same
/// trial, p or space pauses, q ends; `--drone` holds the reference softly while listening.
extension TrainMatchCommand {
    static let keysLine = "Keys: r replays the reference, x listens again, p or space pauses, q ends."

    /// What a live trial needs besides its reference.
    struct LiveTrial {
        let player: SineWaveNotePlayer
        let input: LiveMatchInput
        let needle: Bool
        var loop: CommandLoop { input.loop }
        var stopped: Bool { input.stopped }
    }

    /// Live: each reference on -D, then the note sung into -C (a needle while it is held).
    func runLive(_ recorder: MatchRecorder, pitch: ReferencePitch, drill: IntervalDrill? = nil) throws {
        let player = try SineWaveNotePlayer.live(
            route: self.deviceOptions.route, sampleRate: self.deviceOptions.sampleRate(default: 44100),
            timbre: Timbre(name: self.timbre) ?? .tone)
        defer { player.close(drain: true) }
        // q ends the session as Ctrl-C does: every wait is in this loop.
        let loop = CommandLoop()
        defer { loop.restore() }
        let input = try LiveMatchInput(device: self.captureDevice, loop: loop)
        defer { input.close() }
        let needle = !self.json && !self.deviceOptions.quiet && isatty(STDOUT_FILENO) == 1
        let fixed = try fixedReferences()?.count
        if !self.json && loop.readsKeys { say(Self.keysLine) }
        let live = LiveTrial(player: player, input: input, needle: needle)
        try session(
            count: self.trials ?? fixed ?? 10, recorder: recorder, stopped: { loop.stopped }, curves: needle, pitch: pitch,
            drill: drill
        ) { _, refHz, target, announce in
            try liveTrial(refHz: refHz, target: target, live, announce: announce)
        }
    }

    /// One trial: the reference, then listening until a steady note, the time limit or q; the
    /// steering keys start it over (r, or after a pause) or listen again (x).
    func liveTrial(refHz: Double, target: Double, _ live: LiveTrial, announce: () -> Void) throws -> SungPitch? {
        var playReference = true
        while !live.stopped {
            if playReference {
                let tone = try ToneSequence(frequencies: [refHz], duration: 1.0, gap: 0, sampleRate: live.player.sampleRate)
                _ = try live.player.play(tone, waiting: live.loop.wait(seconds:))
                try live.input.waitForQuiet()
                if self.drone {
                    try live.player.startDrone(frequency: refHz)
                    try live.input.measureDrone()
                }
            }
            announce()
            let heard = try listen(target: target, live)
            live.player.stopDrone()
            switch heard {
            case .note(let p): return p
            case .nothing: return nil
            case .key(UInt8(ascii: "x")):
                playReference = false
                say("  listening again")
            case .key(let k) where k == UInt8(ascii: "p") || k == UInt8(ascii: " "):
                say("  paused: any key goes on (q ends)")
                while !live.stopped && live.loop.takeKeys().isEmpty { try live.input.discardCaptured() }
                playReference = true
            case .key: playReference = true   // r
            }
        }
        return nil
    }

    /// Listening, with the needle against the target in a terminal.
    private func listen(target: Double, _ live: LiveTrial) throws -> LiveMatchInput.Heard {
        var needle = TargetNeedle(target: target)
        let steering: [Character] = ["r", "x", "p", " "]
        let heard = try live.input.listen(
            limit: self.listenSeconds,
            key: {
                live.loop.takeKeys().lazy.compactMap { event -> UInt8? in
                    guard case .char(let c) = event, steering.contains(c) else { return nil }
                    return c.asciiValue
                }.first
            },
            sound: { hz in
                guard live.needle, let line = needle.reading(hz) else { return }
                _ = StandardOutput.send("\r" + line + "\u{1B}[K")
            },
            discarded: {
                guard live.needle else { return }
                _ = StandardOutput.send("\r  (no steady note in that: still listening)\u{1B}[K")
            })
        if live.needle { _ = StandardOutput.send("\r\u{1B}[K") }
        return heard
    }
}
