/// A long option followed by a negative number (`--bend-range -2`, `--cents -20`): ArgumentParser
/// reads a word that starts with `-` as the next option and says "Missing value", which hides
/// what was typed and what the option accepts. Joined as `--bend-range=-2`, the value reaches
/// the option and its own check answers with the accepted range. No boop argument is a negative
/// number, so nothing else can be meant; after `--` every word is left as it is.
enum NegativeValues {
    static func joined(_ args: [String]) -> [String] {
        var out: [String] = []
        out.reserveCapacity(args.count)
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" { return out + args[i...] }
            if a.hasPrefix("--"), a.count > 2, !a.contains("="), i + 1 < args.count, isNegativeNumber(args[i + 1]) {
                out.append(a + "=" + args[i + 1])
                i += 2
                continue
            }
            out.append(a)
            i += 1
        }
        return out
    }

    /// `-2`, `-0.5`, `-.5`, `-1e3`, `-inf`, `-nan`: what Double or Int would read after the sign.
    static func isNegativeNumber(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        let rest = word.dropFirst()
        if let first = rest.first, first.isASCII, first.isNumber || first == "." { return Double(word) != nil }
        return ["inf", "infinity", "nan"].contains(rest.lowercased())
    }
}
