import Glibc

/// Why the history cannot be used; each maps to one line and an exit status.
public struct TrainingStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case busy   // locked by another program past the wait (74)
        case unreadable   // cannot be opened, created or written: permissions, disk (74)
        case corrupt   // not a database, or damaged (65)
        case newer   // written by a newer boop (65)
        case foreign   // an SQLite database, but not a training history (65)
        case missing   // no history at the path, and none is to be created (66)
        case notAFile   // a device, a folder, a pipe: not a file SQLite may open (66 reading, 73 writing)
    }

    public let kind: Kind
    public let message: String
    public var description: String { message }
}

/// One answered trial as stored.
public struct TrainingTrial: Sendable, Equatable {
    public var session: Int64
    public var trial: Int
    public var time: Timestamp
    public var referenceHz: Double
    public var differenceCents: Double
    /// 1 or 2: which interval held the higher tone.
    public var higherInterval: Int
    /// "higher" or "lower": what the listener said of the second tone.
    public var answer: String
    public var correct: Bool
    public var responseMilliseconds: Int

    public init(
        session: Int64, trial: Int, time: Timestamp, referenceHz: Double, differenceCents: Double,
        higherInterval: Int, answer: String, correct: Bool, responseMilliseconds: Int
    ) {
        self.session = session
        self.trial = trial
        self.time = time
        self.referenceHz = referenceHz
        self.differenceCents = differenceCents
        self.higherInterval = higherInterval
        self.answer = answer
        self.correct = correct
        self.responseMilliseconds = responseMilliseconds
    }
}

/// What a session trained.
public enum TrainingExercise: String, Sendable, Equatable, CaseIterable {
    /// `boop train`: which of two tones was higher.
    case discrimination
    /// `boop train match`: a note sung back.
    case match
    /// `boop train interval`: which of two intervals was wider.
    case interval
    /// `boop train identify`: name the interval or chord played.
    case identify
    /// `boop train degrees`: name the scale degree of a note in a key.
    case degrees
}

/// One session as stored: its settings (JSON text) and, once it ended, its estimate (the
/// threshold of a discrimination or interval session; a matching session's bias and spread come
/// from its attempts).
public struct TrainingSession: Sendable, Equatable {
    public var id: Int64
    public var started: Timestamp
    public var ended: Timestamp?
    public var settings: String
    public var trials: Int
    public var threshold: Double?
    public var low: Double?
    public var high: Double?
    public var exercise: TrainingExercise = .discrimination
}
