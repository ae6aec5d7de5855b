import ArgumentParser
import Glibc
import PixelBoopCore

struct ListenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Capture from a microphone (or any ALSA capture device): live level and detected pitch.",
        discussion: """
            Shows the level (dBFS RMS and peak) and the YIN pitch as the nearest note and cents, one \
            update per buffer (2048 frames at 16000 Hz = 128 ms). --json prints one object per buffer: \
            {"time","rms","peak","frequency","note","cents"} (frequency, note and cents are null when no \
            pitch is heard); with --samples each object also carries "rate" and the buffer's mono \
            "samples". --raw writes the mono signal to stdout as 32-bit float little-endian samples and \
            nothing else (for `| sox -t f32 -r 16000 -c 1 - out.wav`). Both keep going when the reader \
            is slow and end quietly (exit 0) when it closes the pipe. \
            -o records the mono signal; the file is complete after Ctrl-C, which exits 0. \
            To hear what a PulseAudio sink plays, capture its monitor: -D pulse:SINK.monitor. \
            --midi-out --backend jack plays the voice as a MIDI controller on boop-listen:midi_out: a note-on \
            (the nearest key, velocity from the level) when a sung note starts, pitch bend for its distance \
            from that key, note-off when it ends (after a 30 ms hold), a new note when a legato line moves \
            0.7 semitone or more for 40 ms. Each event goes out on the capture frame where it was decided \
            plus a fixed output delay (whole JACK periods, at least 2 and 2 ms): the decision delay is the voice \
            filling about half of the analysis window (two periods of --min-frequency: 15.5 ms for C3), a \
            1.3 ms hop, a hop of confirmation and that delay; -v prints it part by part. At 64-frame periods a \
            sung onset's note-on comes about 23.5 ms later (median). --mpe puts each note on the next \
            member channel (2-16) of an MPE lower zone.
            """)

    @OptionGroup var deviceOptions: DeviceOptions

    @OptionGroup var midi: ListenMidiOptions

    @Option(
        name: [.customShort("c"), .customLong("channels")],
        help: "Device channels to record, averaged to mono (\(Limits.text(Limits.deviceChannels))).")
    var channels: Int = 1

    @Option(name: .customLong("buffer-frames"), help: "Frames per analysed buffer (\(Limits.text(Limits.pitchWindow))).")
    var bufferFrames: Int = 2048

    @Option(name: .long, help: "Stop by itself after this many seconds (\(Limits.text(Limits.listenSeconds))).")
    var duration: Double?

    @Option(name: [.short, .customLong("output")], help: "Record to this file (.wav, .flac, .ogg).")
    var output: String?

    @Flag(name: .long, help: "Print one JSON object per buffer instead of the live line.")
    var json = false

    @Flag(name: .long, help: "With --json: add the buffer's mono samples and the rate to each object.")
    var samples = false

    @Flag(name: .long, help: "Write mono 32-bit float little-endian samples to stdout, nothing else.")
    var raw = false

    static let defaultRate = StreamConfig.defaultSampleRate

    mutating func validate() throws {
        try validateRange(channels, Limits.deviceChannels, option: "-c/--channels")
        try validateRange(bufferFrames, Limits.pitchWindow, option: "--buffer-frames")
        if let duration, !(duration.isFinite && Limits.listenSeconds.contains(duration)) {
            throw ValidationError("--duration \(duration): expected seconds \(Limits.text(Limits.listenSeconds))")
        }
        if samples && !json { throw ValidationError("--samples: goes with --json") }
        if raw && json { throw ValidationError("--raw and --json: expected at most one of them") }
        if let output, output.isEmpty {
            throw ValidationError("-o/--output: expected a file name ending in .wav, .flac or .ogg")
        }
        try midi.check(self)
    }

    var streamConfig: StreamConfig {
        var config = StreamConfig(
            sampleRate: deviceOptions.sampleRate(default: Self.defaultRate),
            bufferFrames: bufferFrames, channels: channels, device: deviceOptions.device)
        config.backend = deviceOptions.backend
        config.connect = !deviceOptions.noConnect
        return config
    }

    func run() throws {
        var failure: BoopExit?
        do {
            // The capture is gathered on the concurrency runtime's threads, which wait for ever
            // where none can start (`ulimit -v`): one line and 74 instead, before anything opens.
            try Signals.checkThreadsCanStart()
            if midi.midiOut {
                try midi.checkBackend(deviceOptions.backend)
                try listenMidi()
            } else {
                try listen()
            }
        } catch let e as BoopExit {
            failure = e
        } catch let e as AudioError {
            failure = BoopExit(e)
        } catch {
            failure = BoopExit(.ioError, "\(error)")
        }
        if let failure { fail(failure) }
    }

    /// What one capture has seen so far.
    private struct Progress {
        var framesSeen = 0
        var lostError: String?
        var outputFailure: StandardOutput.Failure?
        /// Capture is to end (the duration reached, stdout failed, q or a stop signal).
        var stopping = false
    }

    private func listen() throws {
        // An output that cannot be created (a directory, a name too long) is 73 before the device opens.
        if let output { try checkOutput(output) }
        let stream = AudioStream(config: streamConfig)
        Signals.install()
        try stream.start()
        let rate = stream.sampleRate
        let detector = try PitchDetector(sampleRate: rate, windowFrames: bufferFrames)
        let writer = try openRecording(stream, rate: rate)
        if deviceOptions.verbose { describe(stream) }
        let live = !json && !raw && !deviceOptions.quiet
        let tty = isatty(STDOUT_FILENO) == 1
        // The live line on a terminal never blocks capture: a line the terminal is not ready for
        // is dropped (the next one shows the state then).
        let screen = live && tty ? ScreenOutput(reopening: STDOUT_FILENO) : nil
        // The one loop: it sleeps until a buffer, a key or a stop signal comes; q ends capture as
        // Ctrl-C does, at once.
        let loop = CommandLoop()
        defer { loop.restore() }
        let inbox = CaptureBuffer()
        inbox.gather(from: stream)
        guard inbox.waitUntilGathering(seconds: 10) else {
            stream.stop()
            throw BoopExit(.ioError, "cannot start a thread for the capture; is memory or the thread count limited?")
        }
        loop.watch(inbox.readiness) { .stop }   // read by `takeEvents()`
        var progress = Progress()
        var ended = false
        while !ended {
            // Buffers taken after the stop was seen are not analysed: a device faster than real
            // time (null) would keep q waiting for seconds of backlog.
            let afterStop = loop.stopped || progress.stopping
            if afterStop {
                stream.stop()
                // Only the capture's end is awaited now (the stop signal's pipe stays readable).
                var fd = pollfd(fd: inbox.readiness, events: Int16(POLLIN), revents: 0)
                _ = poll(&fd, 1, -1)
            } else {
                _ = try loop.wait(seconds: .infinity)
            }
            let got = inbox.takeEvents()
            ended = got.ended
            for event in got.events {
                switch event {
                case .samples(let buffer, _, _, let timestamp):
                    guard !afterStop && !progress.stopping else { continue }
                    try take(
                        buffer, at: timestamp, rate: rate, detector: detector, writer: writer, live: live, tty: tty,
                        screen: screen, &progress)
                case .status(let status): if status == .stopped { ended = true }
                case .error(_, let message): progress.lostError = message
                }
            }
        }
        try finish(
            writer, frames: progress.framesSeen, liveLine: live && tty, screen: screen,
            outputFailure: progress.outputFailure)
        reportLosses(stream.losses, recording: writer != nil)
        if let lostError = progress.lostError { throw BoopExit(.ioError, lostError) }
    }

    /// One captured buffer: cut at --duration, recorded, its pitch found and reported.
    private func take(
        _ buffer: [Float], at timestamp: Double, rate: Double, detector: PitchDetector, writer: AudioFileWriter?,
        live: Bool, tty: Bool, screen: ScreenOutput?, _ progress: inout Progress
    ) throws {
        let limitFrames = duration.map { Int(($0 * rate).rounded()) }
        var samples = buffer
        if let limitFrames {
            let room = limitFrames - progress.framesSeen
            if room <= 0 {
                progress.stopping = true
                return
            }
            if samples.count > room { samples.removeLast(samples.count - room) }
        }
        progress.framesSeen += samples.count
        try writer?.write(samples)
        let pitch = samples.count >= min(bufferFrames, 256) ? detector.detect(samples) : nil
        // stdout failed: the reader closed the pipe (`| head`: "enough", exit 0) or the write
        // failed (74). Either way capture ends here and a recording is finished first.
        if progress.outputFailure == nil,
            let failure = report(samples, pitch: pitch, time: timestamp, rate: rate, live: live, tty: tty, screen: screen)
        {
            progress.outputFailure = failure
            progress.stopping = true
        }
        if let limitFrames, progress.framesSeen >= limitFrames { progress.stopping = true }
    }

    /// The recording's file (`-o`), opened once the device has given its rate; a file that cannot
    /// be created stops the capture first.
    private func openRecording(_ stream: AudioStream, rate: Double) throws -> AudioFileWriter? {
        guard let output else { return nil }
        do {
            return try AudioFileWriter(path: output, sampleRate: rate, channels: 1, format: .f32, durability: .sync)
        } catch {
            stream.stop()
            throw error
        }
    }

    /// After the capture: the live line on a terminal ended (through `screen` when it has one),
    /// the recording finished, and a failed stdout reported.
    private func finish(
        _ writer: AudioFileWriter?, frames framesSeen: Int, liveLine: Bool, screen: ScreenOutput?,
        outputFailure: StandardOutput.Failure?
    ) throws {
        if liveLine, outputFailure == nil {
            if let screen {
                screen.drain(seconds: 1)
                screen.write("\n")
                screen.drain(seconds: 1)
            } else {
                _ = StandardOutput.send("\n")
            }
        }
        // A recording is finished whatever stopped us (Ctrl-C, --duration, a lost device, a
        // failed stdout): it is the user's, complete up to that moment, never cut off mid-write.
        if let writer {
            try writer.commit()
            if deviceOptions.verbose {
                StandardError.write(shown("listen: wrote \(framesSeen) frames to \(writer.path)") + "\n")
            }
        }
        if let outputFailure {
            let kept = writer.map { "; the recording \($0.path) was finished (\(framesSeen) frames)" } ?? ""
            StandardOutput.exit(for: outputFailure, also: kept)
        }
    }

    /// A recording with a gap is not what was played: say so always (else only under -v).
    private func reportLosses(_ losses: (droppedFrames: UInt64, overruns: UInt64), recording: Bool) {
        let lossy = losses.droppedFrames > 0 || losses.overruns > 0
        guard deviceOptions.verbose || (recording && lossy) else { return }
        StandardError.write(
            "listen: \(losses.droppedFrames) frames dropped (the reader fell behind), "
                + "\(losses.overruns) device overruns\(recording && lossy ? ": the recording has gaps" : "")\n")
    }

    private func describe(_ stream: AudioStream) {
        let format = stream.deviceFormat
        let rate = stream.sampleRate
        let line =
            "listen: \(deviceOptions.route) \(format.format) \(Int(rate)) Hz x\(format.channels)"
            + " -> mono, \(bufferFrames)-frame buffers (\(String(cFormat: "%.1f", Double(bufferFrames) / rate * 1000)) ms)"
            + (output.map { ", recording to \($0)" } ?? "")
        StandardError.write(shown(line) + "\n")
    }

    /// One buffer's output: raw samples, a JSON line, or the live line. Nil when written, else
    /// why stdout failed.
    private func report(
        _ samples: [Float], pitch: PitchReading?, time: Double, rate: Double, live: Bool, tty: Bool,
        screen: ScreenOutput?
    ) -> StandardOutput.Failure? {
        let level = SignalLevel.measure(samples)
        if raw {
            return samples.withUnsafeBytes { StandardOutput.send($0) }
        } else if json {
            var line = Self.jsonLine(time: time, rms: level.rms, peak: level.peak, pitch: pitch)
            if self.samples { line = Self.withSamples(line, samples, rate: rate) }
            return StandardOutput.send(line + "\n")
        } else if live {
            let line = Self.liveLine(
                time: time + Double(samples.count) / rate, rms: level.rms, peak: level.peak, pitch: pitch,
                columns: tty ? StatusLine.columns(of: STDOUT_FILENO) : nil)
            if let screen {
                screen.flush()
                if !screen.isBusy { screen.write("\r" + line + "\u{1B}[K") }
                return screen.failure.map { $0 == EPIPE ? .closed : .failed($0) }
            }
            return StandardOutput.send(tty ? "\r" + line + "\u{1B}[K" : line + "\n")
        }
        return nil
    }

    /// `line` (one JSON object) with `"rate"` and `"samples"` added before its closing brace.
    static func withSamples(_ line: String, _ samples: [Float], rate: Double) -> String {
        var out = String(line.dropLast())
        out.reserveCapacity(line.utf8.count + samples.count * 12)
        out += ",\"rate\":\(Int(rate)),\"samples\":["
        for (i, v) in samples.enumerated() {
            if i > 0 { out += "," }
            // 9 significant digits round-trip a Float exactly.
            out += v.isFinite ? String(cFormat: "%.9g", Double(v)) : "0"
        }
        return out + "]}"
    }

    static func jsonLine(time: Double, rms: Double, peak: Double, pitch: PitchReading?) -> String {
        let t = String(cFormat: "%.3f", time)
        let r = String(cFormat: "%.6f", rms)
        let p = String(cFormat: "%.6f", peak)
        guard let pitch else {
            return "{\"time\":\(t),\"rms\":\(r),\"peak\":\(p),\"frequency\":null,\"note\":null,\"cents\":null}"
        }
        return "{\"time\":\(t),\"rms\":\(r),\"peak\":\(p),\"frequency\":\(String(cFormat: "%.3f", pitch.frequency)),"
            + "\"note\":\(jsonString(pitch.note)),\"cents\":\(String(cFormat: "%.2f", pitch.cents))}"
    }

    /// `  12.3s  -18.2 dBFS [########............]  A4  +1.3c  440.33 Hz`, fitted into `columns`
    /// (nil: no limit): the meter goes first, then the frequency and the time; the level and the
    /// note stay.
    static func liveLine(time: Double, rms: Double, peak: Double, pitch: PitchReading?, columns: Int? = nil) -> String {
        let db = SignalLevel.dbfs(rms)
        let width = 24
        // The meter spans -60 ... 0 dBFS.
        let filled = max(0, min(width, Int(((db + 60) / 60 * Double(width)).rounded())))
        let meter = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let clip = peak >= 0.999 ? "CLIP" : ""
        let dbText = db <= -120 ? "  -inf" : String(cFormat: "%6.1f", db)
        // The note and cents, and the frequency (which goes before the time when space is short).
        var pitchText = "  --"
        var hzText = ""
        if let pitch {
            pitchText = String(cFormat: " %-4@ %+5.1fc", pitch.note, pitch.cents)
            hzText = String(cFormat: " %8.2f Hz", pitch.frequency)
        }
        let fields = [
            StatusField(String(cFormat: "%7.1fs", time), priority: 2), StatusField("\(dbText) dBFS", priority: 1),
            StatusField("[\(meter)]", priority: 3), StatusField(clip, priority: 1), StatusField(pitchText, priority: 0),
            StatusField(hzText, priority: 2)
        ]
        return StatusLine.fit(fields, separator: " ", columns: columns)
    }
}
