import Foundation

/// Offline rendering of a pattern: the same sequencer, event scheduler and engine as live
/// playback, driven by a loop instead of the sound card (the horizon is the end of each block),
/// so a file sounds exactly like `boop play`.
public struct PatternRenderer {
    public var pattern: Pattern
    public var sampleRate: Double = 44100
    public var voices: Int = 8
    public var loops: Int = 1
    public var channels: Int = 1
    /// The engine's largest block: each one is one write to the file, and fewer, larger writes
    /// cost less (the engine works in small slices inside it; the block size changes nothing audible).
    public var blockFrames: Int = 8192
    /// The longest tail rendered after the last step while voices still ring (the kick's decay).
    public var maxTailSeconds: Double = 4
    /// The user's gain before the output limiter, in dB (`OutputStage.gainRange`).
    public var gainDB: Double = 0

    public init(pattern: Pattern) { self.pattern = pattern }

    /// The most frames a render can produce: the music and the longest release tail.
    public var maxFrames: UInt64 {
        Sequencer(pattern: pattern, sampleRate: sampleRate).frame(ofStep: pattern.length * loops)
            + UInt64(maxTailSeconds * sampleRate)
    }

    /// Renders into `sink` block by block; `progress` gets the fraction done; `shouldStop` is
    /// polled between blocks (Ctrl-C). Returns the frames rendered.
    @discardableResult
    public func render(
        progress: ((Double) -> Void)? = nil, shouldStop: () -> Bool = { false },
        sink: (UnsafeBufferPointer<Float>) throws -> Void
    ) throws -> UInt64 {
        let totalSteps = pattern.length * loops
        // Room for the densest step: every note of every track on one step, on and off.
        let queue = max(4096, pattern.tracks.values.reduce(0) { $0 + $1.count } * 4)
        let engine = try AudioEngine(
            configuration: EngineConfiguration(
                sampleRate: sampleRate, voices: voices, maxBlockFrames: blockFrames,
                queueCapacity: min(queue, 1 << 20), channels: channels))
        let output = try OutputStage(sampleRate: sampleRate, channels: channels, gainDB: gainDB)
        var sequencer = Sequencer(pattern: pattern, sampleRate: sampleRate)
        let end = sequencer.frame(ofStep: totalSteps)
        let tailLimit = maxFrames
        var pending = EventScheduler<SequencerEvent>()
        var nextStep = 0
        var buffer = [Float](repeating: 0, count: blockFrames * channels)
        var frame: UInt64 = 0

        while true {
            if shouldStop() { throw CancellationError() }
            let blockEnd = frame + UInt64(blockFrames)
            // Generate steps starting before this block ends; queue what falls inside it.
            while nextStep < totalSteps && sequencer.frame(ofStep: nextStep) < blockEnd {
                let upTo = min(totalSteps, nextStep + 16)
                pending.add(sequencer.events(forSteps: nextStep..<upTo), order: SequencerEvent.playOrder)
                nextStep = upTo
            }
            try pending.flush(before: blockEnd) { event throws(AudioError) in try engine.schedule(event) }
            // The queue holds the densest step: anything left before the horizon is a fault.
            if let next = pending.nextFrame, next < blockEnd {
                throw AudioError.queueFull("more events in one block than the queue holds")
            }
            let frames: Int
            if frame < end {
                frames = Int(min(UInt64(blockFrames), end - frame))
            } else {
                // Past the music: render the release tail until every voice is silent.
                if engine.activeVoices == 0 || frame >= tailLimit { break }
                frames = Int(min(UInt64(blockFrames), tailLimit - frame))
            }
            try engine.render(into: &buffer, frames: frames)
            try buffer.withUnsafeMutableBufferPointer {
                try output.processInPlace(UnsafeMutableBufferPointer(rebasing: $0[0..<(frames * channels)]), into: sink)
            }
            frame += UInt64(frames)
            progress?(min(1.0, Double(frame) / Double(max(end, 1))))
        }
        try output.finish(into: sink)
        return frame
    }

    /// Renders to a file (temporary name, renamed when complete).
    @discardableResult
    public func render(
        to path: String, format: SampleFormat = .f32, progress: ((Double) -> Void)? = nil,
        shouldStop: () -> Bool = { false }
    ) throws -> UInt64 {
        let writer = try AudioFileWriter(
            path: path, sampleRate: sampleRate, channels: channels, format: format, expectedFrames: maxFrames)
        do {
            let frames = try render(progress: progress, shouldStop: shouldStop) { samples in try writer.write(samples) }
            try writer.commit()
            return frames
        } catch {
            writer.abort()
            throw error
        }
    }
}
