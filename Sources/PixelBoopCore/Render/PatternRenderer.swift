import FoundationEssentials
import Glibc

/// Offline rendering of a pattern: the same sequencer, event scheduler and engine as live
/// playback, driven by a loop instead of the sound card (the horizon is the end of each block),
/// so a file sounds exactly like `boop play`.
public struct PatternRenderer: FileRendering {
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

    /// Renders into `sink` block by block (see `FileRendering`). Returns the frames rendered.
    public func render(
        progress: ((Double) -> Void)?, shouldStop: () -> Bool, limitingIn writer: AudioFileWriter?,
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
        try writer?.limit(through: output)
        var sequencer = Sequencer(pattern: pattern, sampleRate: sampleRate)
        let loop = OfflineRender(
            engine: engine, output: output, blockFrames: blockFrames, channels: channels,
            tailFrames: UInt64(maxTailSeconds * sampleRate), sinkLimits: writer != nil)
        return try loop.run(
            &sequencer, totalSteps: totalSteps, order: SequencerEvent.playOrder,
            schedule: { event throws(AudioError) in try engine.schedule(event) }, progress: progress,
            shouldStop: shouldStop, sink: sink)
    }

}
