import Glibc

/// Spaced repetition for the identification exercises, by Leitner boxes over the history.
///
/// Every item sits in a box 0 ... 4; an item never asked starts in box 2. A right answer moves
/// the item asked up one box (at most 4); a wrong one sends it to box 0 and moves the item
/// named instead down one box, so both halves of a confused pair come back. The next item is
/// drawn with weight 2^(2 - box): 4, 2, 1, 1/2, 1/4, so an item just missed is asked 16 times
/// as often as one answered right four times running. The same item is not asked twice in a
/// row while there are others. Draws come from the seeded generator: the same seed, history
/// and answers give the same items.
public struct EarScheduler: Sendable {
    public static let boxes = 0...4
    public static let startBox = 2

    public let items: [String]
    public private(set) var box: [String: Int]
    private var last: String?

    public init(items: [String]) {
        self.items = items
        box = Dictionary(uniqueKeysWithValues: items.map { ($0, Self.startBox) })
    }

    /// The boxes as the stored answers `(asked, answered)` left them, oldest first.
    public init(items: [String], history: [(item: String, answer: String)]) {
        self.init(items: items)
        for (item, answer) in history { record(item: item, answer: answer) }
        last = nil
    }

    public static func weight(box: Int) -> Double { pow(2, Double(startBox - box)) }

    public func weight(_ item: String) -> Double { Self.weight(box: box[item] ?? Self.startBox) }

    public mutating func record(item: String, answer: String) {
        last = item
        guard let current = box[item] else { return }
        if answer == item {
            box[item] = min(Self.boxes.upperBound, current + 1)
            return
        }
        box[item] = 0
        if let named = box[answer] { box[answer] = max(0, named - 1) }
    }

    /// The next item, drawn by weight.
    public func next(using rng: inout SeededGenerator) -> String {
        let candidates = items.count > 1 ? items.filter { $0 != last } : items
        let weights = candidates.map(weight)
        var pick = Double.random(in: 0..<weights.reduce(0, +), using: &rng)
        for (item, w) in zip(candidates, weights) {
            if pick < w { return item }
            pick -= w
        }
        return candidates[candidates.count - 1]
    }
}

/// An accuracy with its 95 % Wilson score interval (sound with few trials and at 0 or 100 %).
public struct WilsonInterval: Sendable, Equatable {
    public let right: Int
    public let trials: Int
    public let low: Double
    public let high: Double

    public init(right: Int, trials: Int, z: Double = 1.959964) {
        self.right = right
        self.trials = trials
        guard trials > 0 else {
            (low, high) = (0, 1)
            return
        }
        let n = Double(trials)
        let p = Double(right) / n
        let denominator = 1 + z * z / n
        let centre = (p + z * z / (2 * n)) / denominator
        let half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
        (low, high) = (max(0, centre - half), min(1, centre + half))
    }

    public var accuracy: Double { trials > 0 ? Double(right) / Double(trials) : 0 }
}
