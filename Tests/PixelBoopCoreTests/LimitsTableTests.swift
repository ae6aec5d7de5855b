import CAudioEngine
import Testing

@testable import PixelBoopCore

/// The header's table of limits (CAudioEngineLimits.h, BOOP_LIMITS) as Swift reads it: every range
/// the song loader, the editor, MIDI and the training commands check is a row of it, and the rows
/// hold the numbers boop has always accepted.
struct LimitsTableTests {
    private func row(_ id: boop_limit_id) -> boop_limit { boop_limit_get(id) }

    @Test func everyRowIsARangeWithItsDefaultInside() {
        var names = Set<String>()
        for i in 0..<BOOP_LIMIT_COUNT.rawValue {
            let r = row(boop_limit_id(rawValue: i))
            let name = String(cString: r.name)
            #expect(!name.isEmpty && names.insert(name).inserted, "row \(i): \(name)")
            #expect(r.min < r.max && (r.min...r.max).contains(r.default_value), "\(name)")
            #expect(!String(cString: r.description).isEmpty, "\(name)")
        }
        #expect(String(cString: row(boop_limit_id(rawValue: BOOP_LIMIT_COUNT.rawValue)).name).isEmpty)
    }

    @Test func songRangesAreTheHeaders() {
        #expect(Instrument.widthRange == Limits.doubles(BOOP_LIMIT_INSTRUMENT_WIDTH))
        #expect(Instrument.secondsRange == Limits.doubles(BOOP_LIMIT_INSTRUMENT_ATTACK))
        #expect(Instrument.decayRange == Limits.doubles(BOOP_LIMIT_INSTRUMENT_DECAY))
        #expect(Instrument.releaseRange == Limits.doubles(BOOP_LIMIT_INSTRUMENT_RELEASE))
        #expect(Instrument.sustainRange == Limits.doubles(BOOP_LIMIT_INSTRUMENT_SUSTAIN))
        #expect(Instrument.cutoffRange == Limits.doubles(BOOP_LIMIT_INSTRUMENT_CUTOFF))
        #expect(Instrument.resonanceRange == Limits.doubles(BOOP_LIMIT_INSTRUMENT_RESONANCE))
        #expect(Instrument.panRange == Limits.doubles(BOOP_LIMIT_INSTRUMENT_PAN))
        #expect(Instrument.levelRange == Limits.doubles(BOOP_LIMIT_TRACK_LEVEL))
        #expect(SongPattern.lengths == Limits.ints(BOOP_LIMIT_PATTERN_STEPS))
        #expect(Song.maxPatterns == Int(row(BOOP_LIMIT_SONG_PATTERNS).max))
        #expect(Song.maxChain == Int(row(BOOP_LIMIT_SONG_CHAIN).max))
        #expect(Song.swingRange == Limits.doubles(BOOP_LIMIT_SONG_SWING))
        #expect(Song.repeatRange == Limits.ints(BOOP_LIMIT_CHAIN_REPEATS))
        #expect(ChainEntry.transposeRange == Limits.ints(BOOP_LIMIT_CHAIN_TRANSPOSE))
        #expect(SongNote.probabilities == Limits.ints(BOOP_LIMIT_NOTE_PROBABILITY))
        #expect(SongNote.ratchets == Limits.ints(BOOP_LIMIT_NOTE_RATCHET))
        #expect(Velocity.levels == Limits.ints(BOOP_LIMIT_MIDI_VELOCITY))
        #expect(Limits.midiNote == Limits.ints(BOOP_LIMIT_MIDI_NOTE))
        #expect(LiveSynth.channels == Limits.ints(BOOP_LIMIT_MIDI_CHANNEL))
        #expect(LiveSynth.bendRange == Limits.doubles(BOOP_LIMIT_SYNTH_BEND_RANGE))
    }

    @Test func trainingRangesAreTheHeaders() {
        #expect(Limits.trainGap == Limits.doubles(BOOP_LIMIT_TRAIN_GAP))
        #expect(PsiMethod.widestCents == row(BOOP_LIMIT_TRAIN_MAX_CENTS).max)
        #expect(IntervalRun.widestCents(semitones: 12) == row(BOOP_LIMIT_TRAIN_INTERVAL_CENTS).max)
        #expect(IntervalRun.defaultMaxCents == row(BOOP_LIMIT_TRAIN_INTERVAL_CENTS).default_value)
        #expect(PsiMethod.centsRange.upperBound == row(BOOP_LIMIT_TRAIN_MAX_CENTS).default_value)
        #expect(Limits.trainGapDefault == row(BOOP_LIMIT_TRAIN_GAP).default_value)
        #expect(Limits.trainReferenceDefault == row(BOOP_LIMIT_TRAIN_REFERENCE_HZ).default_value)
    }

    /// The table's defaults are the values the code takes when none is given (the engine's
    /// config, a song's fields, the live synth's bend, the training commands' sessions).
    @Test func defaultsAreTheOnesTaken() {
        let config = EngineConfiguration()
        #expect(config.sampleRate == row(BOOP_LIMIT_ENGINE_RATE).default_value)
        #expect(Double(config.voices) == row(BOOP_LIMIT_ENGINE_VOICES).default_value)
        #expect(Double(config.maxBlockFrames) == row(BOOP_LIMIT_BLOCK_FRAMES).default_value)
        #expect(Double(config.queueCapacity) == row(BOOP_LIMIT_QUEUE).default_value)
        #expect(Double(config.channels) == row(BOOP_LIMIT_CHANNELS).default_value)
        let song = Song(name: "s", patterns: [SongPattern(name: "p")])
        #expect(song.bpm == row(BOOP_LIMIT_TEMPO_BPM).default_value)
        #expect(song.swing == row(BOOP_LIMIT_SONG_SWING).default_value)
        #expect(Double(song.patterns[0].length) == row(BOOP_LIMIT_PATTERN_STEPS).default_value)
        #expect(Double(song.chain[0].repeats) == row(BOOP_LIMIT_CHAIN_REPEATS).default_value)
        #expect(Double(song.chain[0].transpose) == row(BOOP_LIMIT_CHAIN_TRANSPOSE).default_value)
        let inst = Instrument()
        #expect(inst.width == row(BOOP_LIMIT_INSTRUMENT_WIDTH).default_value)
        #expect(inst.level == row(BOOP_LIMIT_TRACK_LEVEL).default_value)
        #expect(inst.pan == row(BOOP_LIMIT_INSTRUMENT_PAN).default_value)
        #expect(LiveSynth.defaultBendRange == row(BOOP_LIMIT_SYNTH_BEND_RANGE).default_value)
        let note = SongNote(step: 0, pitch: 60)
        #expect(Double(note.probability) == row(BOOP_LIMIT_NOTE_PROBABILITY).default_value)
        #expect(Double(note.ratchet) == row(BOOP_LIMIT_NOTE_RATCHET).default_value)
    }

    /// The numbers themselves, as boop accepted them before the table: a row changed by mistake
    /// changes what files and flags are taken.
    @Test func theNumbersAreTheOnesBoopAccepts() {
        #expect(Instrument.widthRange == 0.05...0.95 && Instrument.secondsRange == 0...10)
        #expect(Instrument.cutoffRange == 20...20000 && Instrument.resonanceRange == 0.5...20)
        #expect(Instrument.sustainRange == 0...1 && Instrument.panRange == -1...1 && Instrument.levelRange == 0...2)
        #expect(Limits.midiNote == 0...127 && Velocity.levels == 1...127 && Limits.midiData == 0...127)
        #expect(Limits.text(Limits.trainGap) == "0...5" && Limits.text(Limits.trainReferenceHz) == "400...480")
        #expect(Limits.text(Limits.trainMaxCents) == "10...1200" && Limits.text(Limits.trainTrials) == "1...500")
        #expect(Limits.text(Limits.trainNoteSeconds) == "0.1...5" && Limits.trainIntervalCents.upperBound == 400)
        #expect(Limits.text(Limits.referenceHz) == "300...600" && Limits.text(Limits.cents) == "-1200...1200")
        #expect(Limits.ambientSeconds == 0.1...86400 && Limits.listenSeconds == 0.001...(86400 * 7))
        #expect(Song.swingRange == 50...75 && Song.repeatRange == 1...256 && ChainEntry.transposeRange == -24...24)
        #expect(SongPattern.lengths == 1...64 && Song.maxPatterns == 64 && Song.maxChain == 1024)
        #expect(SongNote.probabilities == 0...100 && SongNote.ratchets == 1...4)
        #expect(Limits.clamp(200, to: Limits.midiNote) == 127 && Limits.clamp(-3, to: Limits.midiVelocity) == 1)
    }
}
