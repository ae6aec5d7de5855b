/// Swift's `Double("0x15180")` is 86400: C's hexadecimal floating point, which ArgumentParser takes
/// as any number. No boop value is written that way, and `--duration 0x15180` meaning a day is a
/// surprise, not a feature: such a word is refused (64) with what is expected. A word that only
/// starts like one (`0xfeed.wav`) is not a number and is left alone; after `--` nothing is looked at.
enum HexNumbers {
    /// The message for the first hexadecimal number among the arguments, or nil.
    static func refusal(_ args: [String]) -> String? {
        var previous: String?
        for word in args {
            if word == "--" { return nil }
            let (option, value) = split(word, after: previous)
            if isHexNumber(value) {
                let shown = option.map { "\($0) \(value)" } ?? value
                return "\(shown): expected a decimal number (hexadecimal numbers are not taken)"
            }
            previous = word
        }
        return nil
    }

    /// `--opt=value` is the option and its value; a word after an option is its value.
    private static func split(_ word: String, after previous: String?) -> (String?, String) {
        if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
            return (String(word[..<eq]), String(word[word.index(after: eq)...]))
        }
        if let previous, previous.hasPrefix("-"), !previous.contains("=") { return (previous, word) }
        return (nil, word)
    }

    static func isHexNumber(_ word: String) -> Bool {
        var rest = Substring(word)
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        guard rest.lowercased().hasPrefix("0x") else { return false }
        return Double(word) != nil
    }
}
