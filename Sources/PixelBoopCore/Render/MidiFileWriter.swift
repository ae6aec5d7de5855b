import CAudioEngine
import FoundationEssentials
import Glibc

/// Exports a pattern as a Standard MIDI File (type 1), so it can be opened in a DAW or notation
/// program with the same notes, gates and tempo as `boop render`'s audio.
///
/// Layout: track 0 is the conductor (pattern name, 4/4, tempo); then one track per pattern track in
/// `TrackKind` order, each named after it. 480 ticks per quarter, so a step (a sixteenth) is 120
/// ticks and every step boundary is an exact tick: no rounding, no drift over loops.
/// Gates follow DESIGN.md: normal/accent 0.8 x length steps (96 ticks per step), sustain the full
/// length. The bytes depend only on the pattern and the loop count (no timestamps).
public struct MidiFileWriter {
    public static let ticksPerQuarter = 480
    public static let ticksPerStep = ticksPerQuarter / 4
    /// 0.8 x a step: the gate of a normal or accent note, per step of length.
    public static let gateTicksPerStep = ticksPerStep * 4 / 5

    /// MIDI channel (0-based) of each track; rhythm is General MIDI channel 10.
    public static func channel(_ kind: TrackKind) -> UInt8 {
        switch kind {
        case .melody: return 0
        case .chords: return 1
        case .bass: return 2
        case .rhythm: return 9
        }
    }

    /// General MIDI program (0-based) nearest each track's timbre; rhythm uses the drum channel.
    public static func program(_ kind: TrackKind) -> UInt8? {
        switch kind {
        case .melody: return 73   // Flute: the melody voice is a filtered sine
        case .chords: return 89   // Pad 2 (warm)
        case .bass: return 38   // Synth Bass 1
        case .rhythm: return nil
        }
    }

    public static func velocity(_ v: Velocity) -> UInt8 {
        switch v {
        case .normal: return 96
        case .accent: return 120
        case .sustain: return 108
        }
    }

    public static func trackName(_ kind: TrackKind) -> String { kind.rawValue.capitalized }

    /// Microseconds per quarter note for the pattern's tempo (the SMF tempo meta event's unit).
    public static func microsecondsPerQuarter(bpm: Double) -> UInt32 {
        UInt32((60_000_000.0 / bpm).rounded())
    }

    /// Gate of a note in ticks.
    public static func gateTicks(_ note: Note) -> Int {
        note.velocity == .sustain ? note.length * ticksPerStep : note.length * gateTicksPerStep
    }

    /// The whole file in memory (for tests and small exports). `loops` (at least 1) repeats the
    /// pattern back to back; the end-of-track of every track sits at loops x length steps, so the
    /// file loops seamlessly in a DAW.
    public static func data(for pattern: Pattern, loops: Int = 1) -> Data {
        let sink = MidiSink(file: nil)
        emit(pattern, loops: loops, into: sink)
        return sink.memory
    }

    /// Produces the file into `sink` one loop at a time: memory stays at one loop's events however
    /// many loops are asked for (1,000 loops of a full pattern once took over 300 MiB). Each chunk's
    /// size is patched in when the chunk is complete.
    private static func emit(_ pattern: Pattern, loops: Int, into sink: MidiSink) {
        let loops = max(1, loops)
        let endTick = pattern.length * ticksPerStep * loops
        let kinds = TrackKind.allCases.filter { pattern.tracks[$0] != nil }

        sink.append(Array("MThd".utf8))
        sink.appendUInt32(6)
        sink.appendUInt16(1)   // type 1: simultaneous tracks
        sink.appendUInt16(UInt16(1 + kinds.count))
        sink.appendUInt16(UInt16(ticksPerQuarter))

        var conductor = TrackBuilder(sink)
        conductor.meta(0x03, Array(pattern.name.utf8))   // sequence/track name
        conductor.meta(0x58, [4, 2, 24, 8])   // 4/4, click every quarter, 8 32nds per quarter
        let tempo = microsecondsPerQuarter(bpm: pattern.bpm)
        conductor.meta(0x51, [UInt8(tempo >> 16 & 0xFF), UInt8(tempo >> 8 & 0xFF), UInt8(tempo & 0xFF)])
        conductor.finish(endTick: endTick)

        for kind in kinds {
            trackChunk(kind, notes: pattern.notes(kind), length: pattern.length, loops: loops, endTick: endTick, sink)
        }
        sink.flush()
    }

    /// Writes the file through the one atomic writer (`boop_atomic_file_*`: a short temporary name
    /// beside `path`, renamed into place), streaming it, so a failure or a signal never leaves a
    /// partial file and a name near NAME_MAX still works. Not synced before the rename: a render
    /// can be made again (docs/DESIGN.md, "Durability"). Errors: `.cannotCreateFile` (exit 73) when
    /// the temporary file cannot be created, `.ioError` (exit 74) when writing (a full disk,
    /// `ulimit -f`) or renaming fails.
    /// `shouldStop` is asked between pieces of the file: once it says yes the write ends, the
    /// temporary file is removed and the result is false (nothing written).
    @discardableResult
    public static func write(
        _ pattern: Pattern, loops: Int = 1, to path: String, shouldStop: @escaping () -> Bool = { false }
    ) throws(AudioError) -> Bool {
        try writeAtomically(to: path, shouldStop: shouldStop) { sink in emit(pattern, loops: loops, into: sink) }
    }

    /// The atomic write of any Standard MIDI File `emit` streams into its sink (a pattern's, a
    /// song's). False when `shouldStop` ended it (the temporary file removed, nothing written).
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

    // MARK: - Tracks

    private struct Event {
        var tick: Int
        var isOn: Bool
        var pitch: UInt8
        var velocity: UInt8
    }

    private static func trackChunk(
        _ kind: TrackKind, notes: [Note], length: Int, loops: Int, endTick: Int,
        _ sink: MidiSink
    ) {
        let ch = channel(kind)
        var track = TrackBuilder(sink)
        track.meta(0x03, Array(trackName(kind).utf8))
        if let program = program(kind) { track.event(0, [0xC0 | ch, program]) }

        // One loop's notes as (start, end) ticks. MIDI cannot hold two overlapping notes of the same
        // pitch on one channel (the first note-off would end both), so an earlier note is cut where
        // a later one of the same pitch starts; the audio engine would sound both, MIDI retriggers.
        var spans: [(start: Int, end: Int, pitch: Int, velocity: UInt8)] = []
        let byPitch = Dictionary(grouping: notes.filter { Limits.midiNote.contains($0.pitch) }, by: \.pitch)
        for pitch in byPitch.keys.sorted() {
            let sorted = byPitch[pitch]!.sorted { $0.step < $1.step }
            for (i, note) in sorted.enumerated() {
                let start = note.step * ticksPerStep
                var end = start + gateTicks(note)
                if i + 1 < sorted.count { end = min(end, sorted[i + 1].step * ticksPerStep) }
                spans.append((start, end, pitch, velocity(note.velocity)))
            }
        }

        // One loop sorted once. Every note starts inside its loop and ends by the loop's end, and
        // offs sort before ons on a tick, so loop after loop in this order is the globally sorted
        // event list: the loops can be streamed without holding them all.
        var events: [Event] = []
        events.reserveCapacity(spans.count * 2)
        for s in spans {
            events.append(Event(tick: s.start, isOn: true, pitch: UInt8(s.pitch), velocity: s.velocity))
            events.append(Event(tick: s.end, isOn: false, pitch: UInt8(s.pitch), velocity: 0))
        }
        // Offs before ons on the same tick, so a repeated or legato note re-attacks instead of
        // being silenced; then by pitch, for deterministic bytes.
        events.sort { a, b in
            if a.tick != b.tick { return a.tick < b.tick }
            if a.isOn != b.isOn { return !a.isOn }
            return a.pitch < b.pitch
        }
        for loop in 0..<loops where !sink.cancelled {
            let offset = loop * length * ticksPerStep
            for e in events {
                track.event(offset + e.tick, e.isOn ? [0x90 | ch, e.pitch, e.velocity] : [0x80 | ch, e.pitch, 0x40])
            }
        }
        track.finish(endTick: endTick)
    }
}

/// Where the file's bytes go: memory (no file) or an atomic file through a 64 KiB buffer. After the
/// first write error later writes are skipped; the file's handle keeps the reason. Each time the
/// buffer goes to the file `shouldStop` is asked; once it says yes (`cancelled`) nothing more is
/// written and the writers stop producing.
final class MidiSink {
    let file: OpaquePointer?
    var memory = Data()
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
