import Glibc

// SineWaveNotePlayer's scheduling thread and the blocking play of a sequence.
extension SineWaveNotePlayer {
    /// Starts the scheduling thread on first use and wakes it for new events. It holds the player
    /// only while it works, and ends when the player is closed or gone.
    func startScheduling() {
        sync.start(name: "boop tone scheduler") { [weak self] in self?.scheduleDue() }
        sync.wake()
    }

    /// The scheduling thread's step (lock held): queues the pending events within the horizon and
    /// returns the seconds until the next one comes within it; nil once closed.
    private func scheduleDue() -> Double? {
        if closed { return nil }
        do { try flushPending() } catch { pending.removeAll() }
        return pending.secondsUntilDue(clock: engine.frameClock, sampleRate: sampleRate)
            ?? SchedulingThread.maxSleepSeconds
    }

    /// Lock held: hands the engine every pending event earlier than clock + lookahead.
    func flushPending() throws(AudioError) {
        try pending.flush(before: pending.horizon(clock: engine.frameClock)) { e throws(AudioError) in
            if let f = e.frequency {
                try engine.noteOn(id: e.id, frequency: f, gain: gain, at: e.frame, timbre: timbre)
            } else {
                try engine.releaseNote(NoteID(rawValue: e.id), at: e.frame)
            }
        }
    }

    /// Live: plays a whole sequence at its exact frames, blocking the calling thread until every
    /// tone has been heard (true) or it was stopped (false). The scheduling thread queues each
    /// event a short horizon ahead of the engine clock; this thread only waits until the next
    /// tone is announced (`onTone(k)`, around the time tone k is queued) or the end, in the
    /// caller's loop: `waiting(seconds)` sleeps at most that long (less when a key or a signal
    /// comes) and answers true when the sound is to stop, which then fades out (stop()). Without
    /// one, the wait is on the player's own wake-up (`stop()` from another thread).
    public func play(
        _ sequence: ToneSequence, waiting: ((Double) throws -> Bool)? = nil, onTone: ((Int) -> Void)? = nil
    ) throws -> Bool {
        guard sequence.sampleRate == sampleRate else {
            throw AudioError.invalidConfiguration(
                "sequence at \(sequence.sampleRate) Hz on a player at \(sampleRate) Hz: expected the same rate")
        }
        let wait =
            waiting ?? { [live] seconds in
                live.sleep(seconds: seconds, waking: [])
                return false
            }
        if try wait(0) { return false }
        let (base, end, myGeneration) = try enqueue(sequence)
        startScheduling()
        var announced = 0
        while true {
            if let error = live.failure { throw error }
            if locked({ generation != myGeneration }) { return false }
            let now = engine.frameClock
            while announced < sequence.count && base + sequence.onsetFrame(announced) < now + lookaheadFrames {
                onTone?(announced)
                announced += 1
            }
            if now >= end { break }
            let onset = announced < sequence.count ? base + sequence.onsetFrame(announced) : end
            let next = announced < sequence.count ? onset - min(onset, lookaheadFrames) : end
            // A lost device is noticed within the scheduling thread's longest sleep.
            let seconds = EventScheduler<PendingEvent>.seconds(from: now, until: next, sampleRate: sampleRate)
            if try wait(min(max(seconds, 0.001), SchedulingThread.maxSleepSeconds)) {
                try stopNow()
                live.waitUntilAudible(
                    engine.frameClock + lookaheadFrames
                        + UInt64((Self.stopFadeSeconds * sampleRate).rounded(.up)), sampleRate: sampleRate)
                return false
            }
        }
        live.waitUntilAudible(end, sampleRate: sampleRate)
        return true
    }

    /// Puts a sequence's events after whatever is playing; returns its base frame, its end and
    /// the generation a stop() bumps.
    private func enqueue(_ sequence: ToneSequence) throws -> (UInt64, UInt64, Int) {
        try locked { () throws -> (UInt64, UInt64, Int) in
            if closed { throw AudioError.deviceLost("the player was closed") }
            // The first onset is the next block the engine renders: within one period of now.
            let base = max(engine.frameClock, lastEnd)
            let idBase = UInt32(0x4000_0000)
            pending.append(
                contentsOf: sequence.events.map { e in
                    let id = idBase &+ UInt32(truncatingIfNeeded: e.tone)
                    switch e.kind {
                    case .on(let f): return PendingEvent(frame: base + e.frame, id: id, frequency: f)
                    case .off: return PendingEvent(frame: base + e.frame, id: id, frequency: nil)
                    }
                })
            lastEnd = base + sequence.endFrame
            try flushPending()
            return (base, lastEnd, generation)
        }
    }
}

/// The live half: the ALSA playback pulling from the player's engine, and the wake-up that ends
/// a blocking play's sleep when the player is stopped or closed.
///
/// Sendable: the playback (one owner's object, not Sendable itself) is reached only through its
/// lock box, and `wakePipe` is Sendable.
final class LiveState: Sendable {
    private let playback: LockedBox<AudioPlayback>
    private let wakePipe: WakePipe

    init(playback: sending AudioPlayback) throws(AudioError) {
        guard let wakePipe = WakePipe() else {
            playback.stop(drain: false)
            throw AudioError.invalidConfiguration("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        self.wakePipe = wakePipe
        self.playback = LockedBox(playback)
    }

    var info: PlaybackInfo { playback.withLock { $0.info } }
    var stats: PlaybackStats { playback.withLock { $0.stats } }
    var audibleFrame: UInt64 { playback.withLock { $0.audibleFrame } }

    /// Why playback stopped by itself (device lost ...), nil while it runs.
    var failure: AudioError? {
        playback.withLock { playback in
            let stats = playback.stats
            if stats.running { return nil }
            return stats.error ?? .deviceLost("\(playback.route) stopped")
        }
    }

    var description: String {
        playback.withLock { $0.info.describe(device: $0.device) }
    }

    /// Ends the current (or next) `sleep` at once.
    func wake() { wakePipe.wake() }

    /// Sleeps `seconds` (a deadline derived from the engine's clock), or until `wake()` or one of
    /// `descriptors` is readable.
    func sleep(seconds: Double, waking descriptors: [Int32]) {
        var fds = ([wakePipe.descriptor] + descriptors.filter { $0 >= 0 }).map {
            pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
        }
        let milliseconds = min(max(seconds, 0.001), SchedulingThread.maxSleepSeconds) * 1000
        _ = poll(&fds, nfds_t(fds.count), Int32(milliseconds.rounded(.up)))
        if fds[0].revents & Int16(POLLIN) != 0 { wakePipe.drain() }   // consumed: the next sleep waits again
    }

    /// Blocks until the listener hears `frame` (frames written minus the device delay), bounded
    /// by the time that should take plus half a second, and by the device stopping. Each nap is
    /// the time still missing by the audible clock, so it wakes when the frame is due.
    /// The device forces this re-reading: the audible frame is the device's delay read anew,
    /// which nothing signals (and the audio thread wakes no one).
    func waitUntilAudible(_ frame: UInt64, sampleRate: Double) {
        let start = audibleFrame
        let limit = Timestamp().addingTimeInterval(Double(frame > start ? frame - start : 0) / sampleRate + 0.5)
        while playback.withLock({ $0.isRunning }) && Timestamp() < limit {
            let heard = audibleFrame
            if heard >= frame { return }
            Threads.sleep(seconds: max(Double(frame - heard) / sampleRate, 0.001))
        }
    }

    func shutdown(drain: Bool) { playback.withLock { $0.stop(drain: drain) } }
}
