import Testing

@testable import PixelBoopCore

/// A version-1 pattern's sequencer (its one-pattern song, looping), its first step on frame 1000.
private func version1(_ pattern: Song, rate: Double) -> SongSequencer {
    SongSequencer(song: Song(version1: pattern), sampleRate: rate, loops: nil, startFrame: 1000)
}

/// Every message the scheduler hands out for `steps`, as (frame, bytes).
private func midi(_ pattern: Song, steps: Range<Int>, clock: Bool, rate: Double = 48000) -> [(UInt64, [UInt8])] {
    var sequencer = version1(pattern, rate: rate)
    var scheduler = MidiOutScheduler(clock: clock)
    scheduler.announce(step: 0, resume: false)
    scheduler.add(sequencer.spans(forSteps: steps), steps: steps, song: &sequencer)
    var out: [(UInt64, [UInt8])] = []
    try? scheduler.flush(before: UInt64.max) { bytes, frame in out.append((frame, bytes)) }
    return out
}

@Suite("MIDI out scheduling")
struct MidiOutSchedulerTests {
    @Test("Start first, then 24 clocks a quarter note on round(k x rate x 60 / (bpm x 24)) after it")
    func clockFrames() {
        let out = midi(Song(name: "c", bpm: 133), steps: 0..<64, clock: true)
        #expect(out.first?.1 == [0xFA])
        #expect(out.first?.0 == 1000)
        let clocks = out.filter { $0.1 == [0xF8] }.map(\.0)
        #expect(clocks.count == 6 * 64)
        for (k, f) in clocks.enumerated() {
            #expect(f == 1000 + UInt64((Double(k) * 48000 * 60 / (133 * 24) + 0.5).rounded(.down)))
        }
    }

    @Test("Stop on the frame the music ends, after the last clock; none without a clock")
    func stopAtTheEnd() {
        let pattern = Song(name: "s", bpm: 151.5, length: 8, tracks: [.melody: [SongNote(step: 7, pitch: 60, length: 1)]])
        for clock in [true, false] {
            var sequencer = version1(pattern, rate: 48000)
            var scheduler = MidiOutScheduler(clock: clock)
            scheduler.announce(step: 0, resume: false)
            scheduler.add(sequencer.spans(forSteps: 0..<8), steps: 0..<8, song: &sequencer)
            let end = sequencer.frame(ofStep: 8)
            scheduler.end(atFrame: end)
            var out: [(UInt64, [UInt8])] = []
            try? scheduler.flush(before: UInt64.max) { bytes, frame in out.append((frame, bytes)) }
            let stops = out.filter { $0.1 == [0xFC] }.map(\.0)
            #expect(stops == (clock ? [end] : []))
            if clock, let last = out.last(where: { $0.1 == [0xF8] }) { #expect(last.0 < end) }
        }
    }

    @Test("tracks on channels 1, 2, 3, 10 with the export's velocities; a key struck again ends its note first")
    func notes() {
        let pattern = Song(
            name: "n", bpm: 120, length: 16,
            tracks: [
                .melody: [
                    SongNote(step: 0, pitch: 60, velocity: .sustain, length: 4), SongNote(step: 2, pitch: 60, velocity: .accent)
                ],
                .chords: [SongNote(step: 0, pitch: 64)], .bass: [SongNote(step: 0, pitch: 36)],
                .rhythm: [SongNote(step: 0, pitch: 36, velocity: .accent, length: 2)]
            ])
        let out = midi(pattern, steps: 0..<16, clock: false)
        let ons = out.filter { $0.1[0] & 0xF0 == 0x90 }
        #expect(Set(ons.map { $0.1[0] }) == [0x90, 0x91, 0x92, 0x99])
        #expect(ons.contains { $0.1 == [0x90, 60, 108] } && ons.contains { $0.1 == [0x90, 60, 120] })
        let step = 48000 * 60 / (120.0 * 4)
        // The sustained C4 is cut where the accent strikes the key again: off, then on, on that frame.
        let strike = 1000 + UInt64(2 * step)
        let there = out.filter { $0.0 == strike }.map(\.1)
        #expect(there == [[0x80, 60, 0x40], [0x90, 60, 120]])
        // The drum's note-off after its gate, 0.8 x 2 steps.
        #expect(out.contains { $0.0 == 1000 + UInt64((1.6 * step).rounded()) && $0.1 == [0x89, 36, 0x40] })
        // Every note-on ends; no note-off is sent twice.
        var on = Set<[UInt8]>()
        for (_, b) in out where b.count == 3 {
            if b[0] & 0xF0 == 0x90 { on.insert([b[0] & 0x0F, b[1]]) } else { #expect(on.remove([b[0] & 0x0F, b[1]]) != nil) }
        }
        #expect(on.isEmpty)
    }

    @Test("on a frame where a sounding key is struck again beside a new one, every note-off goes first")
    func noteOffsFirstOnAFrame() {
        let pattern = Song(
            name: "f", bpm: 120, length: 16,
            tracks: [
                .melody: [
                    SongNote(step: 0, pitch: 60, velocity: .sustain, length: 4), SongNote(step: 2, pitch: 55),
                    SongNote(step: 2, pitch: 60)
                ]
            ])
        let out = midi(pattern, steps: 0..<16, clock: false)
        let strike = 1000 + UInt64(2 * 48000 * 60 / (120.0 * 4))
        // G3 is struck first, then C4 again: the cut of C4 comes before both note-ons.
        #expect(out.filter { $0.0 == strike }.map(\.1) == [[0x80, 60, 0x40], [0x90, 55, 96], [0x90, 60, 96]])
    }

    @Test("a full output queue keeps the rest for the next flush: nothing lost, nothing sent twice")
    func fullQueue() {
        let pattern = Song(
            name: "q", bpm: 120, length: 16,
            tracks: [.melody: (0..<16).map { SongNote(step: $0, pitch: 60 + $0 % 3) }, .rhythm: [SongNote(step: 0, pitch: 36)]])
        let whole = midi(pattern, steps: 0..<16, clock: true)
        var sequencer = version1(pattern, rate: 48000)
        var scheduler = MidiOutScheduler(clock: true)
        scheduler.announce(step: 0, resume: false)
        scheduler.add(sequencer.spans(forSteps: 0..<16), steps: 0..<16, song: &sequencer)
        var out: [(UInt64, [UInt8])] = []
        var flushes = 0
        while scheduler.nextFrame != nil && flushes < 10_000 {
            var room = 3   // the output takes three messages, then is full until the next flush
            try? scheduler.flush(before: UInt64.max) { (bytes: [UInt8], frame: UInt64) throws(AudioError) in
                guard room > 0 else { throw .queueFull("the output is full") }
                room -= 1
                out.append((frame, bytes))
            }
            flushes += 1
        }
        #expect(flushes > 1)
        #expect(out.map(\.0) == whole.map(\.0) && out.map(\.1) == whole.map(\.1))
    }

    @Test("every note the song plays on its frame, channel and velocity; six straight clocks a step at each entry's tempo")
    func songMidi() throws {
        let song = PatternTransportSongTests.song
        var sequencer = SongSequencer(song: song, sampleRate: 48000, loops: 1, seed: nil, startFrame: 1000)
        let total = sequencer.totalSteps!
        var scheduler = MidiOutScheduler(clock: true)
        scheduler.announce(step: 0, resume: false)
        let spans = sequencer.spans(forSteps: 0..<total)
        scheduler.add(spans, steps: 0..<total, song: &sequencer)
        var out: [(UInt64, [UInt8])] = []
        try scheduler.flush(before: UInt64.max) { bytes, frame in out.append((frame, bytes)) }
        #expect(out.first.map { $0.0 == 1000 && $0.1 == [0xFA] } == true)
        let ons = out.filter { $0.1.count == 3 && $0.1[0] & 0xF0 == 0x90 }
        #expect(ons.count == spans.count)
        for s in spans {
            let status = 0x90 | MidiFileWriter.channel(s.hit.track)
            #expect(
                ons.contains { $0.0 == s.on && $0.1 == [status, UInt8(s.hit.pitch), MidiFileWriter.velocity(s.hit.velocity)] })
        }
        let clocks = out.filter { $0.1 == [0xF8] }.map(\.0)
        #expect(clocks.count == 6 * total)
        // Entry B (200 BPM) starts on step 12: its clocks are 48000 x 60 / (200 x 24) frames apart, from its start.
        let bStart = sequencer.frame(ofStep: 12)
        for c in 0..<(6 * 8) {
            #expect(clocks[6 * 12 + c] == bStart + UInt64((Double(c) * 48000 * 60 / (200 * 24) + 0.5).rounded(.down)))
        }
        // Swing moves notes, never the clock: A's clocks at 180 BPM are straight from its start.
        for c in 0..<(6 * 6) {
            #expect(clocks[c] == 1000 + UInt64((Double(c) * 48000 * 60 / (180 * 24) + 0.5).rounded(.down)))
        }
    }

    @Test(
        "a version-2 song's run starts with each track's Program Change, volume and pan, as its .mid; a version-1 pattern's with none"
    )
    func channelSetup() throws {
        var song = PatternTransportSongTests.song
        song.instruments[.melody, default: Instrument()].level = 0.5
        song.instruments[.melody, default: Instrument()].pan = -1
        var sequencer = SongSequencer(song: song, sampleRate: 48000, loops: 1, startFrame: 1000)
        var scheduler = MidiOutScheduler(clock: true, song: song)
        scheduler.announce(step: 0, resume: false)
        scheduler.add(sequencer.spans(forSteps: 0..<4), steps: 0..<4, song: &sequencer)
        var out: [(UInt64, [UInt8])] = []
        try scheduler.flush(before: UInt64.max) { bytes, frame in out.append((frame, bytes)) }
        // The tracks with notes (melody, bass, rhythm), in track order, after Start and before the clock.
        let setup: [[UInt8]] = [
            [0xC0, 73], [0xB0, 7, 50], [0xB0, 10, 1],
            [0xC2, Instrument.Voice(rawValue: "pluck")!.midiProgram], [0xB2, 7, 100], [0xB2, 10, 64],
            [0xB9, 7, 100], [0xB9, 10, 64]
        ]
        #expect(out.prefix(1 + setup.count).map(\.1) == [[0xFA]] + setup)
        #expect(out.prefix(1 + setup.count).allSatisfy { $0.0 == 1000 })
        // The same bytes the .mid export writes on tick 0 of those tracks.
        let file = [UInt8](MidiFileWriter.data(for: song))
        for message in setup { #expect(file.firstRange(of: [0x00] + message) != nil, "\(message) in the .mid") }
        // Resuming sends it again; a version-1 pattern sends none (its .mid has no mix).
        scheduler.reset()
        scheduler.announce(step: 4, resume: true)
        scheduler.add(sequencer.spans(forSteps: 4..<5), steps: 4..<5, song: &sequencer)
        var resumed: [[UInt8]] = []
        try scheduler.flush(before: UInt64.max) { bytes, _ in resumed.append(bytes) }
        #expect(Array(resumed.dropFirst(2).prefix(setup.count)) == setup)
        var plain = SongSequencer(song: Song(version1: Song(name: "p")), sampleRate: 48000, loops: 1)
        var v1 = MidiOutScheduler(clock: false, song: plain.song)
        v1.announce(step: 0, resume: false)
        v1.add(plain.spans(forSteps: 0..<16), steps: 0..<16, song: &plain)
        #expect(v1.nextFrame == nil)
    }
}
