import Foundation
import Testing

@testable import PixelBoopCore

/// A note under a Scala tuning: the key a name spells sounds at the tuning's frequency for that
/// key times 2^(cents / 1200); a frequency is only shifted; an unmapped key or a result outside
/// 20 ... 20000 Hz is refused naming the note, its key and the scale file.
@Suite("NoteSpec under a tuning")
struct NoteSpecTuningTests {
    /// A tuning whose key k sounds at 100 + k Hz, key 61 unmapped.
    static func tuning() -> ScalaTuning {
        var keys = (0..<128).map { 100 + Double($0) }
        keys[61] = 0
        return ScalaTuning(
            scalePath: "/some/folder/odd.scl", mappingPath: nil, description: "odd", degreeCount: 128, keyHz: keys,
            texts: [], mappingLength: nil)
    }

    @Test("a name sounds at its key's frequency, shifted by its cents and the extra cents")
    func names() throws {
        let t = Self.tuning()
        #expect(try NoteSpec.parse("C4").frequency(tuning: t) == 160)
        #expect(try NoteSpec.parse("A4").frequency(tuning: t) == 169)
        let up = try NoteSpec.parse("C4+50c").frequency(tuning: t, extraCents: 50)
        #expect(abs(up - 160 * pow(2, 100.0 / 1200)) < 1e-9)
        let down = try NoteSpec.parse("C4").frequency(tuning: t, extraCents: -1200)
        #expect(abs(down - 80) < 1e-9)
    }

    @Test("a frequency ignores the tuning: only the extra cents move it")
    func frequencies() throws {
        let t = Self.tuning()
        #expect(try NoteSpec.parse("440Hz").frequency(tuning: t) == 440)
        #expect(abs(try NoteSpec.parse("440Hz").frequency(tuning: t, extraCents: 1200) - 880) < 1e-9)
    }

    @Test("an unmapped key and a result out of range are refused naming the key and the scale file")
    func refusals() throws {
        let t = Self.tuning()
        do {
            _ = try NoteSpec.parse("C#4").frequency(tuning: t)
            Issue.record("accepted")
        } catch {
            #expect("\(error)".includes("C#4 (key 61) in odd.scl"))
            #expect("\(error)".includes("unmapped"))
        }
        do {
            _ = try NoteSpec.parse("C4").frequency(tuning: t, extraCents: 12000)
            Issue.record("accepted")
        } catch { #expect("\(error)".includes("(key 60) in odd.scl")) }
    }
}
