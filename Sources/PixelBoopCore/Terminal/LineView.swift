/// A redrawable block of lines at the bottom of a terminal (boop play's playhead). Each frame moves
/// the cursor back up over the previous one and clears each line to its end — no full-screen
/// clear, so nothing flickers. After a stop (Ctrl-Z, then `fg`) the next frame starts a new block
/// below what the shell printed instead of moving up over it.
///
/// Each line is cut to the terminal's width: a line that wrapped would take two rows while the
/// next frame moves up by one per line, so every refresh would leave a row behind.
public struct LineView: Sendable {
    private var linesDrawn = 0
    private var resumes: UInt32

    /// `resumeCount`: the session's count now (TerminalSession.resumeCount; 0 without one).
    public init(resumeCount: UInt32 = 0) { resumes = resumeCount }

    /// The bytes of one frame of `lines`, each cut to `columns` - 1 (nil: no limit).
    public mutating func frame(_ lines: [String], resumeCount: UInt32 = 0, columns: Int? = nil) -> String {
        if resumeCount != resumes {
            resumes = resumeCount
            linesDrawn = 0
        }
        var out = linesDrawn > 0 ? "\u{1B}[\(linesDrawn)F" : ""
        for line in lines {
            out += (columns.map { Self.clipped(line, to: max(1, $0 - 1)) } ?? line) + "\u{1B}[K\n"
        }
        linesDrawn = lines.count
        return out
    }

    /// `line` cut after `width` visible characters; escape sequences (ESC [ ... final byte) take no
    /// room and are kept. A cut line ends with an attribute reset, so a reverse-video cell cut in
    /// half does not colour the cleared rest of the row.
    public static func clipped(_ line: String, to width: Int) -> String {
        var out = ""
        var visible = 0
        var inEscape = false
        for ch in line {
            if inEscape {
                out.append(ch)
                if ch != "[", let a = ch.asciiValue, (0x40...0x7E).contains(a) { inEscape = false }
                continue
            }
            if ch == "\u{1B}" {
                inEscape = true
                out.append(ch)
                continue
            }
            if visible == width { return out + "\u{1B}[0m" }
            out.append(ch)
            visible += 1
        }
        return out
    }
}
