import Glibc

/// Something for the engine to do at an exact frame: a song's step event, a tone's edge, an
/// editor's audition release, a message for a MIDI output.
public protocol FrameStamped {
    var frame: UInt64 { get }
}

extension SongEvent: FrameStamped {}

/// The one event scheduler every producer goes through, live and offline: frame-stamped events
/// wait here, in the order the engine must receive them (its queue is FIFO), until they fall
/// before a horizon, and are then handed to the engine once, in that order.
///
/// - Live, the horizon is the engine's clock plus a lookahead (`horizon(clock:)`), and a
///   transport's `SchedulingThread` flushes whenever the next event comes within it
///   (`secondsUntilDue`), so a late wake-up never moves a note.
/// - Offline, the horizon is the end of the block about to be rendered.
///
/// A full engine queue is back-pressure: what does not fit stays pending for the next flush,
/// never sent twice. Not thread-safe by itself: its owner guards it (a transport's lock).
public struct EventScheduler<Event: FrameStamped> {
    /// How far ahead of the engine's clock a live flush reaches (0 offline).
    public let lookahead: UInt64
    private var pending: [Event] = []
    /// Events before it have been sent (removed lazily, so a flush costs no shifting).
    private var head = 0

    public init(lookahead: UInt64 = 0) { self.lookahead = lookahead }

    public var isEmpty: Bool { head == pending.count }
    public var count: Int { pending.count - head }
    /// The frame of the next event to send.
    public var nextFrame: UInt64? { isEmpty ? nil : pending[head].frame }

    /// Live: the horizon for an engine that has rendered up to `clock`.
    public func horizon(clock: UInt64) -> UInt64 { clock + lookahead }

    /// Adds events already in engine order after everything pending.
    public mutating func append(contentsOf events: [Event]) {
        compact()
        pending.append(contentsOf: events)
    }

    /// Adds events and puts everything pending back in engine order (`order`, a stable sort: on
    /// a tie, what was pending first goes first, then the new ones as given).
    public mutating func add(_ events: [Event], order: (Event, Event) -> Bool) {
        compact()
        pending.append(contentsOf: events)
        // The position breaks ties, so the order never rests on the standard sort being stable.
        pending = pending.enumerated().sorted { a, b in
            order(a.element, b.element) || (!order(b.element, a.element) && a.offset < b.offset)
        }.map(\.element)
    }

    /// Drops everything pending (a pause, a stop).
    public mutating func removeAll() {
        pending.removeAll(keepingCapacity: true)
        head = 0
    }

    /// The pending events earlier than `horizon`, in order: what a flush would hand over, for a
    /// sender that looks ahead among them.
    public func due(before horizon: UInt64) -> ArraySlice<Event> {
        var end = head
        while end < pending.count && pending[end].frame < horizon { end += 1 }
        return pending[head..<end]
    }

    /// Hands `send` every pending event earlier than `horizon`, in order. Stops quietly when the
    /// engine's queue is full (the rest is sent by a later flush); other errors are thrown, the
    /// events sent before them counted as sent. Returns how many were sent.
    @discardableResult
    public mutating func flush(before horizon: UInt64, send: (Event) throws(AudioError) -> Void) throws(AudioError) -> Int {
        let start = head
        while head < pending.count && pending[head].frame < horizon {
            do {
                try send(pending[head])
            } catch .queueFull {
                break
            }
            head += 1
        }
        if head == pending.count { removeAll() }
        return head - start
    }

    /// Live: seconds until the next event comes within the lookahead of an engine at `clock`
    /// (0 when it already has); nil when nothing is pending.
    public func secondsUntilDue(clock: UInt64, sampleRate: Double) -> Double? {
        guard let next = nextFrame else { return nil }
        return EventScheduler.seconds(from: clock, until: next > lookahead ? next - lookahead : 0, sampleRate: sampleRate)
    }

    /// Seconds of engine time from `clock` until `frame` (0 once reached).
    public static func seconds(from clock: UInt64, until frame: UInt64, sampleRate: Double) -> Double {
        frame > clock ? Double(frame - clock) / sampleRate : 0
    }

    private mutating func compact() {
        guard head > 0 else { return }
        pending.removeFirst(head)
        head = 0
    }
}
