import Foundation
import Testing

@testable import PixelBoopCore

// MARK: - Analysis helpers (tone-specific; kept here so the suite stands alone)

/// Least-squares sinusoid fit (Gauss-Newton on the frequency): resolves far below 0.001 cent on
/// the rendered float samples, so tuning is judged on what the engine produced.
private func fittedFrequency(_ x: [Float], rate: Double, range: Range<Int>, guess: Double) -> Double {
    let centre = Double(range.lowerBound + range.upperBound - 1) / 2
    var w = 2 * Double.pi * guess / rate
    var a = 0.0
    var b = 0.0
    for pass in 0..<10 {
        var m = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 4)
        var v = [Double](repeating: 0, count: 4)
        for n in range {
            let t = Double(n) - centre
            let c = cos(w * t)
            let s = sin(w * t)
            let g = [c, s, 1, pass > 0 ? t * (-a * s + b * c) : 0]
            let y = Double(x[n])
            for i in 0..<4 {
                v[i] += g[i] * y
                for j in 0..<4 { m[i][j] += g[i] * g[j] }
            }
        }
        if pass == 0 {
            m[3][3] = 1
            v[3] = 0
        }
        // Gaussian elimination (4 x 4, well conditioned).
        for c in 0..<4 {
            let p = (c..<4).max { abs(m[$0][c]) < abs(m[$1][c]) }!
            m.swapAt(c, p)
            v.swapAt(c, p)
            for r in (c + 1)..<4 {
                let f = m[r][c] / m[c][c]
                for k in c..<4 { m[r][k] -= f * m[c][k] }
                v[r] -= f * v[c]
            }
        }
        for c in stride(from: 3, through: 0, by: -1) {
            var s = v[c]
            for k in (c + 1)..<4 { s -= m[c][k] * v[k] }
            v[c] = s / m[c][c]
        }
        a = v[0]
        b = v[1]
        w += v[3]
        if pass > 0 && abs(v[3]) < 1e-13 * w { break }
    }
    return w * rate / (2 * Double.pi)
}

private func energy(_ x: [Double], _ r: Range<Int>) -> Double { r.reduce(0) { $0 + x[$1] * x[$1] } }
private func energy(_ x: [Float], _ r: Range<Int>) -> Double { r.reduce(0) { $0 + Double(x[$1]) * Double(x[$1]) } }

private func render(_ frequencies: [Double], duration: Double = 0.5, gap: Double = 0.25, rate: Double = 44100) throws -> (
    [Float], ToneSequence
) {
    let sequence = try ToneSequence(frequencies: frequencies, duration: duration, gap: gap, sampleRate: rate)
    return (try ToneRenderer(sequence: sequence).renderSamples(), sequence)
}

private func cents(_ measured: Double, _ expected: Double) -> Double { 1200 * log2(measured / expected) }

// MARK: - Note names

@Suite("Note names, cents and frequencies")
struct NoteNameTests {
    @Test(
        "names parse to the right MIDI numbers",
        arguments: [
            ("A4", 69), ("C4", 60), ("C#5", 73), ("Bb2", 46), ("E#3", 53), ("Fb4", 64), ("B#3", 60), ("Cb4", 59),
            ("C-1", 0), ("G9", 127), ("a4", 69), ("bb2", 46), ("F##3", 55), ("Dbb4", 60), ("C♯4", 61), ("E♭4", 63),
            ("A0", 21), ("C8", 108)
        ])
    func midi(text: String, midi: Int) throws {
        #expect(NoteName(text)?.midi == midi)
        guard case .note(let name, let c) = try NoteSpec.parse(text) else {
            Issue.record("\(text) not a note")
            return
        }
        #expect(name.midi == midi)
        #expect(c == 0)
    }

    @Test("every MIDI number's name round-trips, in sharps and in flats")
    func roundTripNames() {
        for m in 0...127 {
            for flats in [false, true] {
                let name = NoteName(midi: m, preferFlats: flats)
                #expect(name.midi == m)
                #expect(NoteName(name.description) == name, "\(name)")
            }
        }
        #expect(NoteName(midi: 61).description == "C#4")
        #expect(NoteName(midi: 61, preferFlats: true).description == "Db4")
        #expect(NoteName(midi: 0).description == "C-1")
    }

    @Test(
        "cents suffixes and frequencies round-trip through their spelling",
        arguments: [
            "A4", "C4+12.5c", "C4-3c", "Bb2+0.001c", "F#6-49.99c", "A4+100c", "440Hz", "440.5Hz", "27.5Hz", "19999.99Hz"
        ])
    func roundTripSpecs(text: String) throws {
        let spec = try NoteSpec.parse(text)
        #expect(spec.description == text)
        #expect(try NoteSpec.parse(spec.description) == spec)
    }

    @Test("spellings that mean the same parse the same")
    func equivalents() throws {
        #expect(try NoteSpec.parse("440hz") == .frequency(440))
        #expect(try NoteSpec.parse("440HZ") == .frequency(440))
        #expect(try NoteSpec.parse("0440.50Hz") == .frequency(440.5))
        #expect(try NoteSpec.parse("C4+12.50c") == .note(NoteName("C4")!, cents: 12.5))
        #expect(try NoteSpec.parse("c4-.5c") == .note(NoteName("C4")!, cents: -0.5))
        #expect(try NoteSpec.parse("A4+0c") == .note(NoteName("A4")!, cents: 0))
    }

    @Test(
        "non-notes are rejected with a message that says what is accepted",
        arguments: [
            "H9", "A4+x", "", "A", "4", "A44", "A10", "A4+3", "A4 +3c", "A4+3 c", "A4c", "A4+-3c", "A#b4", "Abbb4",
            "C-2", "440", "Hz", "nanHz", "infHz", "1e3Hz", "-440Hz", "+440Hz", "440 Hz", "440Hz+3c", "A4+3cents", "A4+3C",
            "X4", "A4.5", "A-4"
        ])
    func rejections(text: String) {
        #expect(throws: NoteParseError.self) { try NoteSpec.parse(text) }
        #expect(NoteParseError(text: text).description.contains("expected a note name"))
    }

    @Test(
        "frequencies outside 20...20000 Hz are invalidFrequency with the value in the message",
        arguments: [
            ("25000Hz", "25000"), ("5Hz", "5"), ("19.99Hz", "19.99"), ("20000.01Hz", "20000.01"), ("0Hz", "0")
        ])
    func outOfRangeFrequencies(text: String, value: String) {
        do {
            _ = try NoteSpec.parse(text)
            Issue.record("\(text) accepted")
        } catch let error as AudioError {
            guard case .invalidFrequency(let message) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message.hasPrefix("\(value) Hz"))
            #expect(message.contains("20...20000 Hz"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("Pitch.validated accepts the edges and rejects non-finite and out-of-range values")
    func validated() throws {
        #expect(try Pitch.validated(20) == 20)
        #expect(try Pitch.validated(20000) == 20000)
        for bad in [19.999, 20000.001, 0, -440, .nan, .infinity, -.infinity] {
            #expect(throws: AudioError.self) { try Pitch.validated(bad) }
            do { try Pitch.validated(bad) } catch {
                guard case .invalidFrequency(let message) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(message.contains(Pitch.formatHz(bad)), "\(message)")
            }
        }
        // Names whose frequency is out of range: the note spelling and the value in the message.
        #expect(
            throws: AudioError.invalidFrequency(
                "8.175798916 Hz (C-1 at A4 = 440 Hz): expected a finite frequency within 20...20000 Hz")
        ) {
            try NoteSpec.parse("C-1").frequency()
        }
        #expect(throws: AudioError.self) { try NoteSpec.parse("B9").frequency(extraCents: 500) }
        #expect(throws: AudioError.self) { try Pitch.validFrequency(midi: 0) }
        #expect(try Pitch.validFrequency(midi: 69, reference: 415) == 415)
    }

    @Test("MIDI + cents + reference -> Hz")
    func formula() throws {
        #expect(Pitch.frequency(midi: 69) == 440)
        #expect(abs(Pitch.frequency(midi: 60) - 261.6255653005986) < 1e-9)
        #expect(abs(Pitch.frequency(midi: 60, cents: 50) - 269.2917795) < 1e-6)
        #expect(Pitch.frequency(midi: 81, reference: 442) == 884)
        #expect(abs(try NoteSpec.parse("C4+12.5c").frequency() - 263.5214119) < 1e-6)
        #expect(try NoteSpec.parse("A4").frequency(reference: 415) == 415)
        #expect(abs(try NoteSpec.parse("1000Hz").frequency(extraCents: 1200) - 2000) < 1e-9)
        #expect(abs(cents(try NoteSpec.parse("A4-3c").frequency(reference: 466), 466) + 3) < 1e-9)
    }

    @Test("frequency -> nearest note and cents")
    func nearest() throws {
        let a = try Pitch.nearestNote(to: 440)
        #expect(a.note == NoteName("A4"))
        #expect(abs(a.cents) < 1e-9)
        let b = try Pitch.nearestNote(to: 1000)
        #expect(b.note == NoteName("B5"))
        #expect(abs(b.cents - 21.309485) < 1e-5)
        let c = try Pitch.nearestNote(to: Pitch.frequency(midi: 60, cents: -12.5))
        #expect(c.note == NoteName("C4"))
        #expect(abs(c.cents + 12.5) < 1e-9)
        let halfway = try Pitch.nearestNote(to: Pitch.frequency(midi: 60, cents: 50))
        #expect(halfway.note == NoteName("C#4"))
        #expect(abs(halfway.cents + 50) < 1e-9)
        #expect(try Pitch.nearestNote(to: 442, reference: 442).note == NoteName("A4"))
        #expect(try Pitch.nearestNote(to: 466.1637615, preferFlats: true).note == NoteName("Bb4"))
        #expect(throws: AudioError.self) { try Pitch.nearestNote(to: 10) }
        for m in 21...108 {
            let (note, off) = try Pitch.nearestNote(to: Pitch.frequency(midi: Double(m), cents: 7.25))
            #expect(note.midi == m)
            #expect(abs(off - 7.25) < 1e-9)
        }
    }
}

// MARK: - Rendered tones

@Suite("Sine tones rendered by the engine")
struct RenderedToneTests {
    @Test(
        "tuned within 0.01 cent on the rendered samples",
        arguments: [
            ("A4", 440.0), ("C4+12.5c", 440.0), ("1000Hz", 440.0), ("A4", 442.0), ("C8", 440.0), ("A0", 440.0),
            ("G#2-33.3c", 415.0), ("Eb7+49.99c", 466.0)
        ])
    func tuning(text: String, reference: Double) throws {
        let expected = try NoteSpec.parse(text).frequency(reference: reference)
        let (x, _) = try render([expected], duration: 0.6)
        let measured = fittedFrequency(x, rate: 44100, range: 882..<(26460 - 882), guess: expected)
        #expect(abs(cents(measured, expected)) < 0.01, "\(text) at \(reference): \(cents(measured, expected)) cent")
    }

    @Test("two tones 3 cents apart: right spacing, right interval, silence between")
    func sequence() throws {
        let f0 = 440.0
        let f1 = Pitch.frequency(midi: 69, cents: 3)
        let (x, seq) = try render([f0, f1], duration: 0.5, gap: 0.25)
        #expect(seq.onsetFrame(1) == 33075)   // 0.75 s: onset-to-onset = duration + gap
        // The first sample of each tone is sin(0) x 0; the next is already non-zero.
        for k in 0..<2 {
            let on = Int(seq.onsetFrame(k))
            let end = Int(seq.endFrame(k))
            #expect(x[on] == 0)
            #expect(x[on + 1] != 0)
            if on > 0 { #expect(x[(on - 100)..<on].allSatisfy { $0 == 0 }) }
            // Silent from the end frame on (the release ends there, give or take one frame).
            #expect(x[(end + 1)..<min(x.count, end + 100)].allSatisfy { $0 == 0 })
            #expect(abs(x[end - 1]) < 1e-4)
        }
        let m0 = fittedFrequency(x, rate: 44100, range: 882..<21168, guess: f0)
        let m1 = fittedFrequency(x, rate: 44100, range: 33957..<54243, guess: f1)
        #expect(abs(cents(m1, m0) - 3) < 0.01)
    }

    @Test("onsets stay on their absolute frames over a long sequence (no drift)")
    func noDrift() throws {
        // 0.1337 s is 5896.17 frames: rounding each step and adding would drift 34 frames by tone 199.
        let seq = try ToneSequence(
            frequencies: Array(repeating: 523.25, count: 200), duration: 0.1,
            gap: 0.0337, sampleRate: 44100)
        let x = try ToneRenderer(sequence: seq).renderSamples()
        for k in 0..<seq.count {
            let expected = Int((Double(k) * (0.1 + 0.0337) * 44100 + 0.5).rounded(.down))
            #expect(Int(seq.onsetFrame(k)) == expected)
            #expect(x[expected] == 0 && x[expected + 1] != 0)
            if k > 0 { #expect(x[expected - 1] == 0) }
        }
        #expect(Int(seq.onsetFrame(199)) == 1_173_338)
    }

    @Test("with no gap, tones abut without overlapping: the release is inside the duration")
    func abutting() throws {
        let seq = try ToneSequence(frequencies: [440, 660, 880], duration: 0.2, gap: 0, sampleRate: 44100)
        let events = seq.events
        for k in 0..<2 {
            #expect(seq.releaseFrame(k) < seq.onsetFrame(k + 1))
            let off = events.firstIndex { $0.tone == k && $0.kind == .off }!
            let nextOn = events.firstIndex { $0.tone == k + 1 && $0.kind != .off }!
            #expect(off < nextOn)
        }
        let x = try ToneRenderer(sequence: seq).renderSamples()
        // One voice at a time: never louder than one tone's peak (0.3).
        #expect(x.allSatisfy { abs($0) <= 0.30001 })
        let junction = Int(seq.onsetFrame(1))
        #expect(abs(x[junction - 2]) < 1e-5)
        #expect(abs(x[junction]) < 1e-5)
    }

    @Test("smooth edges: almost no energy above 3 kHz at onset and end of an A4")
    func smoothEdges() throws {
        let (x, seq) = try render([440], duration: 0.5, gap: 0)
        let hp = SignalAnalysis.highpass(x, rate: 44100, cutoff: 3000)
        let on = Int(seq.onsetFrame(0))
        let end = Int(seq.endFrame(0))
        let w = 882
        let onsetRatio = energy(hp, on..<(on + w)) / energy(x, on..<(on + w))
        let endRatio = energy(hp, (end - w)..<min(x.count, end + w)) / energy(x, (end - w)..<end)
        #expect(onsetRatio < 1e-6, "onset HF ratio \(onsetRatio)")
        #expect(endRatio < 1e-6, "end HF ratio \(endRatio)")
        // For scale: the same sine switched on and off abruptly.
        var gated = [Float](repeating: 0, count: x.count)
        for n in on..<end { gated[n] = 0.3 * Float(sin(2 * Double.pi * 440 * Double(n - on) / 44100 + 1)) }
        let gatedHP = SignalAnalysis.highpass(gated, rate: 44100, cutoff: 3000)
        let gatedRatio = energy(gatedHP, on..<(on + w)) / energy(gated, on..<(on + w))
        #expect(gatedRatio > 1000 * onsetRatio)
    }

    @Test("the same sequence renders the same samples")
    func deterministic() throws {
        let a = try render([440, 523.25], duration: 0.3).0
        let b = try render([440, 523.25], duration: 0.3).0
        #expect(a == b)
    }

    @Test("a sequence refuses bad durations, gaps and frequencies above half the rate")
    func sequenceValidation() {
        #expect(throws: AudioError.self) { try ToneSequence(frequencies: [440], duration: 0) }
        #expect(throws: AudioError.self) { try ToneSequence(frequencies: [440], duration: .nan) }
        #expect(throws: AudioError.self) { try ToneSequence(frequencies: [440], duration: 1, gap: -1) }
        #expect(throws: AudioError.self) { try ToneSequence(frequencies: [5000], sampleRate: 8000) }
        #expect(throws: AudioError.self) { try ToneSequence(frequencies: [25000], sampleRate: 96000) }
        #expect(throws: AudioError.self) { try ToneSequence(frequencies: [.nan]) }
        #expect((try? ToneSequence(frequencies: [440], duration: 1, gap: -0.5)) != nil)   // overlap, asked for
    }

    @Test("a render to a file leaves only the finished file")
    func file() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tone-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.wav").path
        let seq = try ToneSequence(frequencies: [440], duration: 0.1, gap: 0)
        let frames = try ToneRenderer(sequence: seq).render(to: path)
        #expect(frames == 4410 + 441)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.wav"])
        #expect(throws: CancellationError.self) {
            try ToneRenderer(sequence: seq).render(to: dir.appendingPathComponent("u.wav").path, shouldStop: { true })
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.wav"])
    }
}

// MARK: - The NotePlayer

@Suite("SineWaveNotePlayer (offline)")
struct SineWaveNotePlayerTests {
    @Test("is a NotePlayer; notes played in turn abut at exact frames and keep their pitch")
    func playInTurn() async throws {
        let player: any NotePlayer = try SineWaveNotePlayer.offline(sampleRate: 48000)
        try await player.play(frequency: 440, duration: 0.25)
        try await player.play(frequency: Pitch.frequency(midi: 69, cents: 3), duration: 0.25)
        try await player.stop()
        let x = (player as! SineWaveNotePlayer).renderedSamples
        #expect(x.count == 24000)
        #expect(x[0] == 0 && x[1] != 0)
        #expect(x[12000] == 0 && x[12001] != 0)
        #expect(x.allSatisfy { abs($0) <= 0.30001 })
        let a = fittedFrequency(x, rate: 48000, range: 960..<11040, guess: 440)
        let b = fittedFrequency(x, rate: 48000, range: 12960..<23040, guess: 440.76)
        #expect(abs(cents(a, 440)) < 0.01)
        #expect(abs(cents(b, a) - 3) < 0.01)
    }

    @Test("invalid frequencies and durations throw before anything sounds")
    func invalid() async throws {
        let player = try SineWaveNotePlayer.offline()
        for bad in [25000, 5, 0, -1, Double.nan, Double.infinity] {
            await #expect(throws: AudioError.self) { try await player.play(frequency: bad, duration: 0.1) }
        }
        await #expect(throws: AudioError.self) { try await player.play(frequency: 440, duration: 0) }
        await #expect(throws: AudioError.self) { try await player.play(frequency: 440, duration: -1) }
        #expect(player.renderedSamples.isEmpty)
        do {
            try await player.play(frequency: 25000, duration: 1)
        } catch let error as AudioError {
            #expect(error == .invalidFrequency("25000 Hz: expected a finite frequency within 20...20000 Hz"))
        }
    }

    @Test("rest inserts silence; the time base continues across takeRenderedSamples")
    func rest() async throws {
        let player = try SineWaveNotePlayer.offline()
        try await player.play(frequency: 440, duration: 0.1)
        try player.rest(seconds: 0.05)
        let first = player.takeRenderedSamples()
        #expect(first.count == 6615)
        #expect(first[4411...].allSatisfy { $0 == 0 })
        try await player.play(frequency: 440, duration: 0.1)
        #expect(player.renderedSamples.count == 4410)
    }

    @Test("a live player on a device that does not exist is deviceUnavailable")
    func missingDevice() {
        #expect {
            _ = try SineWaveNotePlayer.live(device: "no-such-device-xyz")
        } throws: { error in
            guard let error = error as? AudioError, case .deviceUnavailable = error else { return false }
            return true
        }
    }
}

// MARK: - Live (needs the private PulseAudio null sink: eval "$(scripts/pulse-null-sink.sh start)")

@Suite(
    "SineWaveNotePlayer (live, PulseAudio null sink)",
    .enabled(if: ProcessInfo.processInfo.environment["BOOP_PULSE_SINK"] != nil))
struct LiveSineWaveNotePlayerTests {
    @Test("play returns after the note; notes in turn do not overlap; stop makes a pending play return")
    func liveInTurn() async throws {
        let player = try SineWaveNotePlayer.live(device: "pulse")
        defer { player.close(drain: false) }
        let before = player.engineFrameClock
        let started = Date()
        try await player.play(frequency: 440, duration: 0.2)
        let first = try #require(player.lastNoteFrames)
        #expect(player.engineFrameClock >= first.end)   // returned after the note, not before
        try await player.play(frequency: 660, duration: 0.2)
        let second = try #require(player.lastNoteFrames)
        let took = Date().timeIntervalSince(started)
        // Within one period (plus the control thread's reading) of the call: the next block.
        #expect(first.onset - before <= 1024)
        #expect(first.end - first.onset == 8820)
        #expect(second.onset >= first.end)   // in turn: no overlap
        // Wall time only from below: under parallel CPU-bound tests this task's wake-ups can be
        // late (which delays the return, never the sound: a scheduler thread queues the events).
        #expect(took >= 0.39, "two 0.2 s notes took \(took) s")

        let long = Task { try await player.play(frequency: 440, duration: 5) }
        try await Task.sleep(nanoseconds: 200_000_000)
        let stopAt = Date()
        try await player.stop()
        try await long.value
        #expect(Date().timeIntervalSince(stopAt) < 4)   // returned on stop, not after 5 s

        let cancelled = Task { try await player.play(frequency: 440, duration: 5) }
        try await Task.sleep(nanoseconds: 100_000_000)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(player.playbackStats?.error == nil)
    }
}
