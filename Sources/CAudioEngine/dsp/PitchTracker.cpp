#include "dsp/PitchTracker.hpp"

#include <algorithm>
#include <cmath>

#include "dsp/OnePole.hpp"

namespace boop {
namespace dsp {

namespace {
// CDF of Beta(2, b): 1 − (1 − x)^b (1 + b·x).
inline double thresholdCdf(double x, double b) noexcept {
    if (!(x > 0.0)) return 0.0;
    if (x >= 1.0) return 1.0;
    return 1.0 - std::pow(1.0 - x, b) * (1.0 + b * x);
}
// Costs are −log probabilities; the floors keep an unlikely state reachable.
constexpr double kFloor = 1e-4;
// −log(0.01): a switch between voiced and unvoiced.
constexpr double kSwitchCost = 4.6;
// A dip no threshold reaches still gets this share of its (1 − depth), as in pYIN.
constexpr double kGlobalShare = 0.01;
// What a marked half-period dip keeps of its share (markHalfPeriods).
constexpr double kHalfShare = 0.05;
}  // namespace

void PitchTracker::prepare(double sampleRate, uint32_t windowSize, uint32_t lag) {
    yin_.prepare(sampleRate, windowSize);
    window_ = windowSize;
    filtered_.assign(windowSize, 0.0f);
    setLowpass(lowpassHz_);
    lag_ = std::min(lag, kMaxLag);
    reset();
}

void PitchTracker::setLowpass(double hz) noexcept {
    lowpassHz_ = hz;
    const double rate = yin_.sampleRate();
    lowpassCoefficient_ = hz > 0.0 && hz < rate / 2 ? onePoleCoefForCutoff(hz, rate) : 0.0;
}

void PitchTracker::reset() noexcept {
    frames_ = 0;
    emitted_ = 0;
    lastVoicedCents_ = 0.0;
    cost_.fill(0.0);
}

// A window where the note starts (or ends) has a silent half: YIN over all of it finds the energy
// step, not a period (a confident pitch octaves too high at an A4's onset). The half with the
// note is analysed instead (its lowest pitch twice the whole window's).
void PitchTracker::analyse(const float* samples, uint32_t n) BOOP_RT {
    const uint32_t m = std::min(n, window_);
    const float* w = lowpassed(samples + (n - m), m);
    double first = 0.0, second = 0.0;
    for (uint32_t i = 0; i < m / 2; ++i) first += double(w[i]) * double(w[i]);
    for (uint32_t i = m / 2; i < m; ++i) second += double(w[i]) * double(w[i]);
    if (first < kHalfRatio * second) {
        yin_.process(w + m / 2, m - m / 2);
    } else if (second < kHalfRatio * first) {
        yin_.process(w, m / 2);
    } else {
        yin_.process(w, m);
    }
}

// Two one-pole lowpasses (cutoff setLowpass): broadband noise above a voice's strong harmonics
// fills YIN's dips without adding periodicity. Filtered afresh per window: the filter settles
// within a few samples, far less than a period.
const float* PitchTracker::lowpassed(const float* w, uint32_t m) BOOP_RT {
    if (!(lowpassCoefficient_ > 0.0)) return w;
    double y1 = w[0], y2 = w[0];
    const double a = lowpassCoefficient_;
    for (uint32_t i = 0; i < m; ++i) {
        y1 += a * (double(w[i]) - y1);
        y2 += a * (y1 - y2);
        filtered_[i] = float(y2);
    }
    return filtered_.data();
}

// A dip at T/2 that is clearly shallower than the one at T (less than half as deep, by more than
// 0.03) is most likely a voice with a strong second harmonic, not a pitch an octave up: noise
// alone leaves the two about equal, and a true period P has its 2P dip about as deep as P's. Such
// a dip is marked: it passes its share of the threshold distribution on to the dips after it and
// keeps only a small one itself, so continuity can still choose it.
void PitchTracker::markHalfPeriods(uint32_t count, std::array<bool, kMaxCandidates>& half) const BOOP_RT {
    for (uint32_t i = 0; i < count; ++i) {
        half[i] = false;
        for (uint32_t j = i + 1; j < count && !half[i]; ++j) {
            const double ratio = scratch_[j].period / scratch_[i].period;
            half[i] = ratio > 1.94 && ratio < 2.06 && scratch_[j].depth < 0.5 * scratch_[i].depth &&
                      scratch_[i].depth - scratch_[j].depth > 0.03;
        }
    }
}

// The frame's candidates and their emission costs (state 0: unvoiced).
void PitchTracker::observe(const float* samples, uint32_t n, Slot& slot,
                           std::array<double, kStates>& emission) BOOP_RT {
    analyse(samples, n);
    const uint32_t count = yin_.candidates(scratch_.data(), kMaxCandidates);
    std::array<bool, kMaxCandidates> half{};
    markHalfPeriods(count, half);
    slot.count = count;
    slot.guess = 0.0;
    double previousCdf = 1.0, voiced = 0.0, likeliest = -1.0;
    for (uint32_t i = 0; i < count; ++i) {
        const YinCandidate& c = scratch_[i];
        const double cdf = thresholdCdf(c.depth, betaB_);
        double p = std::max(0.0, previousCdf - cdf);
        if (half[i]) {
            p *= kHalfShare;
        } else {
            previousCdf = cdf;
            voiced += p;
        }
        p += kGlobalShare * (1.0 - std::min(1.0, c.depth)) * cdf;
        // Only a likely candidate is worth the refinement's cost; the others only steer the path.
        const double hz = p > 0.05 ? yin_.refinedFrequency(c) : 0.0;
        slot.hz[i + 1] = hz > 0.0 ? hz : 0.0;
        if (!(slot.hz[i + 1] > 0.0)) slot.hz[i + 1] = c.period > 0.0 ? yin_.sampleRate() / c.period : 0.0;
        slot.cents[i + 1] = 1200.0 * std::log2(slot.hz[i + 1] / 440.0) + 6900.0;
        slot.depth[i + 1] = c.depth;
        emission[i + 1] = -std::log(std::max(p, kFloor));
        if (p > likeliest) {
            likeliest = p;
            slot.guess = slot.hz[i + 1];
        }
    }
    slot.voicedProb = voiced;
    slot.hz[0] = 0.0;
    slot.depth[0] = 1.0;
    emission[0] = -std::log(std::max(1.0 - voiced, kFloor));
}

// One Viterbi step: each state's cheapest predecessor in the previous frame.
void PitchTracker::step(Slot& slot, const std::array<double, kStates>& emission) BOOP_RT {
    std::array<double, kStates> next{};
    const bool first = frames_ == 0;
    const Slot& prev = ring_[(frames_ + kRing - 1) % kRing];
    const uint32_t prevStates = first ? 1 : prev.count + 1;
    for (uint32_t s = 0; s <= slot.count; ++s) {
        double best = HUGE_VAL;
        uint8_t from = 0;
        for (uint32_t q = 0; q < prevStates; ++q) {
            double move = 0.0;
            if ((s == 0) != (q == 0)) {
                move = kSwitchCost;
            } else if (s != 0) {
                move = jumpCost_ * std::fabs(slot.cents[s] - prev.cents[q]) / 100.0;
            }
            const double total = (first ? 0.0 : cost_[q]) + move;
            if (total < best) {
                best = total;
                from = static_cast<uint8_t>(q);
            }
        }
        slot.back[s] = from;
        next[s] = best + emission[s];
    }
    // Costs only matter relative to each other: keep them small.
    double lowest = HUGE_VAL;
    for (uint32_t s = 0; s <= slot.count; ++s) lowest = std::min(lowest, next[s]);
    for (uint32_t s = 0; s <= slot.count; ++s) cost_[s] = next[s] - lowest;
}

uint32_t PitchTracker::bestState() const BOOP_RT {
    const Slot& newest = ring_[(frames_ + kRing - 1) % kRing];
    uint32_t best = 0;
    for (uint32_t s = 1; s <= newest.count; ++s)
        if (cost_[s] < cost_[best]) best = s;
    return best;
}

// An unvoiced frame's guess: its candidate nearest (within 150 cents) to the voiced pitch
// around it on the path (the next one ahead, else the last one decided), else that pitch itself.
PitchFrame PitchTracker::decided(uint64_t frame, uint32_t state, double aheadCents) BOOP_RT {
    const Slot& slot = ring_[frame % kRing];
    PitchFrame out;
    out.index = frame;
    out.frequency = slot.hz[state];
    out.guess = state != 0 ? slot.hz[state] : slot.guess;
    out.voicedProb = slot.voicedProb;
    out.depth = slot.depth[state];
    if (state != 0) {
        lastVoicedCents_ = slot.cents[state];
        lastVoicedFrame_ = frame;
        return out;
    }
    // A pitch heard long ago (the last note) says nothing about this frame.
    const bool recent = lastVoicedCents_ > 0.0 && frame - lastVoicedFrame_ <= kHoldFrames;
    const double around = aheadCents > 0.0 ? aheadCents : recent ? lastVoicedCents_ : 0.0;
    // With no candidate near it (a note's onset still buried in noise), the path's pitch itself is
    // the best guess, as pYIN's unvoiced states carry it.
    if (around > 0.0) out.guess = 440.0 * std::exp2((around - 6900.0) / 1200.0);
    double nearest = 150.0;  // cents
    for (uint32_t s = 1; around > 0.0 && s <= slot.count; ++s) {
        if (std::fabs(slot.cents[s] - around) < nearest) {
            nearest = std::fabs(slot.cents[s] - around);
            out.guess = slot.hz[s];
        }
    }
    return out;
}

bool PitchTracker::push(const float* samples, uint32_t n, PitchFrame& out) BOOP_RT {
    Slot& slot = ring_[frames_ % kRing];
    std::array<double, kStates> emission{};
    observe(samples, n, slot, emission);
    step(slot, emission);
    ++frames_;
    if (frames_ <= lag_) return false;
    // Back from the newest frame's best state to the frame `lag` frames earlier, noting the
    // earliest voiced pitch on the way (an unvoiced frame's guess leans on it).
    uint32_t state = bestState();
    double nearestCents = 0.0;
    for (uint64_t f = frames_ - 1; f > frames_ - 1 - lag_; --f) {
        if (state != 0) nearestCents = ring_[f % kRing].cents[state];
        state = ring_[f % kRing].back[state];
    }
    out = decided(frames_ - 1 - lag_, state, nearestCents);
    emitted_ = frames_ - lag_;
    return true;
}

uint32_t PitchTracker::flush(PitchFrame* out, uint32_t max) BOOP_RT {
    if (out == nullptr || frames_ == emitted_) return 0;
    std::array<uint32_t, kRing> states{};
    uint32_t state = bestState();
    const uint64_t pending = frames_ - emitted_;
    for (uint64_t k = 0; k < pending; ++k) {
        const uint64_t f = frames_ - 1 - k;
        states[f % kRing] = state;
        state = ring_[f % kRing].back[state];
    }
    uint32_t written = 0;
    uint64_t f = emitted_;
    for (; f < frames_ && written < max; ++f) {
        double ahead = 0.0;
        for (uint64_t g = f + 1; g < frames_ && ahead == 0.0; ++g)
            if (states[g % kRing] != 0) ahead = ring_[g % kRing].cents[states[g % kRing]];
        out[written++] = decided(f, states[f % kRing], ahead);
    }
    emitted_ = f;
    return written;
}

}  // namespace dsp
}  // namespace boop
