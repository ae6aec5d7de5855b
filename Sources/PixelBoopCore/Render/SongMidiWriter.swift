import CAudioEngine
import FoundationEssentials
import Glibc

/// Exports a song as a Standard MIDI File (type 1) with the notes `boop render` plays: the same
/// timeline (chain, repeats, swing, ratchets, and the probabilities and conditions decided by the
/// same seed), a tempo meta event wherever a chain entry changes the tempo, and each track's level
/// and pan as channel volume and pan. Muted tracks (and those a solo silences) are left out, as
/// they are silent in the audio. Positions become ticks at 120 per step, rounded to the nearest.
public enum SongMidiWriter {
    static let ticksPerStep = Double(MidiFileWriter.ticksPerStep)

    /// General MIDI program nearest each voice (the engine's list names it).
    public static func program(_ voice: Instrument.Voice) -> UInt8 { voice.midiProgram }

    struct Span {
        var start: Int
        var end: Int
        var pitch: Int
        var velocity: UInt8
    }

    /// The whole file in memory.
    public static func data(for song: Song, loops: Int = 1, seed: UInt64? = nil) -> Data {
        let sink = MidiSink(file: nil)
        emit(song, loops: loops, seed: seed, into: sink)
        return sink.memory
    }

    /// Writes the file through the atomic writer (as `MidiFileWriter.write`: the same errors, and
    /// false when `shouldStop` ended it with nothing written).
    @discardableResult
    public static func write(
        _ song: Song, loops: Int = 1, seed: UInt64? = nil, to path: String,
        shouldStop: @escaping () -> Bool = { false }
    ) throws(AudioError) -> Bool {
        try MidiFileWriter.writeAtomically(to: path, shouldStop: shouldStop) { sink in
            emit(song, loops: loops, seed: seed, into: sink)
        }
    }

    private static func emit(_ song: Song, loops: Int, seed: UInt64?, into sink: MidiSink) {
        var layout = SongTimeline(song: song, loops: max(1, loops), seed: seed)
        let totalSteps = layout.totalSteps ?? 0
        if totalSteps > 0 { layout.segment(layout.segmentIndex(ofStep: totalSteps - 1) ?? 0) }
        var segmentTicks: [Int] = []
        var tick = 0
        for seg in layout.segments {
            segmentTicks.append(tick)
            tick += seg.steps * MidiFileWriter.ticksPerStep
        }
        let endTick = tick
        let tracks = TrackKind.allCases.filter { kind in
            song.isAudible(kind) && song.patterns.contains { !$0.notes(kind).isEmpty }
        }
        sink.append(Array("MThd".utf8))
        sink.appendUInt32(6)
        sink.appendUInt16(1)
        sink.appendUInt16(UInt16(1 + tracks.count))
        sink.appendUInt16(UInt16(MidiFileWriter.ticksPerQuarter))
        var conductor = TrackBuilder(sink)
        conductor.meta(0x03, Array(song.name.utf8))
        conductor.meta(0x58, [4, 2, 24, 8])
        var lastBPM: Double?
        for (i, seg) in layout.segments.enumerated() where seg.bpm != lastBPM {
            let t = MidiFileWriter.microsecondsPerQuarter(bpm: seg.bpm)
            conductor.meta(0x51, [UInt8(t >> 16 & 0xFF), UInt8(t >> 8 & 0xFF), UInt8(t & 0xFF)], at: segmentTicks[i])
            lastBPM = seg.bpm
        }
        conductor.finish(endTick: endTick)
        for kind in tracks {
            trackChunk(kind, song, layout, segmentTicks: segmentTicks, endTick: endTick, sink)
            if sink.failed || sink.cancelled { break }
        }
        sink.flush()
    }

    /// One track's chunk, streamed: the timeline's notes a pattern's length at a time (never the
    /// whole piece in memory), each batch's events written once no later note can come before
    /// them (`SpanStream`).
    private static func trackChunk(
        _ kind: TrackKind, _ song: Song, _ layout: SongTimeline, segmentTicks: [Int], endTick: Int, _ sink: MidiSink
    ) {
        let inst = song.instrument(kind)
        let ch = MidiFileWriter.channel(kind)
        var track = TrackBuilder(sink)
        track.meta(0x03, Array(MidiFileWriter.trackName(kind).utf8))
        if kind != .rhythm {
            let program = inst.isClassic ? MidiFileWriter.program(kind)! : program(inst.resolvedVoice(for: kind))
            track.event(0, [0xC0 | ch, program])
        }
        track.event(0, [0xB0 | ch, 7, UInt8(min(127, (100 * inst.level).rounded()))])
        track.event(0, [0xB0 | ch, 10, UInt8(min(127, max(0, (64 + 63 * inst.pan).rounded())))])
        var timeline = layout
        var stream = SpanStream(channel: ch)
        for (si, seg) in layout.segments.enumerated() {
            let base = segmentTicks[si]
            let chunk = max(1, song.patterns[seg.pattern].length)
            var local = 0
            while local < seg.steps {
                let upTo = min(seg.steps, local + chunk)
                for hit in timeline.hits(forSteps: (seg.firstStep + local)..<(seg.firstStep + upTo))
                where hit.track == kind {
                    let start = base + Int((hit.onPosition * ticksPerStep).rounded())
                    let end =
                        hit.gateSteps.map { start + Int(($0 * ticksPerStep).rounded()) }
                        ?? base + Int((hit.endPosition * ticksPerStep).rounded())
                    stream.add(Span(start: start, end: end, pitch: hit.pitch, velocity: MidiFileWriter.velocity(hit.velocity)))
                }
                local = upTo
                // Every later note starts at or after the position of step `local` - 1 (swing
                // only delays a step), so what lies before it is final.
                stream.flush(before: base + (local - 1) * MidiFileWriter.ticksPerStep, into: &track)
                sink.checkStop()
                if sink.failed || sink.cancelled { return }
            }
        }
        stream.flush(before: Int.max, into: &track)
        track.finish(endTick: endTick)
    }
}

/// A track's notes on their way into a MIDI track in time order, kept only until they are final.
/// MIDI cannot overlap two notes of one pitch on a channel (the first note-off would end both), so
/// a note is cut where the next of its pitch starts (one starting on the same tick replaces it);
/// on a tick, note-offs come before note-ons, then by pitch, so a repeated note re-attacks.
struct SpanStream {
    let channel: UInt8
    private var pending: [(span: SongMidiWriter.Span, order: Int, onWritten: Bool)] = []
    private var added = 0

    init(channel: UInt8) { self.channel = channel }

    mutating func add(_ span: SongMidiWriter.Span) {
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
        var kept: [(span: SongMidiWriter.Span, order: Int, onWritten: Bool)] = []
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
