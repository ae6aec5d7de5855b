/// Lines of text for a terminal of 80 columns: a longer line is broken at spaces, its
/// continuation indented, so a result or a status never wraps mid-word (and a status line
/// rewritten in place never spills onto a second row).
enum TextWrap {
    static let width = 79

    /// `line` in rows of at most `width` characters (a single word longer than that stays whole).
    static func wrap(_ line: String, width: Int = width, indent: String = "  ") -> String {
        guard line.count > width else { return line }
        let margin = String(line.prefix { $0 == " " })
        var rows: [String] = []
        var row = margin
        for word in line.dropFirst(margin.count).split(separator: " ") {
            if row.count > margin.count && row.count + 1 + word.count > width {
                rows.append(row)
                row = indent + word
            } else {
                row += (row.count > margin.count && row != indent ? " " : "") + word
            }
        }
        rows.append(row)
        return rows.joined(separator: "\n")
    }
}
