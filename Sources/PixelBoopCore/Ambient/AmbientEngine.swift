import CAudioEngine

/// What the terminal view shows while ambient music plays.
public struct AmbientStatus: Sendable, Equatable {
    public var frame: UInt64
    public var chords: UInt64
    public var key: String
    public var scale: String
    public var chord: String
    public var peakLeft: Float
    public var peakRight: Float
    public var levelPad: Float
    public var levelLead: Float
    public var levelGrain: Float
    public var levelOcean: Float
    public var levelReverb: Float
    public var paused: Bool
    public var fading: Bool
    public var finished: Bool
    // The engine makes these (`AmbientEngine.status`); callers only read them, so the memberwise
    // initialiser stays internal (tests reach it through `@testable import`).
}

/// Endless generative ambient music from a preset and a seed, rendered by C++.
///
/// The output is a pure function of (preset, seed, sample rate): the same three give the same
/// samples however the frames are requested. One thread renders (`render(into:)` offline, or the
/// ALSA I/O thread through `renderSource`); fades, pauses and status are lock-free and may be
/// used from the controlling thread meanwhile. Not `Sendable`: one owner drives it.
public final class AmbientEngine {
    private let handle: OpaquePointer
    public let preset: AmbientPreset
    public let seed: UInt64
    public let sampleRate: Double
    public let maxBlockFrames: Int
    public static let channels = 2

    public init(preset: AmbientPreset, seed: UInt64, sampleRate: Double = 44100, maxBlockFrames: Int = 4096) throws(AudioError) {
        var config = preset.config(seed: seed, sampleRate: sampleRate, maxBlockFrames: maxBlockFrames)
        var field: UnsafePointer<CChar>?
        if boop_ambient_config_check(&config, &field) != BOOP_OK {
            let name = field.map { String(cString: $0) } ?? "?"
            throw AudioError.invalidConfiguration("ambient preset \(preset.name) at \(sampleRate) Hz: \(name) out of range")
        }
        var out: OpaquePointer?
        let status = boop_ambient_create(&config, &out)
        guard status == BOOP_OK, let out else {
            throw AudioError.from(status == BOOP_OK ? BOOP_ERROR_INTERNAL : status, "creating ambient preset \(preset.name)")
        }
        handle = out
        self.preset = preset
        self.seed = seed
        self.sampleRate = sampleRate
        self.maxBlockFrames = maxBlockFrames
    }

    deinit { boop_ambient_destroy(handle) }

    /// For rendering to a file: the composition and the sources are rendered ahead on a second
    /// core (the samples are the same). Afterwards the engine must not be played live. Call before
    /// the first render; false when it could not be done (it renders on one core then).
    @discardableResult
    public func useSecondCore() -> Bool { boop_ambient_start_worker(handle) == BOOP_OK }

    /// Renders `frames` stereo frames into the start of `buffer` (interleaved; grown if needed).
    public func render(into buffer: inout [Float], frames: Int) {
        let needed = frames * AmbientEngine.channels
        if buffer.count < needed { buffer += [Float](repeating: 0, count: needed - buffer.count) }
        buffer.withUnsafeMutableBufferPointer { p in
            _ = boop_ambient_render(handle, p.baseAddress, UInt32(clamping: frames))
        }
    }

    /// Renders `frames` stereo frames and returns them interleaved.
    public func render(frames: Int) -> [Float] {
        var buffer = [Float](repeating: 0, count: frames * AmbientEngine.channels)
        render(into: &buffer, frames: frames)
        return buffer
    }

    /// Fades to silence over `seconds`; afterwards `status.finished` is true. Lock-free.
    public func fadeOut(seconds: Double) {
        _ = boop_ambient_fade_out(handle, min(max(seconds.isFinite ? seconds : 0, 0), 60))
    }

    /// Pauses (the music stands still once faded) or resumes. Lock-free.
    public func setPaused(_ paused: Bool, fadeSeconds: Double = 0.02) {
        _ = boop_ambient_set_paused(handle, paused ? 1 : 0, min(max(fadeSeconds.isFinite ? fadeSeconds : 0, 0), 10))
    }

    public var status: AmbientStatus {
        var s = boop_ambient_status()
        boop_ambient_get_status(handle, &s)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let chord = text(s.chord_name)
        return AmbientStatus(
            frame: s.frame, chords: s.chords,
            key: text(s.key_name),
            scale: String(cString: boop_ambient_scale_name(s.scale)),
            chord: chord, peakLeft: s.peak_left, peakRight: s.peak_right,
            levelPad: s.level_pad, levelLead: s.level_lead, levelGrain: s.level_grain,
            levelOcean: s.level_ocean, levelReverb: s.level_reverb,
            paused: s.paused != 0, fading: s.fading != 0, finished: s.finished != 0)
    }

    /// The C++ render function and context for the ALSA backend; the engine must outlive playback.
    internal var renderSource: boop_source { boop_ambient_source(handle) }

    /// The end fade used by `--duration`: long enough to sound like an ending, never more than a
    /// tenth of the piece.
    public static func endFadeSeconds(duration: Double) -> Double { min(3.0, duration * 0.1) }

    /// Renders `duration` seconds to a file (temporary name, renamed on success), ending with
    /// `endFadeSeconds`. `shouldStop` is polled between blocks: returning true abandons the file
    /// and throws `CancellationError`. Returns the frames written.
    @discardableResult
    public static func renderOffline(
        preset: AmbientPreset, seed: UInt64, sampleRate: Double, duration: Double, to path: String,
        format: SampleFormat = .f32, gainDB: Double = 0, progress: ((Double) -> Void)? = nil,
        shouldStop: () -> Bool = { false }
    ) throws -> UInt64 {
        let engine = try AmbientEngine(preset: preset, seed: seed, sampleRate: sampleRate, maxBlockFrames: 4096)
        engine.useSecondCore()
        let output = try OutputStage(sampleRate: sampleRate, channels: channels, gainDB: gainDB)
        let total = UInt64((duration * sampleRate).rounded())
        let fadeFrames = UInt64((endFadeSeconds(duration: duration) * sampleRate).rounded())
        let fadeStart = total - min(fadeFrames, total)
        let writer = try AudioFileWriter(
            path: path, sampleRate: sampleRate, channels: channels, format: format, expectedFrames: total)
        // The gain and the true-peak limiter run on the writer's thread, beside the render (the
        // render thread is the busier of the engine's two): the same samples, block by block.
        try writer.limit(through: output)
        var buffer = [Float](repeating: 0, count: 4096 * channels)
        var done: UInt64 = 0
        var fading = false
        while done < total {
            if shouldStop() {
                writer.abort()
                throw CancellationError()
            }
            if !fading && done == fadeStart {
                // Requested on the exact frame, so the file never depends on the block size.
                engine.fadeOut(seconds: Double(total - fadeStart) / sampleRate)
                fading = true
            }
            var n = min(UInt64(4096), total - done)
            if !fading { n = min(n, fadeStart - done) }
            engine.render(into: &buffer, frames: Int(n))
            try buffer.withUnsafeBufferPointer { p in
                try writer.write(UnsafeBufferPointer(rebasing: p[0..<Int(n) * channels]))
            }
            done += n
            progress?(Double(done) / Double(max(total, 1)))
        }
        try writer.commit()   // with the limiter's last frames
        return total
    }
}

extension AudioPlayback {
    /// Plays an ambient generator; it is retained until `stop`. Render it at `sampleRate`
    /// (the granted rate).
    public func start(ambient: AmbientEngine) throws(AudioError) {
        try start(source: ambient.renderSource, keepAlive: ambient)
    }
}
