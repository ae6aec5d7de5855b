import Glibc

/// The offline render loop of songs (a version-1 pattern is a one-pattern song): the same engine, event scheduler and output
/// stage as live playback, driven block by block instead of by the sound card (the horizon is the
/// end of each block), then the release tail until every voice is silent, at most `tailFrames`.
struct OfflineRender {
    let engine: AudioEngine
    let output: OutputStage
    let blockFrames: Int
    let channels: Int
    let tailFrames: UInt64
    /// The sink runs `output` itself (a file writer, on its own thread): blocks go to it unlimited.
    var sinkLimits = false

    /// Renders `totalSteps` steps of `source` into `sink`; `progress` gets the fraction done;
    /// `shouldStop` is polled between blocks (Ctrl-C). Returns the frames rendered.
    func run(
        _ source: inout SongSequencer, totalSteps: Int, schedule: (SongEvent) throws(AudioError) -> Void,
        progress: ((Double) -> Void)?,
        shouldStop: () -> Bool, sink: (UnsafeBufferPointer<Float>) throws -> Void
    ) throws -> UInt64 {
        let end = source.frame(ofStep: totalSteps)
        let tailLimit = end + tailFrames
        var pending = EventScheduler<SongEvent>()
        var nextStep = 0
        var buffer = [Float](repeating: 0, count: blockFrames * channels)
        var frame: UInt64 = 0
        while true {
            if shouldStop() { throw CancellationError() }
            let blockEnd = frame + UInt64(blockFrames)
            // Generate steps starting before this block ends; queue what falls inside it.
            while nextStep < totalSteps && source.dueFrame(ofStep: nextStep) < blockEnd {
                let upTo = min(totalSteps, nextStep + 16)
                pending.add(source.events(forSteps: nextStep..<upTo), order: SongEvent.playOrder)
                nextStep = upTo
            }
            try pending.flush(before: blockEnd, send: schedule)
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
            if sinkLimits {
                try buffer.withUnsafeBufferPointer { try sink(UnsafeBufferPointer(rebasing: $0[0..<(frames * channels)])) }
            } else {
                try buffer.withUnsafeMutableBufferPointer {
                    try output.processInPlace(
                        UnsafeMutableBufferPointer(rebasing: $0[0..<(frames * channels)]), into: sink)
                }
            }
            frame += UInt64(frames)
            progress?(min(1.0, Double(frame) / Double(max(end, 1))))
        }
        if !sinkLimits { try output.finish(into: sink) }
        return frame
    }
}

/// A renderer of a whole piece (a pattern, a song) that can write it to a file.
public protocol FileRendering {
    var sampleRate: Double { get }
    var channels: Int { get }
    var maxFrames: UInt64 { get }
    /// Renders into `sink` block by block; `progress` gets the fraction done; `shouldStop` is
    /// polled between blocks (Ctrl-C). With a `writer`, the output stage is handed to it
    /// (`AudioFileWriter.limit(through:)`), which runs it on its own thread while this one
    /// synthesises the next block, and `sink` gets the engine's samples before the stage.
    /// Returns the frames rendered.
    func render(
        progress: ((Double) -> Void)?, shouldStop: () -> Bool, limitingIn writer: AudioFileWriter?,
        sink: (UnsafeBufferPointer<Float>) throws -> Void
    ) throws -> UInt64
}

extension FileRendering {
    /// Renders into `sink` with the output stage on this thread.
    @discardableResult
    public func render(
        progress: ((Double) -> Void)? = nil, shouldStop: () -> Bool = { false },
        sink: (UnsafeBufferPointer<Float>) throws -> Void
    ) throws -> UInt64 {
        try render(progress: progress, shouldStop: shouldStop, limitingIn: nil, sink: sink)
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
            let frames = try render(progress: progress, shouldStop: shouldStop, limitingIn: writer) { samples in
                try writer.write(samples)
            }
            try writer.commit()
            return frames
        } catch {
            writer.abort()
            throw error
        }
    }
}
