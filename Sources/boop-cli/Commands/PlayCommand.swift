import ArgumentParser
import Foundation
import PixelBoopCore

struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a pattern in a loop through ALSA, with a live playhead.",
        discussion: "Space pauses and resumes, + and - change the tempo, q or Ctrl-C stops (the sound fades out within 20 ms). A device that cannot be opened exits 69; a device lost while playing exits 74.")

    @OptionGroup var patternOptions: PatternOptions

    @OptionGroup var deviceOptions: DeviceOptions

    @OptionGroup var gainOption: GainOption

    @Option(name: .long, help: "ALSA period in frames (default 128). Fixes the buffer (no adaptation) unless --adaptive.")
    var periodFrames: Int?

    @Option(name: .long, help: "ALSA periods per buffer (default 3). Fixes the buffer (no adaptation) unless --adaptive.")
    var periods: Int?

    @Flag(inversion: .prefixedNo,
          help: "Keep more audio queued when xruns come in a burst, up to 50 ms (default: on unless --period-frames or --periods is given).")
    var adaptive: Bool?

    @Flag(name: .long, help: "No terminal view (for scripts).")
    var noDisplay = false

    mutating func validate() throws {
        if let periodFrames, !(16...8192).contains(periodFrames) {
            throw ValidationError("--period-frames \(periodFrames): expected 16...8192")
        }
        if let periods, !(2...16).contains(periods) { throw ValidationError("--periods \(periods): expected 2...16") }
    }

    func run() throws {
        runReportingErrors {
            let pattern = try patternOptions.loadPattern()
            let player = try LivePatternPlayer(
                pattern: pattern, device: deviceOptions.device, requestedRate: deviceOptions.sampleRate(default: 44100),
                voices: patternOptions.voices, periodFrames: periodFrames ?? 128, periods: periods ?? 3,
                adaptive: adaptive ?? (periodFrames == nil && periods == nil), gainDB: gainOption.gain)
            if deviceOptions.verbose { StandardError.write(gainOption.description + "\n") }
            try player.run(loops: patternOptions.loops, display: !noDisplay && !deviceOptions.quiet, verbose: deviceOptions.verbose)
        }
    }
}

/// Real-time pattern playback: the control thread (this one) schedules frame-stamped events a
/// little ahead of the engine's clock; the ALSA I/O thread (C++) renders them on their frames.
/// Thread wake-up jitter therefore never moves a note.
final class LivePatternPlayer {
    private var sequencer: Sequencer
    private let engine: AudioEngine
    private let playback: AudioPlayback
    private let deviceName: String
    private let lookahead: UInt64
    private var pending: [SequencerEvent] = []
    private var nextStep = 0
    private var paused = false
    private var pausedAtStep = 0

    init(pattern: Pattern, device: String, requestedRate: Double, voices: Int, periodFrames: Int, periods: Int,
         adaptive: Bool, gainDB: Double = 0) throws {
        deviceName = device
        // Stereo: every device and the plug layer take it; the voices sit in the centre.
        playback = try AudioPlayback(device: device, sampleRate: requestedRate, channels: 2,
                                     periodFrames: periodFrames, periods: periods, adaptive: adaptive)
        playback.gainDB = gainDB
        let info = playback.info
        engine = try AudioEngine(configuration: EngineConfiguration(
            sampleRate: info.sampleRate, voices: voices, maxBlockFrames: 4096, queueCapacity: 1 << 15, channels: 2))
        sequencer = Sequencer(pattern: pattern, sampleRate: info.sampleRate)
        // 40 ms ahead of the render clock (plus one buffer): far more than a control thread's
        // wake-up jitter, short enough that tempo changes feel immediate.
        lookahead = UInt64(0.04 * info.sampleRate) + UInt64(info.bufferFrames)
    }

    func printNegotiated() {
        FileHandle.standardError.send(Data((playback.info.describe(device: deviceName) + "\n").utf8))
    }

    /// Under -v: a line whenever adaptive buffering grows the latency.
    private var announcedGrowths = 0
    private func announceGrowth(verbose: Bool) {
        let s = playback.stats
        guard verbose, s.latencyGrowths > announcedGrowths else { return }
        announcedGrowths = s.latencyGrowths
        FileHandle.standardError.send(Data(String(
            format: "xruns in a burst (%llu so far): latency grown to %d frames (%.2f ms)\n", s.xruns, s.latencyFrames,
            Double(s.latencyFrames) / sequencer.sampleRate * 1000).utf8))
    }

    func run(loops: Int?, display: Bool, verbose: Bool) throws {
        Signals.install()
        let keys = Keyboard.open()
        defer { keys?.restore() }
        let view = TerminalView()
        let showView = display && view.isTerminal
        if showView { TerminalView.hideCursor() }
        defer { if showView { TerminalView.showCursor() } }

        // Start a few milliseconds after the clock so the first step is scheduled in time.
        let startFrame = engine.frameClock + UInt64(0.02 * sequencer.sampleRate)
        sequencer.restart(step: 0, atFrame: startFrame)
        try schedule()
        try playback.start(engine: engine)
        let triggerTime = Date()
        if verbose { printNegotiated() }
        var measuredLatency: Double?

        let totalSteps = loops.map { $0 * sequencer.pattern.length }

        // Media keys, desktop widgets and `playerctl -p boop` (MPRIS on the session bus). Its
        // commands take the keyboard's path below; without a bus (ssh, CI) play carries on and
        // says so only under -v.
        let media = MediaControls(identity: "PixelBoop", onUnavailable: verbose ? { line in
            FileHandle.standardError.send(Data("\(line)\n".utf8))
        } : nil)
        media?.update(status: .playing, title: sequencer.pattern.name,
                      length: totalSteps.map { Double($0) * sequencer.pattern.stepSeconds })
        defer { media?.update(status: .stopped); media?.close() }

        var lastDraw = Date.distantPast
        while true {
            if Signals.interrupted { break }
            if let error = playback.stats.error { throw BoopExit(.ioError, error.description) }
            switch keys?.poll() {
            case .space: try togglePause()
            case .quit: return try stop(view: showView ? view : nil, verbose: verbose)
            case .other(UInt8(ascii: "+")), .other(UInt8(ascii: "=")): changeTempo(by: 5)
            case .other(UInt8(ascii: "-")), .other(UInt8(ascii: "_")): changeTempo(by: -5)
            default: break
            }
            while let command = media?.poll() {
                switch command {
                case .playPause: try togglePause()
                case .play: if paused { try togglePause() }
                case .pause: if !paused { try togglePause() }
                case .stop, .quit: return try stop(view: showView ? view : nil, verbose: verbose)
                case .next, .previous: break   // a pattern has no next (CanGoNext is false)
                }
            }
            // Cheap when unchanged: only a real change wakes the MPRIS thread and is announced.
            media?.update(status: paused ? .paused : .playing)
            if !paused { try schedule(upTo: totalSteps) }
            announceGrowth(verbose: verbose)

            let audible = playback.audibleFrame
            if measuredLatency == nil, audible >= startFrame {
                // Trigger-to-output: from queueing the first note to the device playing it.
                measuredLatency = Date().timeIntervalSince(triggerTime) - Double(startFrame) / sequencer.sampleRate
                if verbose {
                    let queue = Double(startFrame) / sequencer.sampleRate * 1000
                    FileHandle.standardError.send(Data(String(
                        format: "latency: first note heard %.1f ms after it was queued (%.1f ms scheduled lead + %.1f ms device/engine)\n",
                        (measuredLatency! * 1000) + queue, queue, measuredLatency! * 1000).utf8))
                }
            }
            if let totalSteps, !paused, audible >= sequencer.frame(ofStep: totalSteps) {
                // The music is over: let the last releases ring briefly, then fade.
                return try stop(view: showView ? view : nil, verbose: verbose, tail: 0.3)
            }
            if showView, Date().timeIntervalSince(lastDraw) >= 1.0 / 60 {
                view.draw(frame(audibleStep: sequencer.step(atFrame: audible)))
                lastDraw = Date()
            }
            usleep(4000)
        }
        try stop(view: showView ? view : nil, verbose: verbose)
    }

    /// Queues every event of the steps that start before the horizon, in frame order.
    private func schedule(upTo totalSteps: Int? = nil) throws {
        let horizon = engine.frameClock + lookahead
        var added = false
        while sequencer.frame(ofStep: nextStep) < horizon, totalSteps.map({ nextStep < $0 }) ?? true {
            pending.append(contentsOf: sequencer.events(forSteps: nextStep..<(nextStep + 1)))
            nextStep += 1
            added = true
        }
        if added { pending.sort { $0.frame != $1.frame ? $0.frame < $1.frame : ($0.isNoteOff && !$1.isNoteOff) } }
        var sent = 0
        while sent < pending.count && pending[sent].frame < horizon {
            try engine.schedule(pending[sent])
            sent += 1
        }
        pending.removeFirst(sent)
    }

    private func togglePause() throws {
        if paused {
            // Resume on the step after the one heard when pausing, a moment from now.
            paused = false
            nextStep = pausedAtStep
            sequencer.restart(step: nextStep, atFrame: engine.frameClock + UInt64(0.01 * sequencer.sampleRate))
        } else {
            paused = true
            pausedAtStep = sequencer.step(atFrame: playback.audibleFrame) + 1
            pending.removeAll()
            try engine.cancelPending(fade: 0.01)
        }
    }

    private func changeTempo(by delta: Double) {
        let bpm = min(max(sequencer.pattern.bpm + delta, Pattern.bpmRange.lowerBound), Pattern.bpmRange.upperBound)
        sequencer.setBPM(bpm, fromStep: nextStep)
    }

    /// Fades everything out (<= 20 ms), waits until the device has played the fade, then closes.
    private func stop(view: TerminalView?, verbose: Bool, tail: Double = 0) throws {
        if tail > 0 {
            let end = engine.frameClock + UInt64(tail * sequencer.sampleRate)
            while engine.frameClock < end && engine.activeVoices > 0 && playback.stats.error == nil { usleep(4000) }
        }
        pending.removeAll()
        try engine.cancelPending(fade: 0.015)
        let fadeEnd = engine.frameClock + UInt64(0.02 * sequencer.sampleRate) + UInt64(playback.info.bufferFrames)
        let deadline = Date().addingTimeInterval(1)
        while playback.audibleFrame < fadeEnd && playback.stats.error == nil && Date() < deadline { usleep(2000) }
        let stats = playback.stats
        playback.stop(drain: false)
        if let view { view.draw(frame(audibleStep: nil)) }
        if verbose {
            FileHandle.standardError.send(Data(
                "\(stats.summary(sampleRate: sequencer.sampleRate)), dropped events \(engine.droppedEvents)\n".utf8))
        }
        if let error = stats.error { throw BoopExit(.ioError, error.description) }
    }

    /// One row per track, one column per step; the step being heard is shown in reverse video.
    private func frame(audibleStep: Int?) -> [String] {
        let pattern = sequencer.pattern
        let length = pattern.length
        let current = audibleStep.map { (($0 % length) + length) % length }
        var lines = [String(format: "%@  %.0f BPM  %d steps%@   [space] pause  [+/-] tempo  [q] quit",
                            pattern.name, pattern.bpm, length, paused ? "  (paused)" : "")]
        for kind in TrackKind.allCases where !pattern.notes(kind).isEmpty {
            var cells = [String](repeating: "·", count: length)
            for note in pattern.notes(kind) {
                for s in note.step..<min(length, note.step + note.length) where cells[s] != "●" {
                    cells[s] = s == note.step ? "●" : "─"
                }
            }
            var row = kind.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0) + " "
            for (i, cell) in cells.enumerated() {
                if i % 4 == 0 { row += " " }
                row += i == current ? "\u{1B}[7m\(cell)\u{1B}[0m" : cell
            }
            lines.append(row)
        }
        return lines
    }
}
