import Foundation
import Testing

@testable import PixelBoopCore

/// The groove keys on the model: swing, probability, condition and ratchet, each one undo step,
/// saved as the song format holds them; and what the loop plays (`G`).
@Suite("Editor model: groove and the chain loop")
struct EditorModelGrooveTests {
    @Test("f/F, a/A, z/Z, r/R: each change one undo step, clamped, on the note under the cursor or the block")
    func grooveKeys() throws {
        var m = EditorModel(version1: Song(name: "g"))
        m.toggle()
        m.changeProbability(by: -10)
        m.changeProbability(by: -10)
        m.cycleCondition(by: 1)
        m.cycleCondition(by: -1)
        m.cycleCondition(by: -1)   // back round to the last: !NEI
        m.changeRatchet(by: 1)
        for _ in 0..<5 { m.changeRatchet(by: 1) }   // at most 4
        m.changeSwing(by: 5)
        for _ in 0..<9 { m.changeSwing(by: 5) }   // at most 75
        let n = try #require(m.songNoteUnderCursor)
        #expect(n.probability == 80 && n.condition == SongNote.Condition(.neighbour, negated: true) && n.ratchet == 4)
        #expect(m.swing == 75 && m.songPattern.swing == 75)
        #expect(EditorModel.grooveText(n) == "80% !NEI x4")
        #expect(!m.savesVersion1)
        // 1 note + 2 probabilities + 3 conditions + 3 ratchets (2...4) + 5 swings (55...75, the rest clamped).
        var undos = 0
        while m.canUndo {
            m.undo()
            undos += 1
        }
        #expect(undos == 1 + 2 + 3 + 3 + 5)
        #expect(m.song.patterns[0].tracks.isEmpty && m.song.patterns[0].swing == nil)
    }

    @Test("a ratchet is refused on a longer note; a block's notes change together in one step")
    func ratchetAndBlock() {
        var m = EditorModel(version1: Song(name: "g"))
        m.toggle()
        m.changeLength(by: 1)
        m.changeRatchet(by: 1)
        #expect(m.songNoteUnderCursor?.ratchet == 1 && m.message?.contains("one step") == true)
        m.move(steps: 4)
        m.toggle()
        m.move(steps: 1)
        m.toggle()
        m.move(steps: -5)
        m.toggleBlock()
        m.move(steps: 5)
        m.toggleBlock()
        let before = m.undoStack.count
        m.changeProbability(by: -50)
        #expect(m.undoStack.count == before + 1)
        #expect(m.songPattern.notes(.melody).allSatisfy { $0.probability == 50 })
    }

    @Test("the loop plays the pattern on the grid, or with G the whole chain, through the song's timeline")
    func audibleSong() {
        var m = EditorModel(version1: Song(name: "g"))
        m.addPattern(clone: false)
        #expect(m.audibleSong.chain == [ChainEntry(pattern: m.songPattern.name)])
        m.playsChain = true
        #expect(m.audibleSong == m.song && m.audibleSong.chain.count == 2)
    }

    @Test("p in the chain plays from the cursor's entry, v v loops a range; the heard entry counts in the whole chain")
    func chainRange() {
        var m = EditorModel(version1: Song(name: "g"))
        m.addPattern(clone: false)
        m.addPattern(clone: false)
        m.addPattern(clone: false)
        let names = m.song.chain.map(\.pattern)
        m.chainIndex = 1
        m.playChain(fromEntry: 1)
        #expect(m.playsChain && m.audibleSong.chain.map(\.pattern) == Array(names[1...]))
        m.heard = SongPosition(entry: 0, pattern: 1, step: 0, bpm: 120)
        #expect(m.heardEntry == 1)
        m.chainIndex = 3
        m.markChainRange()
        m.chainIndex = 2
        m.markChainRange()
        #expect(m.chainRange == 2...3 && m.audibleSong.chain.map(\.pattern) == Array(names[2...3]))
        // A shorter chain keeps the range inside it.
        m.song.chain.removeLast(2)
        #expect(m.playedRange == 1...1)
    }

    @Test("p loops the pattern as its chain entry plays it: the entry's tempo and transpose, shown on the status line")
    func patternLoopAtTheEntrysTempo() {
        var m = EditorModel(version1: Song(name: "g"))
        m.song.chain[0].bpm = 128
        m.song.chain[0].transpose = 3
        m.song.chain[0].repeats = 4
        #expect(m.audibleSong.chain == [ChainEntry(pattern: m.songPattern.name, repeats: 1, bpm: 128, transpose: 3)])
        #expect(m.loopBPM == 128 && m.song.bpm == 120)
        let line = EditorView(colorMode: .truecolor).statusText(
            model: m, playing: false, sound: .silent("no sound"), name: "g.json", width: 120)
        #expect(line.contains("128 BPM (entry)"), "\(line)")
    }

    @Test("Q: fill mode makes every entry the loop plays a fill, and leaves the song as it is")
    func fillMode() {
        var m = EditorModel(version1: Song(name: "g"))
        m.addPattern(clone: false)
        #expect(!m.audibleSong.chain.contains { $0.fill })
        m.fillMode = true
        #expect(m.audibleSong.chain.allSatisfy(\.fill) && !m.song.chain.contains { $0.fill })
        m.playsChain = true
        #expect(m.audibleSong.chain.count == 2 && m.audibleSong.chain.allSatisfy(\.fill))
    }
}
