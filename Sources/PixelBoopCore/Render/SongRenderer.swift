import Glibc

/// Offline rendering of a song (a version-1 pattern is a one-pattern song): the same sequencer,
/// event scheduler, engine and output stage as live playback, driven by a loop instead of the sound
/// card (the horizon is the end of each block), so a file sounds exactly like `boop play` of the
/// same song and seed.
public struct SongRenderer: FileRendering {
    public var song: Song
    public var sampleRate: Double = 44100
    public var voices: Int = 8
    public var loops: Int = 1
    /// nil: the song's own seed.
    public var seed: UInt64?
    public var channels: Int = 1
    /// The engine's largest block: each one is one write to the file, and fewer, larger writes
    /// cost less (the engine works in small slices inside it; the block size changes nothing audible).
    public var blockFrames: Int = 8192
    /// The longest tail rendered after the last step while voices still ring (the kick's decay).
    public var maxTailSeconds: Double = 4
    /// The user's gain before the output limiter, in dB (`OutputStage.gainRange`).
    public var gainDB: Double = 0

    public init(song: Song) { self.song = song }

    /// The frame where the music ends (before the release tail).
    public var endFrame: UInt64 {
        var sequencer = SongSequencer(song: song, sampleRate: sampleRate, loops: loops, seed: seed)
        return sequencer.frame(ofStep: sequencer.totalSteps ?? 0)
    }

    public var maxFrames: UInt64 { endFrame + UInt64(maxTailSeconds * sampleRate) }

    /// Renders into `sink` block by block (see `FileRendering`). Returns the frames rendered.
    public func render(
        progress: ((Double) -> Void)?, shouldStop: () -> Bool, limitingIn writer: AudioFileWriter?,
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
        try writer?.limit(through: output)
        let loop = OfflineRender(
            engine: engine, output: output, blockFrames: blockFrames, channels: channels,
            tailFrames: UInt64(maxTailSeconds * sampleRate), sinkLimits: writer != nil)
        return try loop.run(
            &sequencer, totalSteps: totalSteps,
            schedule: { [tuning = song.tuning?.keys] event throws(AudioError) in try engine.schedule(event, tuning: tuning) },
            progress: progress,
            shouldStop: shouldStop, sink: sink)
    }

}
