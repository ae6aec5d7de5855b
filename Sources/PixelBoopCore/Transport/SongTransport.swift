import Foundation

/// Live playback of a song: `PatternTransport`'s scheduling (frame-stamped events queued a
/// lookahead ahead of the engine's clock by a `SchedulingThread` of its own, so a late wake-up
/// never moves a note) driven by a `SongSequencer`: the chain, its tempo changes, the groove and
/// the instruments, note for note what `render` writes with the same seed.
///
/// Thread safety: `@unchecked Sendable` because every stored `var` is touched only inside
/// `sync.locked` (the command's thread and the scheduling thread share it); the audio runs on the
/// engine's I/O thread, which takes no lock.
public final class SongTransport: @unchecked Sendable {
    public var state: PatternTransport.State { sync.locked { _state } }
    private var _state = PatternTransport.State.ready
    private var sequencer: SongSequencer
    private let sync = SchedulingThread()
    private let engine: AudioEngine
    private let playback: AudioPlayback
    private var pending: EventScheduler<SongEvent>
    private var nextStep = 0
    private var pausedAtStep = 0
    private var schedulingError: AudioError?
    public let song: Song
    public let totalSteps: Int?
    public let sampleRate: Double

    /// Opens the route (its rate wins) and prepares the engine with the song's instruments.
    /// `loops` nil plays the song until stopped.
    public init(
        song: Song, route: AudioRoute, sampleRate: Double = 44100, voices: Int = 8, periodFrames: Int = 1536,
        periods: Int = 3, adaptive: Bool = false, gainDB: Double = 0, loops: Int? = nil, seed: UInt64? = nil
    ) throws(AudioError) {
        playback = try AudioPlayback(
            route: route, sampleRate: sampleRate, channels: 2, periodFrames: periodFrames, periods: periods,
            adaptive: adaptive)
        playback.gainDB = gainDB
        let info = playback.info
        engine = try AudioEngine(
            configuration: EngineConfiguration(
                sampleRate: info.sampleRate, voices: voices, maxBlockFrames: 4096, queueCapacity: 1 << 15, channels: 2))
        try engine.prepare(song: song, at: 0)
        self.song = song
        self.sampleRate = info.sampleRate
        sequencer = SongSequencer(song: song, sampleRate: info.sampleRate, loops: loops, seed: seed)
        totalSteps = sequencer.totalSteps
        pending = EventScheduler(lookahead: UInt64(0.04 * info.sampleRate) + UInt64(info.bufferFrames))
    }

    deinit { sync.end() }

    public var info: PlaybackInfo { sync.locked { playback.info } }
    public var device: String { playback.device }
    public var droppedEvents: UInt64 { engine.droppedEvents }

    /// The global step heard now, its segment and the step inside the segment's pattern.
    public var heard: (segment: SongSegment, localStep: Int)? {
        sync.locked {
            let k = sequencer.step(atFrame: playback.audibleFrame)
            var timeline = sequencer.timeline
            guard let si = timeline.segmentIndex(ofStep: k) else { return nil }
            let seg = timeline.segments[si]
            return (seg, (k - seg.firstStep) % song.patterns[seg.pattern].length)
        }
    }

    public func start() throws(AudioError) {
        try sync.locked { () throws(AudioError) -> Void in
            guard _state == .ready else { return }
            sequencer.restart(step: 0, atFrame: engine.frameClock + UInt64(0.02 * sampleRate))
            try schedule()
            try playback.start(engine: engine)
            _state = .playing
        }
        sync.start(name: "boop song scheduler") { [weak self] in self?.scheduleDue() }
        sync.wake()
    }

    private func scheduleDue() -> Double? {
        if _state == .stopped { return nil }
        guard playback.stats.error == nil, schedulingError == nil else { return SchedulingThread.maxSleepSeconds }
        do {
            if _state == .playing { try schedule() }
        } catch {
            schedulingError = error
        }
        var wait = SchedulingThread.maxSleepSeconds
        let clock = engine.frameClock
        if _state == .playing {
            if totalSteps.map({ nextStep < $0 }) ?? true {
                let due = sequencer.frame(ofStep: nextStep)
                let from = due > pending.lookahead ? due - pending.lookahead : 0
                wait = min(wait, EventScheduler<SongEvent>.seconds(from: clock, until: from, sampleRate: sampleRate))
            }
            if let next = pending.secondsUntilDue(clock: clock, sampleRate: sampleRate) { wait = min(wait, next) }
        }
        return wait
    }

    /// Lock held: queues every event of the steps that start before the horizon.
    private func schedule() throws(AudioError) {
        let horizon = pending.horizon(clock: engine.frameClock)
        var events: [SongEvent] = []
        while totalSteps.map({ nextStep < $0 }) ?? true, sequencer.frame(ofStep: nextStep) < horizon {
            events.append(contentsOf: sequencer.events(forSteps: nextStep..<(nextStep + 1)))
            nextStep += 1
        }
        if !events.isEmpty { pending.add(events, order: SongEvent.playOrder) }
        try pending.flush(before: horizon) { event throws(AudioError) in try engine.schedule(event) }
    }

    /// Notices the end of the requested loops, a lost device and what could not be queued.
    public func tick() throws(AudioError) {
        try sync.locked { () throws(AudioError) -> Void in
            if let error = playback.stats.error { throw error }
            if let schedulingError { throw schedulingError }
            guard _state == .playing, let totalSteps else { return }
            if playback.audibleFrame >= sequencer.frame(ofStep: totalSteps) { _state = .finished }
        }
    }

    /// Seconds until `tick` may have news (capped by `atMost`).
    public func secondsUntilDue(atMost: Double = 1.0 / 60) -> Double {
        sync.locked {
            guard _state == .playing, let totalSteps else { return atMost }
            let end = sequencer.frame(ofStep: totalSteps)
            let heard = playback.audibleFrame
            return min(max(end > heard ? Double(end - heard) / sampleRate : 0, 0.002), atMost)
        }
    }

    /// Pauses (queued events dropped, the sound fades in 10 ms) or resumes on the next step.
    public func setPaused(_ paused: Bool) throws(AudioError) {
        try sync.locked { () throws(AudioError) -> Void in
            switch (_state, paused) {
            case (.playing, true):
                _state = .paused
                pausedAtStep = min(sequencer.step(atFrame: playback.audibleFrame) + 1, nextStep)
                pending.removeAll()
                try engine.cancelPending(fade: 0.01)
            case (.paused, false):
                _state = .playing
                nextStep = pausedAtStep
                sequencer.restart(step: nextStep, atFrame: engine.frameClock + UInt64(0.01 * sampleRate))
            default: break
            }
        }
        sync.wake()
    }

    /// Lets releases ring up to `tail` seconds, fades out, waits for the fade to be heard, closes.
    @discardableResult
    public func stop(tail: Double = 0) throws(AudioError) -> PlaybackStats {
        if sync.locked({ _state == .stopped }) { return playback.stats }
        let deadline = Date().addingTimeInterval(tail)
        while tail > 0 && Date() < deadline && engine.activeVoices > 0 && playback.stats.error == nil {
            Thread.sleep(forTimeInterval: max(Double(playback.info.bufferFrames) / sampleRate, 0.005))
        }
        let fadeEnd = sync.locked { () -> UInt64 in
            pending.removeAll()
            _state = .stopped
            try? engine.cancelPending(fade: 0.015)
            // The engine takes the 15 ms fade at the start of its next block (one period on, if a
            // block is being rendered now): heard once 20 ms past that have reached the listener.
            return engine.frameClock + UInt64(playback.info.periodFrames) + UInt64(0.02 * sampleRate)
        }
        sync.end()
        playback.waitUntilHeard(frame: fadeEnd, sampleRate: sampleRate)
        let stats = playback.stats
        playback.stop(drain: false)
        if let error = stats.error { throw error }
        return stats
    }
}
