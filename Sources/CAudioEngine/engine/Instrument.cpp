#include "engine/Instrument.hpp"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include "dsp/Rng.hpp"
#include "dsp/SimdTypes.hpp"
#include "include/CAudioEngineLimits.h"

namespace boop {

namespace {

constexpr double kTwoTo32 = 4294967296.0;

// Where setParam holds each number of an instrument: inside its row of the limits table (the C API
// refuses what lies outside; this keeps the engine sound whatever reaches it). One row a number,
// Width ... Pan in the order of InstrumentParams::Index; the times have only their floor, and the
// cutoff only a floor of 1 Hz.
struct ParamRange {
    double InstrumentParams::*field;
    double min, max;
};
constexpr double kNoCeiling = std::numeric_limits<double>::infinity();
constexpr ParamRange within(double InstrumentParams::*field, boop_limit_id id) {
    return {field, boop_limit_get(id).min, boop_limit_get(id).max};
}
constexpr ParamRange atLeast(double InstrumentParams::*field, boop_limit_id id) {
    return {field, boop_limit_get(id).min, kNoCeiling};
}
constexpr ParamRange kParamRanges[] = {
    within(&InstrumentParams::width, BOOP_LIMIT_INSTRUMENT_WIDTH),
    atLeast(&InstrumentParams::attack, BOOP_LIMIT_INSTRUMENT_ATTACK),
    atLeast(&InstrumentParams::decay, BOOP_LIMIT_INSTRUMENT_DECAY),
    within(&InstrumentParams::sustain, BOOP_LIMIT_INSTRUMENT_SUSTAIN),
    atLeast(&InstrumentParams::release, BOOP_LIMIT_INSTRUMENT_RELEASE),
    {&InstrumentParams::cutoff, 1.0, kNoCeiling},
    within(&InstrumentParams::resonance, BOOP_LIMIT_INSTRUMENT_RESONANCE),
    within(&InstrumentParams::pan, BOOP_LIMIT_INSTRUMENT_PAN),
};
static_assert(sizeof kParamRanges / sizeof kParamRanges[0] == InstrumentParams::Count - InstrumentParams::Width,
              "a range for every number after the voice");

}  // namespace

void InstrumentBank::prepare(double sampleRate) {
    sampleRate_ = sampleRate;
    wide_ = dsp::simd::useAvx2();
    stringLength_ = static_cast<int>(std::ceil(sampleRate / kLowestPluckHz)) + 4;
    strings_.reset(new float[static_cast<size_t>(stringLength_) * kLanes]());
    for (int i = 0; i < kLanes; ++i) {
        voices_[i] = Voice{};
        voices_[i].tone.line = strings_.get() + static_cast<size_t>(i) * stringLength_;
    }
    params_ = InstrumentParams{};
    active_ = 0;
    updateCoefficients();
}

void InstrumentBank::updateCoefficients() BOOP_RT {
    const bool filtered = params_.cutoff < 0.45 * sampleRate_;
    if (filtered) {
        dsp::SvfCoeffs filter;
        filter.set(sampleRate_, params_.cutoff, params_.resonance);
        shared_.setFilter(dsp::SvfStateSpace::of(filter));
    }
    kernel_ = chooseToneKernel(params_.voice, filtered, wide_);
    panGains(params_.pan, panLeft_, panRight_);
    shared_.widthShift = static_cast<uint32_t>(params_.width * kTwoTo32);
    // The bell's brightness falls by 60 dB in 1.2 s, whatever the rate.
    shared_.setFmDecay(std::pow(0.001, 1.0 / (1.2 * sampleRate_)));
}

void InstrumentBank::setParam(uint32_t index, double value) BOOP_RT {
    if (index == InstrumentParams::Voice) {
        params_.voice = clampVoice(static_cast<int>(value));
    } else if (index < InstrumentParams::Count) {
        const ParamRange& range = kParamRanges[index - InstrumentParams::Width];
        params_.*range.field = std::clamp(value, range.min, range.max);
    } else {
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

namespace {
uint32_t framesOf(double seconds, double rate) noexcept {
    return static_cast<uint32_t>(std::max(1.0, std::nearbyint(std::min(seconds * rate, 4.0e9))));
}

// mono[0 ... 7] += tone x (start + slope x (at + k)) x gain.
BOOP_SIMD_INLINE void addGroup(float* mono, const float* tone, float start, float slope, uint32_t at,
                               float gain) noexcept {
    using dsp::simd::f8;
    const dsp::simd::u8 iota = {0, 1, 2, 3, 4, 5, 6, 7};
    const f8 frames = __builtin_convertvector(at + iota, f8);
    f8 t, m;
    std::memcpy(&t, tone, sizeof t);
    std::memcpy(&m, mono, sizeof m);
    m += t * (start + slope * frames) * gain;
    std::memcpy(mono, &m, sizeof m);
}

// Tunes a Karplus-Strong string to hz and fills it with seeded noise.
void exciteString(ToneState& t, double rate, double hz, int maxLength, uint32_t seed) BOOP_RT {
    // Loop delay = length + 0.5 (the two-point average) + d (the allpass) = rate / hz.
    const double period = std::max(rate / hz, 3.0);
    const int length = std::min(static_cast<int>(std::floor(period - 0.6)), maxLength);
    const double d = period - 0.5 - length;
    t.length = std::max(length, 2);
    t.apCoeff = static_cast<float>((1.0 - d) / (1.0 + d));
    uint32_t s = seed * 2654435761u + 0x9E3779B9u;
    if (s == 0) s = 1;
    for (int i = 0; i < t.length; ++i)
        t.line[i] = dsp::Rng::xorshift32(s);  // the pluck's excitation noise, seeded per note
}
}  // namespace

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
                if (!slot || v.level() < slot->level()) slot = &v;
        if (!slot) return;
    } else {
        ++active_;
    }
    Voice& v = *slot;
    float* line = v.tone.line;
    v.noteId = noteId;
    v.order = order;
    v.gain = gain;
    v.used = kToneAhead;
    ToneState& t = v.tone;
    t = ToneState{};
    t.line = line;
    v.hz = hz;
    tune(t, pitch_ == 1.0 ? hz : hz * pitch_);
    t.modIndex = 0.35f;
    const uint32_t attack = framesOf(std::max(params_.attack, kMinAttack), sampleRate_);
    enterStage(v, Stage::Attack, 0.0f, attack, static_cast<float>(1.0 / attack));
    if (params_.voice == BOOP_VOICE_PLUCK) exciteString(t, sampleRate_, hz, stringLength_, seed);
}

void InstrumentBank::tune(ToneState& t, double hz) const BOOP_RT {
    const double increment = std::nearbyint(hz / sampleRate_ * kTwoTo32);
    t.increment = static_cast<uint32_t>(increment);
    t.dt = static_cast<float>(increment / kTwoTo32);
    t.invDt = 1.0f / std::max(t.dt, 1e-9f);
    const double ratio = params_.voice == BOOP_VOICE_FM ? 3.5 : 2.0;
    const double increment2 = std::min(std::nearbyint(increment * ratio), kTwoTo32 / 2 - 1);
    t.increment2 = static_cast<uint32_t>(increment2);
    t.dt2 = static_cast<float>(increment2 / kTwoTo32);
    t.invDt2 = 1.0f / std::max(t.dt2, 1e-9f);
}

void InstrumentBank::setPitch(double ratio) BOOP_RT {
    if (ratio == pitch_) return;
    pitch_ = ratio;
    if (params_.voice == BOOP_VOICE_PLUCK) return;
    for (Voice& v : voices_)
        if (v.stage != Stage::Idle) tune(v.tone, v.hz * ratio);
}

void InstrumentBank::enterStage(Voice& v, Stage stage, float start, uint32_t length, float slope) BOOP_RT {
    v.stage = stage;
    v.envStart = start;
    v.envSlope = slope;
    v.at = 0;
    v.length = length;
}

void InstrumentBank::nextStage(Voice& v) BOOP_RT {
    const float sustain = static_cast<float>(params_.sustain);
    if (v.stage == Stage::Attack) {
        const double frames = std::nearbyint(params_.decay * sampleRate_);
        if (frames >= 1.0 && sustain < 1.0f) {
            const uint32_t n = framesOf(params_.decay, sampleRate_);
            enterStage(v, Stage::Decay, 1.0f, n, static_cast<float>(-(1.0 - params_.sustain) / n));
            return;
        }
    } else if (v.stage == Stage::Release || v.stage == Stage::Fade) {
        v.stage = Stage::Idle;
        --active_;
        return;
    }
    enterStage(v, Stage::Sustain, sustain, std::numeric_limits<uint32_t>::max(), 0.0f);
}

void InstrumentBank::beginRelease(Voice& v, double seconds) BOOP_RT {
    const float level = v.level();
    const uint32_t n = framesOf(seconds, sampleRate_);
    enterStage(v, Stage::Release, level, n, -level / static_cast<float>(n));
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
        // A release already ending sooner keeps its own slope.
        const bool falling = v.stage == Stage::Release || v.stage == Stage::Fade;
        if (!falling || framesOf(seconds, sampleRate_) < v.length - v.at) beginRelease(v, seconds);
        v.stage = Stage::Fade;
    }
}

// The voice's frames: its tone group by group, times the envelope stage by stage. Inlined into
// both builds of renderChunks.
__attribute__((always_inline)) inline void InstrumentBank::renderVoice(Voice& v, float* __restrict mono,
                                                                       int count) BOOP_RT {
    for (int i = 0; i < count;) {
        if (v.used == kToneAhead) {
            kernel_(v.tone, shared_, v.ahead);
            v.used = 0;
        }
        int run = std::min(kToneAhead - v.used, count - i);
        const bool held = v.stage == Stage::Sustain;
        if (!held) run = static_cast<int>(std::min<uint32_t>(static_cast<uint32_t>(run), v.length - v.at));
        const float start = v.envStart, slope = v.envSlope, gain = v.gain;
        const float* ahead = v.ahead + v.used;
        // Eight frames a vector, the rest one by one: the same operations either way.
        int k = 0;
        for (; k + 8 <= run; k += 8)
            addGroup(mono + i + k, ahead + k, start, slope, v.at + static_cast<uint32_t>(k), gain);
        for (; k < run; ++k)
            mono[i + k] += ahead[k] * (start + slope * static_cast<float>(v.at + static_cast<uint32_t>(k))) * gain;
        v.used += run;
        i += run;
        if (held) continue;
        v.at += static_cast<uint32_t>(run);
        if (v.at >= v.length) {
            nextStage(v);
            if (v.stage == Stage::Idle) return;
        }
    }
}

void InstrumentBank::render(float* left, float* right, int begin, int end) BOOP_RT {
    if (active_ == 0) return;
    if (wide_) {
        renderAvx2(left, right, begin, end);
    } else {
        renderBaseline(left, right, begin, end);
    }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
// AVX2 without FMA: eight-lane vectors, and no multiply fused into an add that the baseline
// rounds separately, so both builds give the same samples.
__attribute__((target("avx2"))) void InstrumentBank::renderAvx2(float* l, float* r, int b, int e) BOOP_RT {
    renderChunks(l, r, b, e);
}
#else
void InstrumentBank::renderAvx2(float* l, float* r, int b, int e) BOOP_RT { renderChunks(l, r, b, e); }
#endif
void InstrumentBank::renderBaseline(float* l, float* r, int b, int e) BOOP_RT { renderChunks(l, r, b, e); }

__attribute__((always_inline)) inline void InstrumentBank::renderChunks(float* __restrict left, float* __restrict right,
                                                                        int begin, int end) BOOP_RT {
    // The voices sum into one mono chunk, panned once (they share the track's pan): a frame's
    // sum runs in voice order whatever the chunk, so the bits do not depend on the block size.
    alignas(32) float mono[kChunk];
    for (int c = begin; c < end && active_ > 0; c += kChunk) {
        const int n = std::min(kChunk, end - c);
        std::fill(mono, mono + n, 0.0f);
        for (Voice& v : voices_)
            if (v.stage != Stage::Idle) renderVoice(v, mono, n);
        const float panLeft = panLeft_, panRight = panRight_;
        for (int i = 0; i < n; ++i) {
            left[c + i] += mono[i] * panLeft;
            right[c + i] += mono[i] * panRight;
        }
    }
}

}  // namespace boop
