import CAudioEngine
import Glibc

/// The byte level of a Standard MIDI File: the atomic write, the buffered sink, one track chunk
/// with its delta times, and a track's notes kept in time order until they are final.
extension MidiFileWriter {
    /// The atomic write of the file `emit` streams into its sink. False when `shouldStop` ended it
    /// (the temporary file removed, nothing written).
    static func writeAtomically(
        to path: String, shouldStop: @escaping () -> Bool, _ emit: (MidiSink) -> Void
    ) throws(AudioError) -> Bool {
        var handle: OpaquePointer?
        var why = [CChar](repeating: 0, count: 256)
        let whySize = why.count
        // A link at the path is followed (the file it names is replaced, the link stays).
        let opened = RawBytes.withPath(path) {
            boop_atomic_file_open($0, BOOP_ATOMIC_FOLLOW_LINKS, &handle, &why, whySize)
        }
        guard opened == BOOP_OK, let handle else {
            let reason = opened == BOOP_ERROR_CANNOT_CREATE ? String(cBuffer: why) : String(cString: boop_status_string(opened))
            throw AudioError.cannotCreateFile("\(path): \(reason) (does the folder exist and is it writable?)")
        }
        let sink = MidiSink(file: handle, shouldStop: shouldStop)
        emit(sink)
        sink.flush()
        if sink.cancelled {
            boop_atomic_file_abort(handle)
            return false
        }
        var failed = sink.failed
        if !failed { failed = boop_atomic_file_commit(handle, BOOP_DURABILITY_RENAME) != BOOP_OK }
        if failed {
            let reason = String(cString: boop_atomic_file_error(handle))
            boop_atomic_file_abort(handle)
            throw AudioError.ioError("\(path): \(reason)")
        }
        return true
    }
}

/// Where the file's bytes go: memory (no file) or an atomic file through a 64 KiB buffer. After the
/// first write error later writes are skipped; the file's handle keeps the reason. Each time the
/// buffer goes to the file `shouldStop` is asked; once it says yes (`cancelled`) nothing more is
/// written and the writers stop producing.
final class MidiSink {
    let file: OpaquePointer?
    var memory = Bytes()
    private var buffer: [UInt8] = []
    private let shouldStop: () -> Bool
    private(set) var written = 0   // bytes handed to the sink so far (file offset of the next byte)
    private(set) var failed = false
    private(set) var cancelled = false

    init(file: OpaquePointer?, shouldStop: @escaping () -> Bool = { false }) {
        self.file = file
        self.shouldStop = shouldStop
        buffer.reserveCapacity(1 << 16)
    }

    /// Asks `shouldStop` (the song writer, between batches of notes that may write nothing).
    func checkStop() {
        if !cancelled && shouldStop() { cancelled = true }
    }

    func append(_ bytes: [UInt8]) {
        written += bytes.count
        if file == nil {
            memory.append(contentsOf: bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func appendUInt32(_ v: UInt32) {
        append([UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)])
    }

    func appendUInt16(_ v: UInt16) { append([UInt8(v >> 8), UInt8(v & 0xFF)]) }

    func flush() {
        checkStop()
        guard let file, !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard !failed && !cancelled else { return }
        failed = buffer.withUnsafeBytes { boop_atomic_file_write(file, $0.baseAddress, $0.count) } != BOOP_OK
    }

    /// Overwrites four bytes at `at` (a chunk's size, known only when the chunk ends).
    func patchUInt32(_ v: UInt32, at: Int) {
        let bytes = [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        guard let file else {
            memory.replaceSubrange(at..<(at + 4), with: bytes)
            return
        }
        flush()
        guard !failed else { return }
        failed = bytes.withUnsafeBytes { boop_atomic_file_write_at(file, UInt64(at), $0.baseAddress, 4) } != BOOP_OK
    }
}

/// Streams one MTrk chunk with delta times into the sink; the size is patched in by `finish`.
struct TrackBuilder {
    private let sink: MidiSink
    private let sizeOffset: Int
    private var tick = 0

    init(_ sink: MidiSink) {
        self.sink = sink
        sink.append(Array("MTrk".utf8))
        sizeOffset = sink.written
        sink.appendUInt32(0)
    }

    /// The largest delta time a variable-length quantity may hold (four bytes of seven bits).
    static let maxDelta = 0x0FFF_FFFF

    mutating func event(_ at: Int, _ bytes: [UInt8]) {
        precondition(at >= tick, "MIDI events must be added in time order")
        // A longer silence (a long song: ticks pass 2^28 after 18 hours at 120 BPM) is carried by
        // empty text events, each as far as a delta reaches, so the file stays valid.
        while at - tick > TrackBuilder.maxDelta {
            sink.append(MidiFileWriter.variableLength(UInt32(TrackBuilder.maxDelta)) + [0xFF, 0x01, 0x00])
            tick += TrackBuilder.maxDelta
        }
        sink.append(MidiFileWriter.variableLength(UInt32(at - tick)))
        sink.append(bytes)
        tick = at
    }

    mutating func meta(_ type: UInt8, _ payload: [UInt8], at: Int = 0) {
        event(at, [0xFF, type])
        sink.append(MidiFileWriter.variableLength(UInt32(payload.count)))
        sink.append(payload)
    }

    /// A system exclusive message (F0 ... F7) as an SMF sysex event: F0, the length of the rest,
    /// the rest.
    mutating func sysex(_ message: [UInt8], at: Int = 0) {
        event(at, [0xF0])
        sink.append(MidiFileWriter.variableLength(UInt32(message.count - 1)))
        sink.append(Array(message.dropFirst()))
    }

    mutating func finish(endTick: Int) {
        meta(0x2F, [], at: max(endTick, tick))
        sink.patchUInt32(UInt32(sink.written - sizeOffset - 4), at: sizeOffset)
    }
}

extension MidiFileWriter {
    /// SMF variable-length quantity: 7 bits per byte, most significant first, high bit = more.
    static func variableLength(_ value: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(value & 0x7F)]
        var v = value >> 7
        while v > 0 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        return bytes.reversed()
    }
}

/// A track's notes on their way into a MIDI track in time order, kept only until they are final.
/// MIDI cannot overlap two notes of one pitch on a channel (the first note-off would end both), so
/// a note is cut where the next of its pitch starts (one starting on the same tick replaces it);
/// on a tick, note-offs come before note-ons, then by pitch, so a repeated note re-attacks.
struct SpanStream {
    let channel: UInt8
    private var pending: [(span: MidiFileWriter.Span, order: Int, onWritten: Bool)] = []
    private var added = 0

    init(channel: UInt8) { self.channel = channel }

    mutating func add(_ span: MidiFileWriter.Span) {
        pending.append((span, added, false))
        added += 1
    }

    /// Writes every event before tick `bound`; no note added later may start before it.
    mutating func flush(before bound: Int, into track: inout TrackBuilder) {
        pending.sort { $0.span.start != $1.span.start ? $0.span.start < $1.span.start : $0.order < $1.order }
        // The start of the next note of the same pitch, where it is known (it starts before the bound).
        var nextStart = [Int?](repeating: nil, count: pending.count)
        var laterOfPitch: [Int: Int] = [:]
        for i in pending.indices.reversed() {
            nextStart[i] = laterOfPitch[pending[i].span.pitch]
            laterOfPitch[pending[i].span.pitch] = pending[i].span.start
        }
        var events: [(tick: Int, on: Bool, pitch: UInt8, velocity: UInt8)] = []
        var kept: [(span: MidiFileWriter.Span, order: Int, onWritten: Bool)] = []
        for (i, var p) in pending.enumerated() {
            let end = min(p.span.end, nextStart[i] ?? Int.max)
            if end <= p.span.start { continue }   // replaced by a note on the same tick, or no length
            if !p.onWritten && p.span.start < bound {
                events.append((p.span.start, true, UInt8(p.span.pitch), p.span.velocity))
                p.onWritten = true
            }
            // An end at or past the bound may still be cut by a note to come.
            if p.onWritten && end < bound {
                events.append((end, false, UInt8(p.span.pitch), 0))
            } else {
                kept.append(p)
            }
        }
        pending = kept
        events.sort { a, b in
            if a.tick != b.tick { return a.tick < b.tick }
            if a.on != b.on { return !a.on }
            return a.pitch < b.pitch
        }
        for e in events {
            track.event(e.tick, e.on ? [0x90 | channel, e.pitch, e.velocity] : [0x80 | channel, e.pitch, 0x40])
        }
    }
}
