#include "engine/Instrument.hpp"
#include <algorithm>
#include <cmath>
#include <cstring>

namespace boop {

namespace {

constexpr double kTwoTo32 = 4294967296.0;
constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;

// sin(2 pi x) for x in [-0.5, 0.5) turns: the engine's polynomial (dsp::simd::sinTurns), one lane.
inline float sinTurns(float x) noexcept {
    const float b = std::fabs(x) - 0.25f;
    const float b2 = b * b;
    float p = 56.24054044084265f;
    p = p * b2 - 85.24010035715763f;
    p = p * b2 + 64.93458164580115f;
    p = p * b2 - 19.739171322478587f;
    p = p * b2 + 0.9999999532476083f;
    return x < 0.0f ? -p : p;
}

// The phase as signed turns in [-0.5, 0.5) (a cosine-phase start: 0 is the wave's minimum for
// the triangle, its zero crossing for the sine).
inline float signedTurns(uint32_t phase) noexcept {
    return static_cast<float>(static_cast<int32_t>(phase)) * kTurnsPerStep;
}

// A band-limited saw at unsigned phase t in [0, 1): the naive ramp minus the polyBLEP residual.
inline float blepSaw(float t, float dt, float invDt) noexcept {
    float blep = 0.0f;
    if (t < dt) {
        const float u = t * invDt;
        blep = u + u - u * u - 1.0f;
    } else if (t > 1.0f - dt) {
        const float u = (t - 1.0f) * invDt;
        blep = u * u + u + u + 1.0f;
    }
    return (t + t - 1.0f) - blep;
}

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
    if (filtered_) filter_.set(sampleRate_, params_.cutoff, params_.resonance);
    panGains(params_.pan, panLeft_, panRight_);
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

void InstrumentBank::advanceEnvelope(Voice& v) BOOP_RT {
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

float InstrumentBank::oscillator(Voice& v) BOOP_RT {
    const float t = static_cast<float>(v.phase) * kTurnsPerStep;
    switch (params_.voice) {
        case InstrumentVoice::Sine:
            return sinTurns(signedTurns(v.phase));
        case InstrumentVoice::Triangle:
            return std::fabs(signedTurns(v.phase)) * 4.0f - 1.0f;
        case InstrumentVoice::Saw:
            return blepSaw(t, v.dt, v.invDt);
        case InstrumentVoice::Pulse: {
            const uint32_t shifted = v.phase + static_cast<uint32_t>(params_.width * kTwoTo32);
            return 0.5f *
                   (blepSaw(t, v.dt, v.invDt) - blepSaw(static_cast<float>(shifted) * kTurnsPerStep, v.dt, v.invDt));
        }
        case InstrumentVoice::Fm: {
            // Phase modulation by a partial 3.5 times the pitch: the bell's inharmonic sidebands
            // (2.5, 4.5, 6, 8 x f) above a carrier that stays the lowest and strongest partial.
            float x = signedTurns(v.phase) + v.modIndex * sinTurns(signedTurns(v.phase2));
            x -= std::floor(x + 0.5f);
            v.modIndex *= fmDecay_;
            return sinTurns(x);
        }
        case InstrumentVoice::Pad:
            return 0.6f * (blepSaw(t, v.dt, v.invDt) +
                           0.5f * blepSaw(static_cast<float>(v.phase2) * kTurnsPerStep, v.dt2, v.invDt2));
        case InstrumentVoice::Sub: {
            const float s = sinTurns(signedTurns(v.phase));
            return 1.2f * s - 0.3f * s * s * s;  // a little third harmonic, a warm sub
        }
        case InstrumentVoice::Pluck: {
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
    return 0.0f;
}

void InstrumentBank::renderVoice(Voice& v, float* left, float* right, int begin, int end) BOOP_RT {
    for (int n = begin; n < end && v.stage != Stage::Idle; ++n) {
        float y = oscillator(v) * v.level * v.gain;
        if (filtered_) y = v.filter.lowpass(filter_, y);
        left[n] += y * panLeft_;
        right[n] += y * panRight_;
        v.phase += v.increment;
        v.phase2 += v.increment2;
        advanceEnvelope(v);
    }
}

void InstrumentBank::render(float* left, float* right, int begin, int end) BOOP_RT {
    if (active_ == 0) return;
    for (Voice& v : voices_)
        if (v.stage != Stage::Idle) renderVoice(v, left, right, begin, end);
}

}  // namespace boop
