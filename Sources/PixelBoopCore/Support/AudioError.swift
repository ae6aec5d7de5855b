import CAudioEngine

/// Everything that can go wrong in PixelBoop's audio layer. Each case carries a context string
/// saying what was being done and with which value, so a caller can print one useful line.
public enum AudioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The engine could not be created or started (bad state, out of memory).
    case engineStartFailed(String)
    /// The audio device cannot be opened or configured (wrong name, busy, unsupported format).
    case deviceUnavailable(String)
    /// The device went away or stopped recovering while running.
    case deviceLost(String)
    /// A frequency outside 20 ... 20 000 Hz or not finite.
    case invalidFrequency(String)
    /// A configuration value out of range (sample rate, voices, block size ...).
    case invalidConfiguration(String)
    /// An output file cannot be created.
    case cannotCreateFile(String)
    /// Reading or writing a file or device failed mid-way.
    case ioError(String)
    /// The event queue was full; the event was dropped.
    case queueFull(String)
    /// A stream was started while it was already running.
    case alreadyStreaming(String)

    public var description: String {
        switch self {
        case .engineStartFailed(let c): return "engine start failed: \(c)"
        case .deviceUnavailable(let c): return "audio device unavailable: \(c)"
        case .deviceLost(let c): return "audio device lost: \(c)"
        case .invalidFrequency(let c): return "invalid frequency: \(c)"
        case .invalidConfiguration(let c): return "invalid configuration: \(c)"
        case .cannotCreateFile(let c): return "cannot create file: \(c)"
        case .ioError(let c): return "I/O error: \(c)"
        case .queueFull(let c): return "event queue full: \(c)"
        case .alreadyStreaming(let c): return "already streaming: \(c)"
        }
    }

    /// The context string alone.
    public var context: String {
        switch self {
        case .engineStartFailed(let c), .deviceUnavailable(let c), .deviceLost(let c),
            .invalidFrequency(let c), .invalidConfiguration(let c),
            .cannotCreateFile(let c), .ioError(let c), .queueFull(let c), .alreadyStreaming(let c):
            return c
        }
    }

    /// Maps an engine status to the matching case; `context` says what was attempted.
    static func from(_ status: boop_status, _ context: String) -> AudioError {
        let detail = "\(context): \(String(cString: boop_status_string(status)))"
        switch status {
        case BOOP_ERROR_INVALID_ARGUMENT: return .invalidConfiguration(detail)
        case BOOP_ERROR_QUEUE_FULL: return .queueFull(detail)
        case BOOP_ERROR_DEVICE_UNAVAILABLE: return .deviceUnavailable(detail)
        case BOOP_ERROR_DEVICE_LOST: return .deviceLost(detail)
        case BOOP_ERROR_IO: return .ioError(detail)
        case BOOP_ERROR_CANNOT_CREATE: return .cannotCreateFile(detail)
        case BOOP_ERROR_ALREADY_RUNNING: return .alreadyStreaming(detail)
        default: return .engineStartFailed(detail)
        }
    }

    /// Throws the mapped error unless `status` is BOOP_OK.
    static func check(_ status: boop_status, _ context: @autoclosure () -> String) throws(AudioError) {
        if status != BOOP_OK { throw AudioError.from(status, context()) }
    }
}
