import Glibc
import PixelBoopCore

/// The live half of `train match`: the capture device (-C) heard note by note, with a needle.
final class LiveMatchInput {
    let stream: AudioStream
    let rate: Double
    private let buffer = CaptureBuffer()
    /// A 10 ms block quieter than this (dBFS RMS) is silence whatever came before.
    static let silenceFloor = pow(10, -50.0 / 20)

    /// The session's loop: every wait for samples sleeps in it, woken by the capture, a key or a
    /// stop signal (so q and Ctrl-C end it at once, even on a device that delivers nothing).
    let loop: CommandLoop

    init(device: String, loop: CommandLoop) throws {
        stream = AudioStream(
            config: StreamConfig(sampleRate: StreamConfig.defaultSampleRate, bufferFrames: 320, channels: 1, device: device))
        try stream.start()
        rate = stream.sampleRate
        self.loop = loop
        buffer.gather(from: stream)
        guard buffer.waitUntilGathering(seconds: 10) else {
            stream.stop()
            throw BoopExit(.ioError, "cannot start a thread for the capture; is memory or the thread count limited?")
        }
        loop.watch(buffer.readiness) { .stop }   // read by `take()` once the wait ends
    }

    func close() { stream.stop() }

    /// The room's level (RMS of its quietest 10 ms seen while waiting): a microphone never reads
    /// digital silence, so "silence" is judged against this too.
    private var noiseFloor = 0.0
    /// A stop signal or q.
    var stopped: Bool { loop.stopped }

    /// Waits (up to `limit` seconds) until the input has been quiet for `quiet` seconds (within
    /// 6 dB of the quietest block heard): what was played as the reference has passed the capture
    /// path before listening starts.
    func waitForQuiet(_ quiet: Double = 0.2, limit: Double = 3) throws {
        let deadline = Timestamp().addingTimeInterval(limit)
        var silentFrames = 0
        var lowest = Double.infinity
        while Timestamp() < deadline && !stopped {
            let got = try next(until: deadline)
            for block in Self.blocks(got, size: Int(rate / 100)) where block.count == Int(rate / 100) {
                let level = Self.rms(block)
                lowest = min(lowest, level)
                silentFrames = level < max(Self.silenceFloor, 2 * lowest) ? silentFrames + block.count : 0
            }
            if Double(silentFrames) >= quiet * rate { break }
        }
        if lowest.isFinite { noiseFloor = lowest }
    }

    /// Drops what was captured (while paused: the pause is no attempt).
    func discardCaptured() throws { _ = try next(until: Timestamp().addingTimeInterval(0.1)) }

    /// With a drone under the singing: its level at the capture, the median 10 ms block of the
    /// last half of `seconds` (the first half lets it arrive through the sound server), becomes
    /// the floor a sound must rise above, so the drone alone is never taken for the note.
    func measureDrone(seconds: Double = 0.4) throws {
        let deadline = Timestamp().addingTimeInterval(seconds)
        var got: [Float] = []
        while Timestamp() < deadline && !stopped { got += try next(until: deadline) }
        let levels = Self.blocks(Array(got.suffix(got.count / 2)), size: Int(rate / 100)).map { Self.rms($0) }.sorted()
        if !levels.isEmpty { noiseFloor = max(noiseFloor, levels[levels.count / 2]) }
    }

    /// What ended a wait for a note: the note, nothing by the time limit, or a steering key.
    enum Heard {
        case note(SungPitch)
        case nothing
        case key(UInt8)
    }

    /// Listens (up to `limit` seconds) for a steady note (`NoteListener`: a cough or a blip before
    /// it is set aside and listening goes on). `sound` gets each block's pitch while a sound is
    /// held; `key` is asked after each wait (a key ends the wait) for a steering key.
    func listen(limit: Double, key: () -> UInt8?, sound: (Double?) -> Void, discarded: () -> Void) throws -> Heard {
        let listener = try NoteListener(rate: rate, noiseFloor: noiseFloor)
        let deadline = Timestamp().addingTimeInterval(limit)
        while Timestamp() < deadline && !stopped {
            if let k = key() { return .key(k) }
            // In pieces of 0.1 s, asking after each: a device that delivers faster than real time
            // (the null PCM) must not hold q up behind its backlog.
            let got = try next(until: deadline)
            for piece in Self.blocks(got, size: Int(rate / 10)) {
                if stopped { break }
                for event in listener.feed(Array(piece)) {
                    switch event {
                    case .quiet: break
                    case .sound(let hz): sound(hz)
                    case .discarded: discarded()
                    case .note(let p): return .note(p)
                    }
                }
            }
        }
        return listener.finish().map { .note($0) } ?? .nothing
    }

    /// What was captured by `deadline`: waits in the loop until samples, a key or a stop signal
    /// come, or the deadline passes.
    private func next(until deadline: Timestamp) throws -> [Float] {
        var got = buffer.take()
        if got.samples.isEmpty && got.failure == nil && !got.stopped {
            _ = try loop.wait(seconds: deadline.timeIntervalSince(Timestamp()))
            got = buffer.take()
        }
        if let failure = got.failure { throw BoopExit(.ioError, "capture: \(failure)") }
        if got.samples.isEmpty && got.stopped { throw BoopExit(.ioError, "capture: the device stopped") }
        return got.samples
    }

    static func blocks(_ s: [Float], size: Int) -> [ArraySlice<Float>] {
        stride(from: 0, to: s.count, by: max(1, size)).map { s[$0..<min(s.count, $0 + size)] }
    }

    static func rms<C: Collection>(_ s: C) -> Double where C.Element == Float {
        guard !s.isEmpty else { return 0 }
        return (s.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(s.count)).squareRoot()
    }
}

/// A matching session in the history. Live, the session begins with its first attempt (so a
/// capture device that fails, or a q before any note, leaves no empty session behind) and every
/// attempt is stored as it is scored (its own transaction: a crash loses at most the note being
/// sung); from a recording, which can be scored again at will, the whole session is stored at the
/// end in one transaction, so a failure leaves all of it or none.
final class MatchRecorder {
    private let store: TrainingStore
    private let settings: String
    private let started = Timestamp()
    private let live: Bool
    /// Live: the session, once its first attempt is stored. From a recording: always nil, the
    /// attempts wait in `pending`.
    private var session: Int64?
    private var pending: [MatchAttempt] = []

    init(store: TrainingStore, settings: String, live: Bool) {
        self.store = store
        self.settings = settings
        self.live = live
    }

    func store(_ attempt: MatchAttempt) throws {
        guard live else {
            pending.append(attempt)
            return
        }
        var attempt = attempt
        do throws(TrainingStoreError) {
            if session == nil { session = try store.beginSession(settings: settings, exercise: .match, at: started) }
            let id = session ?? 0
            attempt.session = id
            try store.add(attempt)
        } catch {
            throw BoopExit(error)
        }
    }

    /// `complete`: false when the session was interrupted; a recording's then is not stored (it
    /// can be scored again whole), a live one keeps what was sung.
    func end(complete: Bool) throws {
        if live {
            if let session { try? store.endSession(session, estimate: nil) }
            return
        }
        guard complete else { return }
        do {
            try store.addMatchSession(settings: settings, attempts: pending, started: started)
        } catch {
            throw BoopExit(error)
        }
    }
}
