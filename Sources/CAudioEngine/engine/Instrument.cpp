#include "engine/Instrument.hpp"
#include <algorithm>
#include <cmath>
#include <cstring>
#include "engine/ScalarWaves.hpp"

namespace boop {

using namespace waves;

namespace {

constexpr double kTwoTo32 = 4294967296.0;

// xorshift32: the pluck's excitation noise, seeded per note.
inline uint32_t xorshift(uint32_t& s) noexcept {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}

}  // namespace

void InstrumentBank::prepare(double sampleRate) {
    sampleRate_ = sampleRate;
    stringLength_ = static_cast<int>(std::ceil(sampleRate / kLowestPluckHz)) + 4;
    strings_.reset(new float[static_cast<size_t>(stringLength_) * kLanes]());
    for (int i = 0; i < kLanes; ++i) {
        voices_[i] = Voice{};
        voices_[i].line = strings_.get() + static_cast<size_t>(i) * stringLength_;
    }
    params_ = InstrumentParams{};
    active_ = 0;
    updateCoefficients();
}

void InstrumentBank::updateCoefficients() BOOP_RT {
    filtered_ = params_.cutoff < 0.45 * sampleRate_;
    if (filtered_) {
        filter_.set(sampleRate_, params_.cutoff, params_.resonance);
        space_ = dsp::SvfStateSpace::of(filter_);
        const dsp::SvfStateSpace& m = space_;
        const double a11 = m.a11, a12 = m.a12, a21 = m.a21, a22 = m.a22;
        twoStep_.a11 = static_cast<float>(a11 * a11 + a12 * a21);
        twoStep_.a12 = static_cast<float>(a11 * a12 + a12 * a22);
        twoStep_.a21 = static_cast<float>(a21 * a11 + a22 * a21);
        twoStep_.a22 = static_cast<float>(a21 * a12 + a22 * a22);
        twoStep_.ab1 = static_cast<float>(a11 * m.b1 + a12 * m.b2);
        twoStep_.ab2 = static_cast<float>(a21 * m.b1 + a22 * m.b2);
    }
    panGains(params_.pan, panLeft_, panRight_);
    widthShift_ = static_cast<uint32_t>(params_.width * kTwoTo32);
    // The bell's brightness falls by 60 dB in 1.2 s, whatever the rate.
    fmDecay_ = static_cast<float>(std::pow(0.001, 1.0 / (1.2 * sampleRate_)));
}

void InstrumentBank::setParam(uint32_t index, double value) BOOP_RT {
    switch (index) {
        case InstrumentParams::Voice:
            params_.voice = static_cast<InstrumentVoice>(std::clamp(static_cast<int>(value), 0, 7));
            break;
        case InstrumentParams::Width:
            params_.width = std::clamp(value, 0.05, 0.95);
            break;
        case InstrumentParams::Attack:
            params_.attack = std::max(value, 0.0);
            break;
        case InstrumentParams::Decay:
            params_.decay = std::max(value, 0.0);
            break;
        case InstrumentParams::Sustain:
            params_.sustain = std::clamp(value, 0.0, 1.0);
            break;
        case InstrumentParams::Release:
            params_.release = std::max(value, 0.0);
            break;
        case InstrumentParams::Cutoff:
            params_.cutoff = std::max(value, 1.0);
            break;
        case InstrumentParams::Resonance:
            params_.resonance = std::clamp(value, 0.5, 20.0);
            break;
        case InstrumentParams::Pan:
            params_.pan = std::clamp(value, -1.0, 1.0);
            break;
        default:
            return;
    }
    updateCoefficients();
}

int InstrumentBank::heldCount() const BOOP_RT {
    int n = 0;
    for (const Voice& v : voices_)
        if (v.stage == Stage::Attack || v.stage == Stage::Decay || v.stage == Stage::Sustain) ++n;
    return n;
}

void InstrumentBank::start(uint32_t noteId, double hz, float gain, uint64_t order, uint32_t seed) BOOP_RT {
    // Over the track's polyphony the oldest held note fades out (never cut).
    if (heldCount() >= kMaxHeld) {
        Voice* oldest = nullptr;
        for (Voice& v : voices_)
            if ((v.stage == Stage::Attack || v.stage == Stage::Decay || v.stage == Stage::Sustain) &&
                (!oldest || v.order < oldest->order))
                oldest = &v;
        if (oldest) {
            beginRelease(*oldest, kStealFade);
            oldest->stage = Stage::Fade;
        }
    }
    Voice* slot = nullptr;
    for (Voice& v : voices_)
        if (v.stage == Stage::Idle) {
            slot = &v;
            break;
        }
    if (!slot) {  // every lane busy: reuse the quietest fading one
        for (Voice& v : voices_)
            if (v.stage == Stage::Fade || v.stage == Stage::Release)
                if (!slot || v.level < slot->level) slot = &v;
        if (!slot) return;
    } else {
        ++active_;
    }
    Voice& v = *slot;
    float* line = v.line;
    v = Voice{};
    v.line = line;
    v.stage = Stage::Attack;
    v.noteId = noteId;
    v.order = order;
    const double increment = std::nearbyint(hz / sampleRate_ * kTwoTo32);
    v.increment = static_cast<uint32_t>(increment);
    v.dt = static_cast<float>(increment / kTwoTo32);
    v.invDt = 1.0f / std::max(v.dt, 1e-9f);
    const double ratio = params_.voice == InstrumentVoice::Fm ? 3.5 : 2.0;
    const double increment2 = std::min(std::nearbyint(increment * ratio), kTwoTo32 / 2 - 1);
    v.increment2 = static_cast<uint32_t>(increment2);
    v.dt2 = static_cast<float>(increment2 / kTwoTo32);
    v.invDt2 = 1.0f / std::max(v.dt2, 1e-9f);
    v.modIndex = 0.35f;
    v.gain = gain;
    v.step = static_cast<float>(1.0 / std::max(1.0, std::max(params_.attack, kMinAttack) * sampleRate_));
    if (params_.voice == InstrumentVoice::Pluck) {
        // Loop delay = length + 0.5 (the two-point average) + d (the allpass) = rate / hz.
        const double period = std::max(sampleRate_ / hz, 3.0);
        const int length = std::min(static_cast<int>(std::floor(period - 0.6)), stringLength_);
        const double d = period - 0.5 - length;
        v.length = std::max(length, 2);
        v.apCoeff = static_cast<float>((1.0 - d) / (1.0 + d));
        uint32_t s = seed * 2654435761u + 0x9E3779B9u;
        if (s == 0) s = 1;
        for (int i = 0; i < v.length; ++i)
            v.line[i] = static_cast<float>(static_cast<int32_t>(xorshift(s))) * (1.0f / 2147483648.0f);
    }
}

void InstrumentBank::beginRelease(Voice& v, double seconds) BOOP_RT {
    v.stage = Stage::Release;
    v.step = v.level / static_cast<float>(std::max(1.0, seconds * sampleRate_));
}

bool InstrumentBank::release(uint32_t noteId) BOOP_RT {
    for (Voice& v : voices_) {
        if (v.noteId == noteId && (v.stage == Stage::Attack || v.stage == Stage::Decay || v.stage == Stage::Sustain)) {
            beginRelease(v, std::max(params_.release, kMinRelease));
            return true;
        }
    }
    return false;
}

void InstrumentBank::fadeAll(double seconds) BOOP_RT {
    for (Voice& v : voices_) {
        if (v.stage == Stage::Idle) continue;
        const float step = v.level / static_cast<float>(std::max(1.0, seconds * sampleRate_));
        // A release already falling faster keeps its own slope.
        if (!(v.stage == Stage::Release || v.stage == Stage::Fade) || step > v.step) v.step = step;
        v.stage = Stage::Fade;
    }
}

inline void InstrumentBank::advanceEnvelope(Voice& v) BOOP_RT {
    switch (v.stage) {
        case Stage::Attack:
            v.level += v.step;
            if (v.level >= 1.0f) {
                v.level = 1.0f;
                v.stage = Stage::Decay;
                const double span = (1.0 - params_.sustain) / std::max(1.0, params_.decay * sampleRate_);
                v.step = static_cast<float>(span);
            }
            break;
        case Stage::Decay:
            v.level -= v.step;
            if (v.level <= static_cast<float>(params_.sustain)) {
                v.level = static_cast<float>(params_.sustain);
                v.stage = Stage::Sustain;
            }
            break;
        case Stage::Sustain:
            break;
        case Stage::Release:
        case Stage::Fade:
            v.level -= v.step;
            if (v.level <= 0.0f) {
                v.level = 0.0f;
                v.stage = Stage::Idle;
                --active_;
            }
            break;
        case Stage::Idle:
            break;
    }
}

template <InstrumentVoice V>
inline float InstrumentBank::oscillator(Voice& v) BOOP_RT {
    const float t = static_cast<float>(v.phase) * kTurnsPerStep;
    if constexpr (V == InstrumentVoice::Sine) {
        return sinTurns(signedTurns(v.phase));
    } else if constexpr (V == InstrumentVoice::Triangle) {
        return std::fabs(signedTurns(v.phase)) * 4.0f - 1.0f;
    } else if constexpr (V == InstrumentVoice::Saw) {
        return blepSaw(t, v.dt, v.invDt);
    } else if constexpr (V == InstrumentVoice::Pulse) {
        const uint32_t shifted = v.phase + widthShift_;
        return 0.5f * (blepSaw(t, v.dt, v.invDt) - blepSaw(static_cast<float>(shifted) * kTurnsPerStep, v.dt, v.invDt));
    } else if constexpr (V == InstrumentVoice::Fm) {
        // Phase modulation by a partial 3.5 times the pitch: the bell's inharmonic sidebands
        // (2.5, 4.5, 6, 8 x f) around a carrier that stays the lowest partial.
        float x = signedTurns(v.phase) + v.modIndex * sinTurns(signedTurns(v.phase2));
        x -= std::floor(x + 0.5f);
        v.modIndex *= fmDecay_;
        return sinTurns(x);
    } else if constexpr (V == InstrumentVoice::Pad) {
        return 0.6f * (blepSaw(t, v.dt, v.invDt) +
                       0.5f * blepSaw(static_cast<float>(v.phase2) * kTurnsPerStep, v.dt2, v.invDt2));
    } else if constexpr (V == InstrumentVoice::Sub) {
        const float s = sinTurns(signedTurns(v.phase));
        return 1.2f * s - 0.3f * s * s * s;  // a little third harmonic, a warm sub
    } else {
        // Karplus-Strong: the string's sample, then the loop: two-point average, allpass, loss.
        const float out = v.line[v.pos];
        const float averaged = 0.5f * (out + v.last);
        v.last = out;
        const float ap = v.apCoeff * averaged + v.apIn - v.apCoeff * v.apOut;
        v.apIn = averaged;
        v.apOut = ap;
        v.line[v.pos] = 0.996f * ap;
        if (++v.pos >= v.length) v.pos = 0;
        return out;
    }
}

// A chunk of a wave that is a function of the phases alone, ahead of the frame loop: a loop
// without a recursion, which the compiler vectorises.
template <InstrumentVoice V>
void InstrumentBank::waveChunk(const Voice& v, float* __restrict out, int count) BOOP_RT {
    Voice w = v;
    for (int i = 0; i < count; ++i) {
        out[i] = oscillator<V>(w);
        w.phase += w.increment;
        if constexpr (V == InstrumentVoice::Pad) w.phase2 += w.increment2;
    }
}

template <InstrumentVoice V, bool Filtered>
void InstrumentBank::renderRun(Voice& v, float* __restrict mono, int begin, int end) BOOP_RT {
    constexpr bool kPhaseOnly = V != InstrumentVoice::Fm && V != InstrumentVoice::Pluck;
    alignas(32) float wave[kChunk];
    if constexpr (kPhaseOnly) waveChunk<V>(v, wave, end - begin);
    // The filter's matrix and state as locals: registers for the whole run, not reloads.
    const dsp::SvfStateSpace space = space_;
    const TwoStep two = twoStep_;
    float s1 = v.filter.ic1, s2 = v.filter.ic2;
    float t1 = v.next1, t2 = v.next2, xEven = v.xEven;
    bool odd = v.odd;
    for (int n = begin; n < end; ++n) {
        float osc;
        if constexpr (kPhaseOnly) {
            osc = wave[n - begin];
        } else {
            osc = oscillator<V>(v);
        }
        float y = osc * v.level * v.gain;
        if constexpr (Filtered) {
            // Frames in pairs: an even frame's output and the odd frame's state from s; the odd
            // frame's output from that state, and the next even state straight from s through
            // A^2, so the recursion waits on one multiply-add per two frames. The pairs follow
            // the voice's own frame count: the same bits wherever a block was cut.
            const float x = y;
            if (!odd) {
                y = space.c1 * s1 + space.c2 * s2 + space.d * x;
                t1 = space.a11 * s1 + space.a12 * s2 + space.b1 * x;
                t2 = space.a21 * s1 + space.a22 * s2 + space.b2 * x;
                xEven = x;
            } else {
                y = space.c1 * t1 + space.c2 * t2 + space.d * x;
                const float u1 = two.ab1 * xEven + space.b1 * x, u2 = two.ab2 * xEven + space.b2 * x;
                const float n1 = two.a11 * s1 + two.a12 * s2 + u1;
                s2 = two.a21 * s1 + two.a22 * s2 + u2;
                s1 = n1;
            }
            odd = !odd;
        }
        mono[n] += y;
        v.phase += v.increment;
        if constexpr (V == InstrumentVoice::Fm || V == InstrumentVoice::Pad) v.phase2 += v.increment2;
        if (v.stage != Stage::Sustain) {
            advanceEnvelope(v);
            if (v.stage == Stage::Idle) break;
        }
    }
    v.filter.ic1 = s1;
    v.filter.ic2 = s2;
    v.next1 = t1;
    v.next2 = t2;
    v.xEven = xEven;
    v.odd = odd;
}

void InstrumentBank::renderVoice(Voice& v, float* mono, int begin, int end) BOOP_RT {
    using IV = InstrumentVoice;
    const bool f = filtered_;
    switch (params_.voice) {
        case IV::Sine:
            return f ? renderRun<IV::Sine, true>(v, mono, begin, end) : renderRun<IV::Sine, false>(v, mono, begin, end);
        case IV::Triangle:
            return f ? renderRun<IV::Triangle, true>(v, mono, begin, end)
                     : renderRun<IV::Triangle, false>(v, mono, begin, end);
        case IV::Pulse:
            return f ? renderRun<IV::Pulse, true>(v, mono, begin, end)
                     : renderRun<IV::Pulse, false>(v, mono, begin, end);
        case IV::Saw:
            return f ? renderRun<IV::Saw, true>(v, mono, begin, end) : renderRun<IV::Saw, false>(v, mono, begin, end);
        case IV::Fm:
            return f ? renderRun<IV::Fm, true>(v, mono, begin, end) : renderRun<IV::Fm, false>(v, mono, begin, end);
        case IV::Pluck:
            return f ? renderRun<IV::Pluck, true>(v, mono, begin, end)
                     : renderRun<IV::Pluck, false>(v, mono, begin, end);
        case IV::Pad:
            return f ? renderRun<IV::Pad, true>(v, mono, begin, end) : renderRun<IV::Pad, false>(v, mono, begin, end);
        case IV::Sub:
            return f ? renderRun<IV::Sub, true>(v, mono, begin, end) : renderRun<IV::Sub, false>(v, mono, begin, end);
    }
}

void InstrumentBank::render(float* __restrict left, float* __restrict right, int begin, int end) BOOP_RT {
    if (active_ == 0) return;
    // The voices sum into one mono chunk, panned once (they share the track's pan): a frame's
    // sum runs in voice order whatever the chunk, so the bits do not depend on the block size.
    alignas(32) float mono[kChunk];
    for (int c = begin; c < end && active_ > 0; c += kChunk) {
        const int n = std::min(kChunk, end - c);
        std::fill(mono, mono + n, 0.0f);
        for (Voice& stored : voices_) {
            if (stored.stage == Stage::Idle) continue;
            Voice v = stored;  // in registers: the output cannot alias it
            renderVoice(v, mono, 0, n);
            stored = v;
        }
        const float panLeft = panLeft_, panRight = panRight_;
        for (int i = 0; i < n; ++i) {
            left[c + i] += mono[i] * panLeft;
            right[c + i] += mono[i] * panRight;
        }
    }
}

}  // namespace boop
