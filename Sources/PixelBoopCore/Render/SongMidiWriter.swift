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

    /// General MIDI program nearest each voice.
    public static func program(_ voice: Instrument.Voice) -> UInt8 {
        switch voice {
        case .sine: return 73   // Flute
        case .triangle: return 79   // Ocarina
        case .pulse: return 80   // Lead 1 (square)
        case .saw: return 81   // Lead 2 (sawtooth)
        case .fm: return 14   // Tubular Bells
        case .pluck: return 46   // Orchestral Harp
        case .pad: return 89   // Pad 2 (warm)
        case .sub: return 38   // Synth Bass 1
        }
    }

    private struct Span {
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

    /// Writes the file through the atomic writer (as `MidiFileWriter.write`; the same errors).
    public static func write(_ song: Song, loops: Int = 1, seed: UInt64? = nil, to path: String) throws(AudioError) {
        try MidiFileWriter.writeAtomically(to: path) { sink in emit(song, loops: loops, seed: seed, into: sink) }
    }

    private static func emit(_ song: Song, loops: Int, seed: UInt64?, into sink: MidiSink) {
        var timeline = SongTimeline(song: song, loops: max(1, loops), seed: seed)
        let hits = timeline.hits(forSteps: 0..<(timeline.totalSteps ?? 0))
        var segmentTicks: [Int] = []
        var tick = 0
        for seg in timeline.segments {
            segmentTicks.append(tick)
            tick += seg.steps * MidiFileWriter.ticksPerStep
        }
        let endTick = tick
        var spans: [TrackKind: [Span]] = [:]
        for hit in hits {
            let base = segmentTicks[hit.segment]
            let start = base + Int((hit.onPosition * ticksPerStep).rounded())
            let end =
                hit.gateSteps.map { start + Int(($0 * ticksPerStep).rounded()) }
                ?? base + Int((hit.endPosition * ticksPerStep).rounded())
            spans[hit.track, default: []].append(
                Span(start: start, end: end, pitch: hit.pitch, velocity: MidiFileWriter.velocity(hit.velocity)))
        }
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
        for (i, seg) in timeline.segments.enumerated() where seg.bpm != lastBPM {
            let t = MidiFileWriter.microsecondsPerQuarter(bpm: seg.bpm)
            conductor.meta(0x51, [UInt8(t >> 16 & 0xFF), UInt8(t >> 8 & 0xFF), UInt8(t & 0xFF)], at: segmentTicks[i])
            lastBPM = seg.bpm
        }
        conductor.finish(endTick: endTick)
        for kind in tracks { trackChunk(kind, song.instrument(kind), spans[kind] ?? [], endTick: endTick, sink) }
        sink.flush()
    }

    private static func trackChunk(_ kind: TrackKind, _ inst: Instrument, _ spans: [Span], endTick: Int, _ sink: MidiSink) {
        let ch = MidiFileWriter.channel(kind)
        var track = TrackBuilder(sink)
        track.meta(0x03, Array(MidiFileWriter.trackName(kind).utf8))
        if kind != .rhythm {
            let program = inst.isClassic ? MidiFileWriter.program(kind)! : program(inst.resolvedVoice(for: kind))
            track.event(0, [0xC0 | ch, program])
        }
        track.event(0, [0xB0 | ch, 7, UInt8(min(127, (100 * inst.level).rounded()))])
        track.event(0, [0xB0 | ch, 10, UInt8(min(127, max(0, (64 + 63 * inst.pan).rounded())))])
        // A note of a pitch is cut where the next of that pitch starts (MIDI cannot overlap them).
        var cut: [Span] = []
        for (_, same) in Dictionary(grouping: spans, by: \.pitch) {
            let sorted = same.sorted { $0.start < $1.start }
            for (i, var s) in sorted.enumerated() {
                if i + 1 < sorted.count { s.end = min(s.end, sorted[i + 1].start) }
                if s.end > s.start { cut.append(s) }
            }
        }
        var events: [(tick: Int, on: Bool, pitch: UInt8, velocity: UInt8)] = []
        for s in cut {
            events.append((s.start, true, UInt8(s.pitch), s.velocity))
            events.append((s.end, false, UInt8(s.pitch), 0))
        }
        events.sort { a, b in
            if a.tick != b.tick { return a.tick < b.tick }
            if a.on != b.on { return !a.on }
            return a.pitch < b.pitch
        }
        for e in events { track.event(e.tick, e.on ? [0x90 | ch, e.pitch, e.velocity] : [0x80 | ch, e.pitch, 0x40]) }
        track.finish(endTick: endTick)
    }
}
