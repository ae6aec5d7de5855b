import CAudioEngine
import Glibc

/// How `VoiceMidiOut` listens and what it sends.
public struct VoiceMidiConfig: Sendable {
    public var clientName = "boop-listen"
    public var channels = 1
    public var connect = true
    /// JACK MIDI input ports to connect midi_out to ("client:port").
    public var destinations: [String] = []
    /// MIDI channel 1 ... 16 (without MPE).
    public var channel = 1
    /// MPE: the lower zone (manager channel 1, members 2-16), each note on the next member
    /// channel with its own bend; announced first by the MPE Configuration Message.
    public var mpe = false
    public var bendRange = 2.0
    /// The lowest pitch heard (Hz): it sets the analysis window (two of its periods), so the
    /// onset's delay (a low voice needs longer to tell its pitch). C3 by default.
    public var minFrequency = 130.0
    public var maxFrequency = 1400.0
    /// Seconds of voice before the note-on (0: as soon as two estimates agree). A singer scoops up
    /// into a note over 30 ... 60 ms: a key taken at once is often a semitone under the note, the
    /// bend carrying the sound up to it; waiting past the scoop takes the key of the note as held,
    /// at the cost of that much later a note-on.
    public var settle = 0.0
    public init() {}
}

/// The voice as a MIDI controller on JACK (`boop listen --midi-out --backend jack`): a capture
/// client with input ports in_1... and a MIDI output midi_out.
///
/// A reader thread (the caller's, in `run`) takes the captured frames as they arrive, runs YIN
/// over the last `windowFrames` every `hopFrames`, and gives each estimate to a `VoiceSegmenter`.
/// Each event decided at capture frame F is queued for frame F + `outputDelayFrames`; the capture
/// client's process callback writes it in the cycle that brings in that frame, at its offset (the
/// events are as far apart as the decisions were: no scheduling jitter). The delay covers the
/// cycle the frames come in and the reader's wake-up; an event still later goes out at the next
/// cycle's start and is counted (`late`).
///
/// `@unchecked Sendable`: `stopRequested` is read and written under `lock` only; the rest is
/// used by the thread in `run` alone (and `stop` touches nothing else).
public final class VoiceMidiOut: @unchecked Sendable {
    public let config: VoiceMidiConfig
    public let sampleRate: Double
    public let periodFrames: Int
    public let windowFrames: Int
    public let hopFrames: Int
    /// The fixed delay from a decision's frame to its event's frame.
    public let outputDelayFrames: Int
    private let handle: OpaquePointer
    private let lock = Lock()
    private var stopRequested = false
    /// The channel (0-based) of the note sounding, and of the last one (the reader's thread only).
    private var noteChannel: UInt8?
    private var lastMember: UInt8 = 15

    /// Opens the client, its ports and connections. Throws `AudioError` (no server: deviceUnavailable).
    public init(config: VoiceMidiConfig) throws(AudioError) {
        self.config = config
        handle = try Self.open(config)
        let info = boop_capture_get_info(handle)
        sampleRate = info.sample_rate
        periodFrames = Int(info.period_frames)
        windowFrames = 2 * (Int((sampleRate / config.minFrequency).rounded(.up)) + 1)
        hopFrames = max(1, Int((sampleRate / 750).rounded()))
        // Whole periods, so a decision about any frame of a cycle leaves the reader the same time to
        // wake, analyse and queue: at least 2 of them (the one that brought the frames in and one
        // more) and at least 2 ms.
        let period = max(1, periodFrames)
        outputDelayFrames = period * max(2, Int((0.002 * sampleRate / Double(period)).rounded(.up)))
        for destination in config.destinations {
            let status = destination.withCString { boop_capture_midi_connect(handle, $0) }
            // Every property is set by now: deinit destroys the handle when this throws.
            guard status == BOOP_OK else {
                throw status == BOOP_ERROR_INVALID_ARGUMENT
                    ? AudioError.invalidConfiguration("--midi-connect \(destination): no such JACK MIDI input port")
                    : AudioError.from(status, "connecting \(config.clientName):midi_out to \(destination)")
            }
        }
    }

    deinit { boop_capture_destroy(handle) }

    private static func open(_ config: VoiceMidiConfig) throws(AudioError) -> OpaquePointer {
        var c = boop_capture_config()
        boop_capture_config_default(&c)
        c.backend = BOOP_BACKEND_JACK
        c.channels = UInt32(config.channels)
        c.connect = config.connect ? 1 : 0
        var out: OpaquePointer?
        var why = [CChar](repeating: 0, count: 256)
        let status = config.clientName.withCString { name -> boop_status in
            c.client_name = name
            return boop_capture_open_why(&c, &out, &why, why.count)
        }
        guard status == BOOP_OK, let handle = out else {
            if status == BOOP_ERROR_DEVICE_UNAVAILABLE {
                let reason = String(cBuffer: why)
                throw AudioError.deviceUnavailable(
                    reason.isEmpty
                        ? "no JACK server is running (or it refused the client \(config.clientName))"
                        : "JACK client \(config.clientName): \(reason)")
            }
            throw AudioError.from(status, "opening the JACK client \(config.clientName)")
        }
        var s = boop_capture_midi_open(handle)
        if s == BOOP_OK { s = boop_capture_start(handle) }
        guard s == BOOP_OK else {
            boop_capture_destroy(handle)
            throw AudioError.from(s, "starting the JACK client \(config.clientName) with midi_out")
        }
        return handle
    }

    /// The decision delay's parts in seconds: the analysis window (the voice must fill most of it),
    /// the hop, the segmenter's confirmation and the fixed output delay.
    public var delays: (window: Double, hop: Double, confirm: Double, output: Double) {
        let hop = Double(hopFrames) / sampleRate
        return (Double(windowFrames) / sampleRate, hop, max(hop, config.settle), Double(outputDelayFrames) / sampleRate)
    }

    /// Messages written on midi_out, and those written later than their frame.
    public var sent: (written: UInt64, late: UInt64) {
        (boop_capture_midi_written(handle), boop_capture_midi_late(handle))
    }

    public var xruns: UInt64 { boop_capture_get_stats(handle).overruns }

    /// Ends `run` at its next hop (any thread, a signal handler's thread included).
    public func stop() {
        lock.lock()
        stopRequested = true
        lock.unlock()
    }

    private var stopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopRequested
    }

    /// Listens until `stop`, the server's end, `limitFrames` captured or `shouldStop` (asked after
    /// each wait for the capture: the caller's loop looks at its keys without waiting); `report`
    /// sees every note-on and note-off with its output frame. Sends RPN 0 (the bend range) first
    /// and, at the end, a note-off for any note still sounding. Throws when the server goes away.
    public func run(
        limitFrames: Int? = nil, shouldStop: () -> Bool = { false }, report: (VoiceNoteEvent) -> Void
    ) throws(AudioError) {
        let detector = try PitchDetector(
            sampleRate: sampleRate, windowFrames: windowFrames, minFrequency: config.minFrequency,
            maxFrequency: config.maxFrequency)
        detector.setSilenceThreshold(dbfs: -50)
        var segmenter = VoiceSegmenter(hopSeconds: Double(hopFrames) / sampleRate, bendRange: config.bendRange)
        segmenter.settleFrames = Int((config.settle * sampleRate / Double(hopFrames)).rounded())
        // The recent signal, trimmed in bulk (a window's worth kept) rather than shifted per frame.
        var recent = [Float](repeating: 0, count: windowFrames)
        recent.reserveCapacity(windowFrames * 4 + 4096)
        var chunk = [Float](repeating: 0, count: 4096)
        var filled = 0   // frames since the last hop
        var end = 0   // capture frames analysed so far
        var announced = false
        while !stopping && !shouldStop() {
            let got = try readChunk(&chunk, first: &end)
            if got > 0 && !announced {
                sendBendRange(at: end + got + outputDelayFrames)
                announced = true
            }
            for i in 0..<got {
                recent.append(chunk[i])
                end += 1
                filled += 1
                guard filled >= hopFrames else { continue }
                filled = 0
                if recent.count > windowFrames * 4 { recent.removeFirst(recent.count - windowFrames) }
                let window = Array(recent.suffix(windowFrames))
                // Before a note, looser than YIN's 0.12: a window the voice only partly fills yet (an
                // onset) counts, and the segmenter's confirmation keeps a stray estimate from starting
                // a note. Within one, 0.12: a strong second harmonic (a vowel's first formant on it)
                // does not read an octave high.
                detector.setThreshold(segmenter.key == nil ? 0.2 : 0.12)
                let pitch = detector.detect(window)
                let level = SignalLevel.dbfs(SignalLevel.measure(Array(window.suffix(hopFrames * 4))).rms)
                let midi = pitch.map { 69 + 12 * log2($0.frequency / 440) }
                for event in segmenter.push(frame: end, midi: midi, level: level) { send(event, report) }
            }
            if let limitFrames, end >= limitFrames { break }
        }
        for event in segmenter.finish(frame: end) { send(event, report) }
        finish()
    }

    /// The frames captured since the last call (0 after a quiet wait); `first` becomes the capture
    /// frame of the first. Throws once the server has gone.
    private func readChunk(_ chunk: inout [Float], first: inout Int) throws(AudioError) -> Int {
        _ = boop_capture_wait(handle, UInt32(hopFrames), 100)
        var got: UInt32 = 0
        var at: UInt64 = 0
        boop_capture_read(handle, &chunk, UInt32(chunk.count), &got, &at)
        if got > 0 {
            first = Int(at)
            return Int(got)
        }
        if boop_capture_get_stats(handle).running == 0 {
            throw AudioError.deviceLost("the JACK server shut down or dropped \(config.clientName)")
        }
        return 0
    }

    private func send(_ event: VoiceNoteEvent, _ report: (VoiceNoteEvent) -> Void) {
        let at = VoiceNoteEvent(frame: event.frame + outputDelayFrames, kind: event.kind)
        let ch = channel(for: event.kind)
        switch event.kind {
        case .on(let key, let velocity): push(at.frame, [0x90 | ch, UInt8(key), UInt8(velocity)])
        case .off(let key): push(at.frame, [0x80 | ch, UInt8(key), 64])
        case .bend(let value): push(at.frame, [0xE0 | ch, UInt8(value & 0x7F), UInt8(value >> 7)])
        }
        if case .bend = event.kind { return }
        report(at)
    }

    /// The event's channel (0-based). With MPE a note's first message (its bend, or its note-on)
    /// takes the next member channel, 2 ... 16 in turn, so a note's release never hears the next
    /// note's bend; the rest of the note stays there.
    private func channel(for kind: VoiceNoteKind) -> UInt8 {
        guard config.mpe else { return UInt8(config.channel - 1) }
        if let ch = noteChannel {
            if case .off = kind { noteChannel = nil }
            return ch
        }
        lastMember = lastMember >= 15 ? 1 : lastMember + 1
        if case .off = kind { return lastMember }
        noteChannel = lastMember
        return lastMember
    }

    /// RPN 0 on the channel: the bend range in semitones and cents, then the null RPN. With MPE,
    /// first the MPE Configuration Message (RPN 6 on channel 1: 15 members), then RPN 0 on every
    /// member channel (their default is 48 semitones).
    private func sendBendRange(at frame: Int) {
        let semitones = UInt8(Limits.clamp(Int(config.bendRange), to: Limits.midiData))
        let cents = UInt8(min(99, max(0, Int(((config.bendRange - Double(semitones)) * 100).rounded()))))
        let rpn = { (ch: UInt8, number: UInt8, msb: UInt8, lsb: UInt8?) in
            var messages: [(UInt8, UInt8)] = [(101, 0), (100, number), (6, msb)]
            if let lsb { messages.append((38, lsb)) }
            for (cc, value) in messages + [(101, 127), (100, 127)] { self.push(frame, [0xB0 | ch, cc, value]) }
        }
        guard config.mpe else { return rpn(UInt8(config.channel - 1), 0, semitones, cents) }
        rpn(0, 6, 15, nil)
        for member in UInt8(1)...15 { rpn(member, 0, semitones, cents) }
    }

    private func push(_ frame: Int, _ bytes: [UInt8]) {
        // A full queue (16384 messages unsent) cannot happen at one decision per hop; if it did, the
        // message is dropped rather than the reader blocked.
        _ = bytes.withUnsafeBufferPointer { boop_capture_midi_send(handle, UInt64(frame), $0.baseAddress, UInt32($0.count)) }
    }

    /// Every note still on ends, and the cycle that sends it has run (up to 0.5 s). The JACK
    /// process callback that sends them wakes no one (no system call there): read every 5 ms.
    private func finish() {
        guard boop_capture_midi_panic(handle) == BOOP_OK else { return }
        for _ in 0..<100 where boop_capture_midi_panic_done(handle) == 0 { usleep(5000) }
    }
}
