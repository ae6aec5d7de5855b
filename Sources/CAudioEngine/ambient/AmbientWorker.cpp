// Offline rendering on two cores: the worker thread renders the sources ahead into a ring of
// stretches, and renderWithWorker mixes them exactly as render() would.
#include "ambient/AmbientEngine.hpp"

#include <mutex>
#include <system_error>
#include "rt/Denormals.hpp"

namespace boop::ambient {

namespace {

// Before a thread sleeps on the condition variable it looks again for a few microseconds: the
// other side makes or frees a stretch every microsecond or two, so on two free cores the wait is
// usually over by then, where sleeping costs a system call on both sides and a wake-up later.
// Kept short, so a side that is truly waiting (a paused render, a full ring, a core taken by
// another program) soon sleeps and leaves the core alone.
template <class Ready>
bool spinFor(Ready ready) noexcept {
#if defined(__x86_64__) || defined(__i386__)
    const unsigned long long until = __builtin_ia32_rdtsc() + 20000;  // 5-10 us at 2-4 GHz
    do {
        if (ready()) return true;
        __builtin_ia32_pause();
    } while (__builtin_ia32_rdtsc() < until);
#else
    for (int i = 0; i < 256; ++i)
        if (ready()) return true;
#endif
    return false;
}

}  // namespace

bool AmbientEngine::startWorker() {
    // Before the first frame is mixed; the composition may be ahead by what measureAhead mixed
    // (its stretches all taken from the ring).
    if (worker_.joinable() || mixFrame_ != 0 || frame_ != captured_) return false;
    if (!ring_) ring_.reset(new Sources[kRing]);
    try {
        worker_ = std::thread([this] { workerLoop(); });
    } catch (const std::system_error&) {
        return false;
    }
    return true;
}

void AmbientEngine::stopWorker() noexcept {
    if (!worker_.joinable()) return;
    stopping_.store(true);
    {
        std::lock_guard<std::mutex> lock(wakeMutex_);
        wake_.notify_all();
    }
    worker_.join();
}

// The worker: stretch after stretch of the sources into the ring, waiting only while it is full.
// It owns the composition and the source units; render() touches only the mix's side.
void AmbientEngine::workerLoop() noexcept {
    DenormalGuard guard;  // the same arithmetic as the render thread's
    std::uint32_t head = head_.load(std::memory_order_relaxed);
    while (!stopping_.load(std::memory_order_relaxed)) {
        if (frame_ == workerStop_) {
            // measureAhead's stretch is made: its last stretches are taken without a batch.
            std::lock_guard<std::mutex> lock(wakeMutex_);
            wake_.notify_all();
            return;
        }
        if (head - tail_.load(std::memory_order_acquire) == kRing &&
            !spinFor([&] { return head - tail_.load(std::memory_order_acquire) < kRing; })) {
            std::unique_lock<std::mutex> lock(wakeMutex_);
            workerWaits_.store(true);
            wake_.wait(lock, [&] { return stopping_.load() || head - tail_.load() < kRing; });
            workerWaits_.store(false);
            continue;
        }
        renderSources(ring_[head % kRing], workerStop_ - frame_ < kChunk ? workerStop_ - frame_ : kChunk);
        head_.store(++head);  // sequentially consistent, like the waits' flags: no wake-up is lost
        // A waiting render() is woken once a batch is ready, not for every stretch: each
        // wake-up is a system call on both sides.
        if (renderWaits_.load() && head - tail_.load() >= kWakeBatch) {
            std::lock_guard<std::mutex> lock(wakeMutex_);
            wake_.notify_all();
        }
    }
}

void AmbientEngine::waitForStretch(std::uint32_t tail) {
    if (head_.load(std::memory_order_acquire) == tail &&
        !spinFor([&] { return head_.load(std::memory_order_acquire) != tail; })) {
        std::unique_lock<std::mutex> lock(wakeMutex_);
        renderWaits_.store(true);
        wake_.wait(lock, [&] { return head_.load() != tail; });
        renderWaits_.store(false);
    }
}

void AmbientEngine::releaseStretch(std::uint32_t& tail) {
    tail_.store(++tail);
    if (workerWaits_.load() && head_.load() - tail <= kRing - kWakeBatch) {
        std::lock_guard<std::mutex> lock(wakeMutex_);
        wake_.notify_all();
    }
}

// The same as render(), the sources coming from the worker's ring. A stretch is mixed in as
// many pieces as the blocks and the end of a fade cut it into: every unit's samples are the same
// however it is cut, so the output is render()'s, sample for sample.
void AmbientEngine::renderWithWorker(float* out, std::uint32_t frames) {
    DenormalGuard guard;
    applyRequests();
    for (auto& s : sums_) s = 0.0;
    std::uint32_t done = 0;
    std::uint32_t counted = 0;
    std::uint32_t tail = tail_.load(std::memory_order_relaxed);
    while (done < frames) {
        if (finished_ || (pausing_ && fade_ == 0.0f)) {
            for (std::uint32_t i = 2 * done; i < 2 * frames; ++i) out[i] = 0.0f;
            break;
        }
        std::uint64_t n = frames - done < kChunk ? frames - done : kChunk;
        if (mixFrame_ < captured_) {
            // What measureAhead mixed comes first (the worker renders on from its end).
            n = untilSilence(captured_ - mixFrame_ < n ? captured_ - mixFrame_ : n);
            replay(out + 2 * done, static_cast<int>(n));
        } else {
            waitForStretch(tail);
            const Sources& s = ring_[tail % kRing];
            n = static_cast<std::uint64_t>(s.n - tailAt_);
            n = untilSilence(frames - done < n ? frames - done : n);
            mix(s, tailAt_, out + 2 * done, static_cast<int>(n));
            tailAt_ += static_cast<int>(n);
            if (tailAt_ == s.n) {
                tailAt_ = 0;
                releaseStretch(tail);
            }
        }
        mixFrame_ += n;
        done += static_cast<std::uint32_t>(n);
        counted += static_cast<std::uint32_t>(n);
        if (finishing_ && fade_ == 0.0f) finished_ = true;
    }
    finishRender(out, frames, counted);
}
}  // namespace boop::ambient
