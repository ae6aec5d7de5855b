import CAudioEngine
import Glibc

/// Exports a song (a version-1 pattern is a one-pattern song) as a Standard MIDI File (type 1) with
/// the notes `boop render` plays: the same timeline (chain, repeats, swing, ratchets, and the
/// probabilities and conditions decided by the same seed), a tempo meta event wherever a chain
/// entry changes the tempo, and each track's level and pan as channel volume and pan. Muted tracks
/// (and those a solo silences) are left out, as they are silent in the audio.
///
/// Layout: track 0 is the conductor (name, 4/4, tempo); then one track per track in `TrackKind`
/// order, each named after it. 480 ticks per quarter, so a step (a sixteenth) is 120 ticks;
/// positions become ticks rounded to the nearest (every unswung step is an exact tick). Gates follow
/// DESIGN.md: normal/accent 0.8 x length steps (96 ticks per step), sustain the full length. The
/// bytes depend only on the song, the loop count and the seed (no timestamps).
public enum MidiFileWriter {
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

    /// General MIDI program nearest each voice (the engine's list names it).
    public static func program(_ voice: Instrument.Voice) -> UInt8 { voice.midiProgram }

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
        case .level(let v): return UInt8(clamping: v)
        }
    }

    public static func trackName(_ kind: TrackKind) -> String { kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst() }

    /// Microseconds per quarter note for a tempo (the SMF tempo meta event's unit).
    public static func microsecondsPerQuarter(bpm: Double) -> UInt32 {
        UInt32((60_000_000.0 / bpm).rounded())
    }

    /// A step in ticks, for positions (swing and ratchets fall between steps).
    static let stepTicks = Double(ticksPerStep)

    struct Span {
        var start: Int
        var end: Int
        var pitch: Int
        var velocity: UInt8
    }

    /// The whole file in memory (for tests and small exports). `loops` (at least 1) plays the
    /// chain back to back; every track ends at the end of the last loop, so the file loops
    /// seamlessly in a DAW.
    /// `mts`: a song's tuning as MIDI Tuning Standard messages at the start of each pitched track
    /// (`MidiTuningMessages`); without it (or without a tuning) the file is 12-tone equal.
    public static func data(for song: Song, loops: Int = 1, seed: UInt64? = nil, mts: Bool = false) -> Bytes {
        let sink = MidiSink(file: nil)
        emit(song, loops: loops, seed: seed, mts: mts, into: sink)
        return sink.memory
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
        _ song: Song, loops: Int = 1, seed: UInt64? = nil, mts: Bool = false, to path: String,
        shouldStop: @escaping () -> Bool = { false }
    ) throws(AudioError) -> Bool {
        try writeAtomically(to: path, shouldStop: shouldStop) { sink in
            emit(song, loops: loops, seed: seed, mts: mts, into: sink)
        }
    }

    /// The tracks a file holds: a version-1 file's listed ones (an empty one too), else every
    /// audible track with notes (muted ones, and those a solo silences, are silent in the audio).
    static func tracks(of song: Song) -> [TrackKind] {
        song.version1?.tracks
            ?? TrackKind.allCases.filter { kind in
                song.isAudible(kind) && song.patterns.contains { !$0.notes(kind).isEmpty }
            }
    }

    /// What a track's channel is set up with before its first note: its Program Change (pitched
    /// tracks), and a song's channel volume (CC 7, the level) and pan (CC 10); a version-1 file
    /// has no mix. The `.mid` export and a live MIDI output both send these.
    static func setup(_ kind: TrackKind, of song: Song) -> [[UInt8]] {
        let inst = song.instrument(kind)
        let ch = channel(kind)
        var out: [[UInt8]] = []
        if kind != .rhythm {
            out.append([0xC0 | ch, inst.isClassic ? program(kind)! : program(inst.resolvedVoice(for: kind))])
        }
        if song.version1 == nil {
            out.append([0xB0 | ch, 7, UInt8(Limits.clamp(Int((100 * inst.level).rounded()), to: Limits.midiData))])
            out.append([0xB0 | ch, 10, UInt8(Limits.clamp(Int((64 + 63 * inst.pan).rounded()), to: Limits.midiData))])
        }
        return out
    }

    private static func emit(_ song: Song, loops: Int, seed: UInt64?, mts: Bool, into sink: MidiSink) {
        var layout = SongTimeline(song: song, loops: max(1, loops), seed: seed)
        let totalSteps = layout.totalSteps ?? 0
        if totalSteps > 0 { layout.segment(layout.segmentIndex(ofStep: totalSteps - 1) ?? 0) }
        var segmentTicks: [Int] = []
        var tick = 0
        for seg in layout.segments {
            segmentTicks.append(tick)
            tick += seg.steps * ticksPerStep
        }
        let endTick = tick
        // A version-1 file lists its tracks (an empty one too) and has no mix.
        let tracks = tracks(of: song)
        sink.append(Array("MThd".utf8))
        sink.appendUInt32(6)
        sink.appendUInt16(1)
        sink.appendUInt16(UInt16(1 + tracks.count))
        sink.appendUInt16(UInt16(ticksPerQuarter))
        var conductor = TrackBuilder(sink)
        conductor.meta(0x03, Array(song.name.utf8))
        conductor.meta(0x58, [4, 2, 24, 8])
        var lastBPM: Double?
        for (i, seg) in layout.segments.enumerated() where seg.bpm != lastBPM {
            let t = microsecondsPerQuarter(bpm: seg.bpm)
            conductor.meta(0x51, [UInt8(t >> 16 & 0xFF), UInt8(t >> 8 & 0xFF), UInt8(t & 0xFF)], at: segmentTicks[i])
            lastBPM = seg.bpm
        }
        conductor.finish(endTick: endTick)
        for kind in tracks {
            trackChunk(kind, song, layout, segmentTicks: segmentTicks, endTick: endTick, mts: mts, sink)
            if sink.failed || sink.cancelled { break }
        }
        sink.flush()
    }

    /// One track's chunk, streamed: the timeline's notes a pattern's length at a time (never the
    /// whole piece in memory), each batch's events written once no later note can come before
    /// them (`SpanStream`).
    private static func trackChunk(
        _ kind: TrackKind, _ song: Song, _ layout: SongTimeline, segmentTicks: [Int], endTick: Int, mts: Bool,
        _ sink: MidiSink
    ) {
        let ch = channel(kind)
        var track = TrackBuilder(sink)
        track.meta(0x03, Array(trackName(kind).utf8))
        // In every pitched track, so that whichever synth a host gives the track is tuned (the
        // drums are not: a kit's keys are sounds, not pitches).
        if mts, kind != .rhythm, let tuning = song.tuning {
            for message in MidiTuningMessages.sysex(tuning.keys) { track.sysex(message) }
            for message in MidiTuningMessages.programSelect(channel: ch) { track.event(0, message) }
        }
        for message in setup(kind, of: song) { track.event(0, message) }
        var timeline = layout
        var stream = SpanStream(channel: ch)
        let early = Int((layout.earlySteps * stepTicks).rounded(.up))
        for (si, seg) in layout.segments.enumerated() {
            let base = segmentTicks[si]
            let chunk = max(1, song.patterns[seg.pattern].length)
            var local = 0
            while local < seg.steps {
                let upTo = min(seg.steps, local + chunk)
                for hit in timeline.hits(forSteps: (seg.firstStep + local)..<(seg.firstStep + upTo))
                where hit.track == kind {
                    let start = max(0, base + Int((hit.onPosition * stepTicks).rounded()))
                    let end =
                        hit.gateSteps.map { start + Int(($0 * stepTicks).rounded()) }
                        ?? base + Int((hit.endPosition * stepTicks).rounded())
                    stream.add(Span(start: start, end: end, pitch: hit.pitch, velocity: velocity(hit.velocity)))
                }
                local = upTo
                // Every later note starts at or after the position of step `local` - 1 (swing
                // only delays a step; micro-timing may bring one `earlySteps` before its step), so
                // what lies before that is final.
                stream.flush(before: base + (local - 1) * ticksPerStep - early, into: &track)
                sink.checkStop()
                if sink.failed || sink.cancelled { return }
            }
        }
        stream.flush(before: Int.max, into: &track)
        track.finish(endTick: endTick)
    }
}
