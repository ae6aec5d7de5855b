import Testing

@testable import PixelBoopCore

/// The redrawable block of lines under `boop play`: each frame moves up over the previous one
/// (CSI n F) and clears every line to its end (CSI K); after a resume it starts a new block; and
/// each line is cut to the terminal's width less one, its escape sequences taking no room.
@Suite("LineView")
struct LineViewTests {
    @Test("the first frame draws, the next moves up over as many lines as were drawn")
    func frames() {
        var view = LineView()
        #expect(view.frame(["a", "b"]) == "a\u{1B}[K\nb\u{1B}[K\n")
        #expect(view.frame(["c", "d", "e"]) == "\u{1B}[2Fc\u{1B}[K\nd\u{1B}[K\ne\u{1B}[K\n")
        #expect(view.frame(["f"]) == "\u{1B}[3Ff\u{1B}[K\n")
        #expect(view.frame([]) == "\u{1B}[1F")
        #expect(view.frame(["g"]) == "g\u{1B}[K\n")   // nothing drawn last time: nothing to move over
    }

    @Test("after a resume (a new count) the next frame starts a new block")
    func resume() {
        var view = LineView(resumeCount: 3)
        _ = view.frame(["a", "b"], resumeCount: 3)
        #expect(view.frame(["c"], resumeCount: 3).hasPrefix("\u{1B}[2F"))
        #expect(view.frame(["d"], resumeCount: 4) == "d\u{1B}[K\n")
        #expect(view.frame(["e"], resumeCount: 4).hasPrefix("\u{1B}[1F"))
    }

    @Test("lines cut to the width less one, so none wraps")
    func columns() {
        var view = LineView()
        #expect(view.frame(["abcdefgh"], columns: 5) == "abcd\u{1B}[0m\u{1B}[K\n")
        var other = LineView()
        #expect(other.frame(["abcd"], columns: 5) == "abcd\u{1B}[K\n")   // fits: untouched
        var narrow = LineView()
        #expect(narrow.frame(["abc"], columns: 1) == "a\u{1B}[0m\u{1B}[K\n")   // at least one character
    }

    @Test("escape sequences take no room and are kept; a cut line ends with an attribute reset")
    func clipped() {
        let line = "\u{1B}[7mAB\u{1B}[0mCD\u{1B}[1;31mEF"
        #expect(LineView.clipped(line, to: 3) == "\u{1B}[7mAB\u{1B}[0mC\u{1B}[0m")
        #expect(LineView.clipped(line, to: 6) == line)
        #expect(LineView.clipped("♪é日本", to: 2) == "♪é\u{1B}[0m")
        #expect(LineView.clipped("", to: 0) == "")
        #expect(LineView.clipped("x", to: 0) == "\u{1B}[0m")
    }
}
