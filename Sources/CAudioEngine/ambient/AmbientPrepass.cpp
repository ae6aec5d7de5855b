// The loudness measured on the piece's own first seconds, rendered once: measureAhead mixes them
// up to the master stage and keeps them, and render() masters them later with the gain that
// measurement set, exactly as if they had been mixed then (the mix never depends on the master
// stage's state, except where something not finite resets the effects: measureAhead declines).
#include "ambient/AmbientEngine.hpp"

#include <cmath>
#include "rt/Denormals.hpp"

namespace boop::ambient {

namespace {

// Over this the gain (fades times at most +12 dB of normalisation) could carry a frame past the
// largest float, where the master stage would reset the effects.
constexpr float kSafe = 1e37f;

}  // namespace

bool AmbientEngine::measureAhead(double seconds, double& lufs) {
    // The worker first: once it runs, frame_ is its to write, and is not read here.
    if (worker_.joinable() || frame_ != 0 || mixFrame_ != 0) return false;
    const auto total = static_cast<std::uint64_t>((cfg_.fade_in_seconds + seconds) * cfg_.sample_rate);
    capture_.reset(new float[2 * total]);
    captureSums_.reset(new double[5 * (total / kChunk + 1)]());
    std::size_t chords = 1;
    for (std::uint64_t k = 0; stepFrame(k * chordSteps_) < total; ++k) ++chords;
    chordLog_.reset(new ChordShown[chords]);
    chordLogCap_ = chords;
    logUntil_ = total;
    dsp::LoudnessMeter meter;
    meter.prepare(cfg_.sample_rate, 2);
    // The worker makes the sources up to `total` and stops there; startWorker runs it on from there.
    workerStop_ = total;
    const bool twoCores = startWorker();
    const bool finite = capture(meter, total, twoCores);
    if (twoCores) worker_.join();
    workerStop_ = UINT64_MAX;
    for (auto& s : sums_) s = 0.0;
    if (!finite) return false;
    captured_ = total;
    lufs = meter.integrated();
    return true;
}

// The mix of frames [0, total) into capture_, and into the meter those the master stage will
// take in steady state (after the fade-in, stepped as rampGains steps it): what measureLoudness's
// engine measures. Every frame is mixed even after one fails, so the worker reaches its stop.
bool AmbientEngine::capture(dsp::LoudnessMeter& meter, std::uint64_t total, bool twoCores) {
    DenormalGuard guard;  // the render's arithmetic
    double fadeIn = fadeIn_;
    bool finite = true;
    std::uint32_t tail = tail_.load(std::memory_order_relaxed);
    float l[kChunk], r[kChunk];
    for (std::uint64_t done = 0; done < total;) {
        const Sources* s = &chunk_;
        if (twoCores) {
            waitForStretch(tail);
            s = &ring_[tail % kRing];
        } else {
            renderSources(chunk_, total - done);
        }
        const int n = s->n;
        for (auto& v : sums_) v = 0.0;
        mixWet(*s, 0, l, r, n);
        if (twoCores) releaseStretch(tail);
        float* c = capture_.get() + 2 * done;
        double* e = captureSums_.get() + 5 * (done / kChunk);
        for (int k = 0; k < 5; ++k) e[k] += sums_[k];
        int from = n;  // the first frame in steady state
        for (int i = 0; i < n; ++i) {
            c[2 * i] = l[i];
            c[2 * i + 1] = r[i];
            finite = finite && std::fabs(l[i]) <= kSafe && std::fabs(r[i]) <= kSafe;
            if (from < n) continue;
            if (fadeIn < 1.0) {
                fadeIn += fadeInStep_;
                if (fadeIn > 1.0) fadeIn = 1.0;
            }
            if (fadeIn >= 1.0) from = i;
        }
        meter.add(c + 2 * from, static_cast<std::uint64_t>(n - from));
        done += static_cast<std::uint64_t>(n);
    }
    return finite;
}

// The kept mix from frame mixFrame_ through the master stage. The meters' layer energies were
// kept per kChunk frames: each is counted where its frames begin; a chord is shown from its frame.
void AmbientEngine::replay(float* out, int n) BOOP_RT {
    float l[kChunk], r[kChunk];
    const float* c = capture_.get() + 2 * mixFrame_;
    for (int i = 0; i < n; ++i) {
        l[i] = c[2 * i];
        r[i] = c[2 * i + 1];
    }
    const std::uint64_t end = mixFrame_ + static_cast<std::uint64_t>(n);
    for (std::uint64_t f = (mixFrame_ + kChunk - 1) / kChunk * kChunk; f < end; f += kChunk)
        for (int k = 0; k < 5; ++k) sums_[k] += captureSums_[5 * (f / kChunk) + k];
    while (chordLogAt_ < chordLogSize_ && chordLog_[chordLogAt_].frame < end) showChord(chordLog_[chordLogAt_++]);
    master(l, r, out, n);
}

}  // namespace boop::ambient
