import CAudioEngine

/// Plays ambient pieces one after another, crossfading (equal power) from one to the next, as
/// next/previous do live. Every piece is loudness-normalised, so the new one arrives at the
/// loudness the old one had. Control thread only; the audio thread sees a C++ source.
public final class AmbientCrossfader {
    private let handle: OpaquePointer
    /// The piece playing (or fading in).
    public private(set) var current: AmbientEngine
    /// The piece fading out, until the fade is over (then released by `collect`).
    public private(set) var outgoing: AmbientEngine?

    public init(first: AmbientEngine) throws(AudioError) {
        var h: OpaquePointer?
        let status = boop_crossfader_create(first.renderSource, &h)
        guard status == BOOP_OK, let h else { throw AudioError.from(status, "creating the ambient crossfader") }
        handle = h
        current = first
    }

    deinit { boop_crossfader_destroy(handle) }

    /// True while a fade is pending or running.
    public var isFading: Bool { boop_crossfader_idle(handle) == 0 }

    /// Starts a crossfade into `next` over `seconds`. Throws `alreadyStreaming` while the previous
    /// fade still runs.
    public func fade(to next: AmbientEngine, seconds: Double = 2) throws(AudioError) {
        collect()
        let status = boop_crossfader_fade_to(handle, next.renderSource, seconds)
        guard status == BOOP_OK else {
            if status == BOOP_ERROR_ALREADY_RUNNING {
                throw AudioError.alreadyStreaming("a crossfade is still running")
            }
            throw AudioError.from(status, "crossfading to \(next.preset.name)")
        }
        outgoing = current
        current = next
    }

    /// Releases the piece that faded out, once the audio thread no longer renders it.
    public func collect() {
        if outgoing != nil && !isFading { outgoing = nil }
    }

    internal var renderSource: boop_source { boop_crossfader_source(handle) }
}

extension AudioPlayback {
    /// Plays ambient pieces through a crossfader; it is retained until `stop`.
    public func start(ambient crossfader: AmbientCrossfader) throws(AudioError) {
        try start(source: crossfader.renderSource, keepAlive: crossfader)
    }
}
