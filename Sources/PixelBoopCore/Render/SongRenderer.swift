import Foundation

/// Offline rendering of a song: `PatternRenderer`'s loop (the same engine, event scheduler and
/// output stage, the horizon the end of each block) driven by a `SongSequencer`, so a file sounds
/// exactly like `boop play` of the same song and seed.
public struct SongRenderer {
    public var song: Song
    public var sampleRate: Double = 44100
    public var voices: Int = 8
    public var loops: Int = 1
    /// nil: the song's own seed.
    public var seed: UInt64?
    public var channels: Int = 1
    public var blockFrames: Int = 8192
    public var maxTailSeconds: Double = 4
    public var gainDB: Double = 0

    public init(song: Song) { self.song = song }

    /// The frame where the music ends (before the release tail).
    public var endFrame: UInt64 {
        var sequencer = SongSequencer(song: song, sampleRate: sampleRate, loops: loops, seed: seed)
        return sequencer.frame(ofStep: sequencer.totalSteps ?? 0)
    }

    public var maxFrames: UInt64 { endFrame + UInt64(maxTailSeconds * sampleRate) }

    /// Renders into `sink` block by block; as `PatternRenderer.render`. Returns the frames rendered.
    @discardableResult
    public func render(
        progress: ((Double) -> Void)? = nil, shouldStop: () -> Bool = { false },
        sink: (UnsafeBufferPointer<Float>) throws -> Void
    ) throws -> UInt64 {
        var sequencer = SongSequencer(song: song, sampleRate: sampleRate, loops: loops, seed: seed)
        let totalSteps = sequencer.totalSteps ?? 0
        // Room for the densest step: every note of every track, four ratchet hits, on and off.
        let densest = song.patterns.map { $0.tracks.values.reduce(0) { $0 + $1.count } }.max() ?? 0
        let engine = try AudioEngine(
            configuration: EngineConfiguration(
                sampleRate: sampleRate, voices: voices, maxBlockFrames: blockFrames,
                queueCapacity: min(max(4096, densest * 8 * 16), 1 << 20), channels: channels))
        try engine.prepare(song: song, at: 0)
        let output = try OutputStage(sampleRate: sampleRate, channels: channels, gainDB: gainDB)
        let end = sequencer.frame(ofStep: totalSteps)
        let tailLimit = end + UInt64(maxTailSeconds * sampleRate)
        var pending = EventScheduler<SongEvent>()
        var nextStep = 0
        var buffer = [Float](repeating: 0, count: blockFrames * channels)
        var frame: UInt64 = 0
        while true {
            if shouldStop() { throw CancellationError() }
            let blockEnd = frame + UInt64(blockFrames)
            while nextStep < totalSteps && sequencer.frame(ofStep: nextStep) < blockEnd {
                let upTo = min(totalSteps, nextStep + 16)
                pending.add(sequencer.events(forSteps: nextStep..<upTo), order: SongEvent.playOrder)
                nextStep = upTo
            }
            try pending.flush(before: blockEnd) { event throws(AudioError) in try engine.schedule(event) }
            if let next = pending.nextFrame, next < blockEnd {
                throw AudioError.queueFull("more events in one block than the queue holds")
            }
            let frames: Int
            if frame < end {
                frames = Int(min(UInt64(blockFrames), end - frame))
            } else {
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
