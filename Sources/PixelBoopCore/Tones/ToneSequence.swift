import Glibc

/// Tones played one after another at exact frames: tone k starts `k x (duration + gap)` seconds
/// after the first, each frame computed from that absolute time (never by adding up durations),
/// so onsets do not drift however long the sequence is. Tones may also come in phrases with a
/// rest between them (`init(phrases:...)`), so a trial of two melodic intervals is one sequence
/// that the engine's scheduler plays as a whole, without a pause timed by the caller.
///
/// Each tone sounds for exactly `duration`: the 8 ms raised-cosine attack starts on the onset
/// frame and the release ends on the end frame, so with `gap = 0` tones abut without overlapping;
/// a negative gap asks for overlap explicitly.
public struct ToneSequence: Sendable, Equatable {
    public let frequencies: [Double]
    public let duration: Double
    public let gap: Double
    public let sampleRate: Double
    /// Start of each tone, in seconds from the first.
    public let onsets: [Double]
    /// The last phrase's first tone and its start: where a tone after the last would start
    /// (`onsetFrame(count)`, the next tone of the same spacing) is counted from here.
    private let lastPhrase: (first: Int, start: Double)

    /// Attack and release of the engine's TONE timbre (Timbre.cpp): the release follows note-off
    /// and lasts min(held time, this), which is how a tone is fitted inside its duration.
    public static let edgeSeconds: Double = 0.008

    public static let durationRange: ClosedRange<Double> = Limits.toneSeconds
    public static let gapRange: ClosedRange<Double> = -Limits.toneSeconds.upperBound...Limits.toneSeconds.upperBound

    public init(
        frequencies: [Double], duration: Double = 1, gap: Double = 0.25,
        sampleRate: Double = 44100
    ) throws(AudioError) {
        try Self.validate(frequencies: frequencies, duration: duration, gap: gap, sampleRate: sampleRate)
        self.frequencies = frequencies
        self.duration = duration
        self.gap = gap
        self.sampleRate = sampleRate
        onsets = frequencies.indices.map { Double($0) * (duration + gap) }
        lastPhrase = (0, 0)
    }

    /// Phrases with a rest between them: inside a phrase tones start `duration + gap` apart, and
    /// each phrase after the first starts `rest` seconds after the end of the one before.
    public init(
        phrases: [[Double]], duration: Double, gap: Double, rest: Double,
        sampleRate: Double = 44100
    ) throws(AudioError) {
        let frequencies = Array(phrases.joined())
        try Self.validate(frequencies: frequencies, duration: duration, gap: gap, sampleRate: sampleRate)
        guard rest.isFinite, (0...Limits.toneSeconds.upperBound).contains(rest) else {
            throw AudioError.invalidConfiguration("rest \(rest) s: expected 0...\(Limits.text(Limits.toneSeconds.upperBound)) s")
        }
        var onsets: [Double] = []
        onsets.reserveCapacity(frequencies.count)
        var start = 0.0
        var last = (first: 0, start: 0.0)
        for phrase in phrases where !phrase.isEmpty {
            last = (onsets.count, start)
            onsets.append(contentsOf: phrase.indices.map { start + Double($0) * (duration + gap) })
            start = onsets[onsets.count - 1] + duration + rest
        }
        self.frequencies = frequencies
        self.duration = duration
        self.gap = gap
        self.sampleRate = sampleRate
        self.onsets = onsets
        lastPhrase = last
    }

    public static func == (a: ToneSequence, b: ToneSequence) -> Bool {
        a.frequencies == b.frequencies && a.duration == b.duration && a.gap == b.gap && a.sampleRate == b.sampleRate
            && a.onsets == b.onsets
    }

    /// Seconds from the first onset to tone k's; past the last tone, the last phrase goes on.
    private func onsetSeconds(_ k: Int) -> Double {
        k < onsets.count ? onsets[k] : lastPhrase.start + Double(k - lastPhrase.first) * (duration + gap)
    }

    private static func validate(
        frequencies: [Double], duration: Double, gap: Double, sampleRate: Double
    ) throws(AudioError) {
        guard sampleRate.isFinite, EngineConfiguration.sampleRateRange.contains(sampleRate) else {
            throw AudioError.invalidConfiguration("sample rate \(sampleRate) Hz: expected \(Limits.text(Limits.sampleRate))")
        }
        guard duration.isFinite, ToneSequence.durationRange.contains(duration) else {
            throw AudioError.invalidConfiguration("duration \(duration) s: expected \(Limits.text(Limits.toneSeconds)) seconds")
        }
        guard gap.isFinite, ToneSequence.gapRange.contains(gap), duration + gap > 0 else {
            throw AudioError.invalidConfiguration(
                "gap \(gap) s: expected more than -duration (\(-duration) s) and at most \(Limits.text(ToneSequence.gapRange.upperBound)) s"
            )
        }
        for f in frequencies {
            try Pitch.validated(f)
            guard f < sampleRate / 2 else {
                throw AudioError.invalidFrequency(
                    "\(Pitch.formatHz(f)) Hz: expected below half the sample rate (\(Pitch.formatHz(sampleRate / 2)) Hz); raise -r"
                )
            }
        }
    }

    public var count: Int { frequencies.count }

    /// The frame nearest to `seconds` from the start.
    public func frame(atSeconds seconds: Double) -> UInt64 {
        UInt64((seconds * sampleRate + 0.5).rounded(.down))
    }

    /// First frame of tone k.
    public func onsetFrame(_ k: Int) -> UInt64 { frame(atSeconds: onsetSeconds(k)) }

    /// The frame after the last sounding frame of tone k.
    public func endFrame(_ k: Int) -> UInt64 { frame(atSeconds: onsetSeconds(k) + duration) }

    /// The note-off frame of tone k: early enough that the release ends on `endFrame(k)`.
    public func releaseFrame(_ k: Int) -> UInt64 {
        ToneSequence.releaseFrame(onset: onsetFrame(k), end: endFrame(k), sampleRate: sampleRate)
    }

    /// Where to send note-off so a tone from `onset` falls silent at `end` (the engine releases
    /// over min(held, 8 ms), and the release ramp's last step lands on ceil(8 ms x rate)).
    static func releaseFrame(onset: UInt64, end: UInt64, sampleRate: Double) -> UInt64 {
        let release = UInt64((edgeSeconds * sampleRate).rounded(.up))
        let length = end - onset
        return length >= 2 * release ? end - release : onset + length / 2
    }

    /// The frame where everything has ended (the last end frame; 0 for no tones).
    public var endFrame: UInt64 {
        guard count > 0 else { return 0 }
        return (0..<count).map(endFrame).max()!
    }

    /// One engine event.
    public struct Event: Sendable, Equatable, FrameStamped {
        public enum Kind: Sendable, Equatable {
            case on(frequency: Double)
            case off
        }
        public let frame: UInt64
        public let kind: Kind
        /// The tone's index (also its note id in the engine).
        public let tone: Int
    }

    /// Every note-on and note-off in the order the engine must receive them (by frame; the
    /// engine's queue is FIFO, so a later frame must never precede an earlier one). At equal
    /// frames offs go first, so a tone ending where the next begins frees its voice first.
    public var events: [Event] {
        var list: [Event] = []
        list.reserveCapacity(count * 2)
        for k in 0..<count {
            list.append(Event(frame: onsetFrame(k), kind: .on(frequency: frequencies[k]), tone: k))
            list.append(Event(frame: releaseFrame(k), kind: .off, tone: k))
        }
        list.sort { a, b in
            if a.frame != b.frame { return a.frame < b.frame }
            if a.kind == .off, b.kind != .off { return true }
            if a.kind != .off, b.kind == .off { return false }
            return a.tone < b.tone
        }
        return list
    }
}

/// Offline render of a tone sequence: the same engine, timbre, event frames and event scheduler
/// as live playback, driven by a loop instead of the sound card (the horizon is the end of each
/// block). The same sequence always gives the same samples.
public struct ToneRenderer {
    public var sequence: ToneSequence
    /// Velocity gain before the engine's master gain (0.3): 1.0 peaks at 0.3, below the soft
    /// clipper's knee, so the sine is untouched.
    public var gain: Float = 1.0
    /// The engine timbre of every tone: the pure sine unless a trainer asks for an instrument's.
    public var timbre: Timbre = .tone
    public var channels: Int = 1
    public var blockFrames: Int = 4096
    /// Silence after the last tone ends.
    public var tailSeconds: Double = 0.01
    /// The user's gain before the output limiter, in dB (`OutputStage.gainRange`).
    public var gainDB: Double = 0

    public init(sequence: ToneSequence) { self.sequence = sequence }

    /// Frames the render produces.
    public var totalFrames: UInt64 {
        sequence.endFrame + UInt64((tailSeconds * sequence.sampleRate).rounded())
    }

    /// Renders block by block into `sink`; `shouldStop` is polled between blocks (Ctrl-C) and
    /// makes the render throw `CancellationError`. Returns the frames rendered.
    @discardableResult
    public func render(
        shouldStop: () -> Bool = { false },
        sink: (UnsafeBufferPointer<Float>) throws -> Void
    ) throws -> UInt64 {
        let engine = try AudioEngine(
            configuration: EngineConfiguration(
                sampleRate: sequence.sampleRate, voices: 8, maxBlockFrames: blockFrames,
                queueCapacity: 4096, channels: channels))
        let output = try OutputStage(sampleRate: sequence.sampleRate, channels: channels, gainDB: gainDB)
        var pending = EventScheduler<ToneSequence.Event>()
        pending.append(contentsOf: sequence.events)
        let total = totalFrames
        var buffer = [Float](repeating: 0, count: blockFrames * channels)
        var frame: UInt64 = 0
        while frame < total {
            if shouldStop() { throw CancellationError() }
            let frames = Int(min(UInt64(blockFrames), total - frame))
            let blockEnd = frame + UInt64(frames)
            // Only what falls inside this block: the queue stays short whatever the sequence length.
            try pending.flush(before: blockEnd) { event throws(AudioError) in
                try SineWaveNotePlayer.send(event, to: engine, gain: gain, timbre: timbre)
            }
            if let next = pending.nextFrame, next < blockEnd {
                throw AudioError.queueFull("more events in one block than the queue holds")
            }
            try engine.render(into: &buffer, frames: frames)
            try buffer.withUnsafeMutableBufferPointer {
                try output.processInPlace(UnsafeMutableBufferPointer(rebasing: $0[0..<(frames * channels)]), into: sink)
            }
            frame = blockEnd
        }
        try output.finish(into: sink)
        return frame
    }

    /// All samples (interleaved).
    public func renderSamples() throws -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(Int(totalFrames) * channels)
        try render { out.append(contentsOf: $0) }
        return out
    }

    /// Renders to a file (temporary name, renamed when complete; nothing left on failure).
    @discardableResult
    public func render(
        to path: String, format: SampleFormat = .f32,
        shouldStop: () -> Bool = { false }
    ) throws -> UInt64 {
        let writer = try AudioFileWriter(
            path: path, sampleRate: sequence.sampleRate, channels: channels, format: format, expectedFrames: totalFrames)
        do {
            let frames = try render(shouldStop: shouldStop) { try writer.write($0) }
            try writer.commit()
            return frames
        } catch {
            writer.abort()
            throw error
        }
    }
}
