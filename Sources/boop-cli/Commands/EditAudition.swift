import Glibc
import PixelBoopCore

/// The notes the editor sounds as they are placed, and the tap-to-sound figure of `-v`.
extension EditSession {
    /// Under -v: once the engine has rendered the block that holds the auditioned note's first
    /// sample (the engine notes when, so nothing here waits), reports key read -> engine, plus
    /// what the device still holds before it is heard. Checked when the loop wakes anyway (the
    /// next read, redraw or the audition's release); a tap not rendered within 100 ms is not shown.
    func measureTap() {
        guard verbose, let transport, let tap = lastTap else { return }
        guard let rendered = transport.renderedPast(frame: tap.frame) else {
            if monotonicSeconds() - tap.read >= 0.1 { lastTap = nil }
            return
        }
        lastTap = nil
        guard rendered - tap.read < 0.1 else { return }
        let engineMs = (rendered - tap.read) * 1000
        let deviceMs = Double(max(0, transport.stats.delayFrames)) / transport.sampleRate * 1000
        let line = String(
            cFormat: "tap-to-sound: %.1f ms key read to engine + %.1f ms device buffer = %.1f ms",
            engineMs, deviceMs, engineMs + deviceMs)
        model.message = line
        tapLog.append(line)
    }

    func audition(_ note: SongNote, track: TrackKind? = nil) {
        auditionQueue.append((note, track ?? model.track))
    }

    /// Sounds the notes placed by one read: the last few of them (a paste of thousands is heard
    /// as its end, not queued for seconds). A full immediate lane is back-pressure, not a fault:
    /// what does not fit is dropped, and the device stays.
    func soundAuditions(readAt: Double) {
        let notes = auditionQueue.suffix(EditSession.auditionsPerRead)
        auditionQueue.removeAll(keepingCapacity: true)
        guard let transport, !notes.isEmpty else { return }
        measureTap()   // a tap already rendered is reported before a new one replaces its mark
        for (note, track) in notes {
            do {
                let frame = transport.frameClock
                try transport.audition(pitch: note.pitch, track: track, velocity: note.velocity)
                if verbose {
                    transport.markTap(frame: frame)
                    lastTap = (readAt, frame)
                }
            } catch AudioError.queueFull {
                break
            } catch {
                model.message = "audition: \(error)"
                return
            }
        }
    }
}
