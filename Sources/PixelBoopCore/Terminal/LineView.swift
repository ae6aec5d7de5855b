/// A redrawable block of lines at the bottom of a terminal (boop play's playhead). Each frame moves
/// the cursor back up over the previous one and clears each line to its end — no full-screen
/// clear, so nothing flickers. After a stop (Ctrl-Z, then `fg`) the next frame starts a new block
/// below what the shell printed instead of moving up over it.
public struct LineView: Sendable {
    private var linesDrawn = 0
    private var resumes: UInt32

    /// `resumeCount`: the session's count now (TerminalSession.resumeCount; 0 without one).
    public init(resumeCount: UInt32 = 0) { resumes = resumeCount }

    /// The bytes of one frame of `lines`.
    public mutating func frame(_ lines: [String], resumeCount: UInt32 = 0) -> String {
        if resumeCount != resumes {
            resumes = resumeCount
            linesDrawn = 0
        }
        var out = linesDrawn > 0 ? "\u{1B}[\(linesDrawn)F" : ""
        for line in lines { out += line + "\u{1B}[K\n" }
        linesDrawn = lines.count
        return out
    }
}
