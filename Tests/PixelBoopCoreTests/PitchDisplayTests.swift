import Foundation
import Testing

@testable import PixelBoopCore

/// What `train match` shows of the sung pitch: the needle (cents from the target over a window of
/// 18 readings, 20 cells of 2.5 cents each side, an arrow past the end) and the sparkline of a held
/// note (levels of 12.5 cents around the target, the drift from its first quarter to its last).
@Suite("Pitch display")
struct PitchDisplayTests {
    static func hz(_ cents: Double, from target: Double) -> Double { target * pow(2, cents / 1200) }

    @Test("the needle's line: 55 columns, a centred bar of 41 cells, one # per 2.5 cents")
    func line() {
        let centre = TargetNeedle.line(cents: 0)
        #expect(centre == "    +0.0 c  [" + String(repeating: " ", count: 20) + "|" + String(repeating: " ", count: 20) + "]")
        #expect(centre.count == 12 + 1 + 2 * TargetNeedle.half + 1 + 1)
        let flat = TargetNeedle.line(cents: -22.4)   // 8.96 cells: 9
        #expect(
            flat == "   -22.4 c  [" + String(repeating: " ", count: 11) + String(repeating: "#", count: 9) + "|"
                + String(repeating: " ", count: 20) + "]")
        let sharp = TargetNeedle.line(cents: 5)
        #expect(sharp.hasSuffix("|##" + String(repeating: " ", count: 18) + "]"))
        #expect(TargetNeedle.line(cents: 1).hasSuffix("|" + String(repeating: " ", count: 20) + "]"))   // 0.4 cell: none
    }

    @Test("past the bar's end: the full bar and an arrow that way")
    func arrows() {
        let up = TargetNeedle.line(cents: 80)
        #expect(up.hasSuffix("|" + String(repeating: "#", count: 20) + ">"))
        let down = TargetNeedle.line(cents: -300)
        #expect(down.hasSuffix("<" + String(repeating: "#", count: 20) + "|" + String(repeating: " ", count: 20) + "]"))
        #expect(TargetNeedle.line(cents: 50).hasSuffix(String(repeating: "#", count: 20) + "]"))   // exactly the end
    }

    @Test("the needle averages the last 18 voiced readings, and shows nothing before the first")
    func averaging() throws {
        var needle = TargetNeedle(target: 440)
        #expect(needle.reading(nil) == nil)
        #expect(needle.reading(0) == nil)
        for _ in 0..<18 { _ = needle.reading(Self.hz(-40, from: 440)) }
        let full = needle.reading(nil)
        #expect(try #require(full).hasPrefix("   -40.0 c"))
        // Nine readings at +20 replace half the window: (9 x -40 + 9 x 20) / 18 = -10.
        var last: String?
        for _ in 0..<9 { last = needle.reading(Self.hz(20, from: 440)) }
        #expect(try #require(last).hasPrefix("   -10.0 c"))
    }

    @Test("the sparkline: one level per 12.5 cents, ▄ just under the target and ▅ just over it")
    func levels() throws {
        let target = 220.0
        let t = 1200 * log2(target / 440)   // cents from A4
        let curve = [-60.0, -30, -10, 5, 20, 45].flatMap { [Double](repeating: t + $0, count: 4) }
        let line = try #require(PitchCurve.sparkline(curve, target: target, width: 6))
        #expect(line.hasPrefix("▁▂▄▅▆█"))
        // Drift: the last quarter (6 readings) minus the first: (2 x 20 + 4 x 45) / 6 - (4 x -60 + 2 x -30) / 6.
        let last: Double = (2 * 20.0 + 4 * 45) / 6
        let first: Double = (4 * -60.0 + 2 * -30) / 6
        let drift = last - first
        #expect(line.hasSuffix(String(format: " drift %+.0f c", drift)))
    }

    @Test("a note sung an octave up is measured against the target an octave up; too short a curve has no line")
    func octaveAndShort() throws {
        let target = 440.0
        let line = try #require(PitchCurve.sparkline([Double](repeating: 1200, count: 8), target: target, octave: 1))
        #expect(line == "▅▅▅▅▅▅▅▅ drift +0 c")
        #expect(PitchCurve.sparkline([0, 0, 0], target: target) == nil)
        // At most `width` columns, each the mean of its share of readings.
        let long = try #require(PitchCurve.sparkline([Double](repeating: 0, count: 1000), target: target, width: 40))
        #expect(long.hasPrefix(String(repeating: "▅", count: 40) + " "))
    }

    @Test("the needle shows cents from the target, not from the nearest note, within 80 columns")
    func fromTarget() throws {
        // F4 sung 22 cents flat for a target of F#4: -122 cents from the target (F4 -22 from F4).
        let target = 440 * pow(2, -3.0 / 12)
        var needle = TargetNeedle(target: target)
        let shown = needle.reading(target * pow(2, -122.0 / 1200))
        let line = try #require(shown)
        #expect(line.hasPrefix("  -122.0 c"))
        #expect(line.contains("<####") && line.hasSuffix("]"))   // beyond 50 cents flat: the arrow at the left
        #expect(line.count < 80)
    }

    @Test("the needle averages over a vibrato cycle: ±40 cents at 5.5 Hz around -10 reads about -10")
    func smoothed() throws {
        let target = 261.63
        var needle = TargetNeedle(target: target)
        var last = ""
        for k in 0..<200 {
            let c = -10 + 40 * sin(2 * .pi * 5.5 * Double(k) / 100)
            last = needle.reading(target * pow(2, c / 1200)) ?? last
        }
        let shown = try #require(Double(last.split(separator: " ")[0]))
        #expect(abs(shown + 10) < 4, "\(last)")
        #expect(last.count < 80)
        let centre = try #require(last.firstIndex(of: "|"))
        #expect(last[last.index(before: centre)] == "#")   // flat: the bar grows to the left
    }

    @Test("the curve: a note sagging 50 cents shows its drift; one held on the target shows none")
    func sparkline() throws {
        let target = 440.0
        let sag = (0..<100).map { -50.0 * Double($0) / 99 }
        let line = try #require(PitchCurve.sparkline(sag, target: target))
        #expect(line.hasSuffix("drift -38 c") || line.hasSuffix("drift -37 c"), "\(line)")
        #expect(line.first == "▄" && line.contains("▁"))
        let held = try #require(PitchCurve.sparkline([Double](repeating: 1, count: 60), target: target))
        #expect(held.hasSuffix("drift +0 c") && held.hasPrefix("▅▅▅"))
        // Sung an octave below: drawn against the target in that octave.
        let low = try #require(PitchCurve.sparkline([Double](repeating: -1201, count: 60), target: target, octave: -1))
        #expect(low.hasPrefix("▄▄▄"))
        #expect(line.count < 60)
    }
}
