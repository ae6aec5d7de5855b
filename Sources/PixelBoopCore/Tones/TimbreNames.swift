/// The engine's timbres by the names the command line uses (`boop synth --voice N=melody`,
/// `boop train match --timbre`).
extension Timbre {
    public var name: String {
        switch self {
        case .melody: return "melody"
        case .chords: return "chords"
        case .bass: return "bass"
        case .tone: return "tone"
        }
    }

    public static var names: [String] { allCases.map(\.name) }

    public init?(name: String) {
        guard let found = Timbre.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }
}
