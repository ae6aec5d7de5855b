#include "engine/VoiceBank.hpp"
#include <algorithm>
#include <cmath>

namespace boop {

using namespace simd;

void VoiceBank::prepare(double sampleRate, int capacity, const TimbreSpec& spec) {
    spec_ = spec;
    sampleRate_ = sampleRate;
    if (spec.filtered) coefficients_ = BiquadCoefficients::lowpass(sampleRate, spec.cutoffHz, spec.q);
    chunkCount_ = (std::max(capacity, 1) + kLanes - 1) / kLanes;
    laneCount_ = chunkCount_ * kLanes;
    chunks_.reset(new Chunk[chunkCount_]);
    lanes_.reset(new Lane[laneCount_]);
    chunkActive_.reset(new uint8_t[chunkCount_]);
    reset();
}

void VoiceBank::reset() noexcept {
    for (int c = 0; c < chunkCount_; ++c) {
        chunks_[c] = Chunk{};
        chunks_[c].invDt = splat(0.0f);
        chunkActive_[c] = 0;
    }
    for (int l = 0; l < laneCount_; ++l) lanes_[l] = Lane{};
    activeCount_ = 0;
}

int VoiceBank::findFreeLane() const BOOP_RT {
    for (int l = 0; l < laneCount_; ++l)
        if (lanes_[l].state == LaneState::Idle) return l;
    return -1;
}

int VoiceBank::quietestFadingLane() const BOOP_RT {
    int best = -1;
    float bestLevel = 2.0f;
    for (int l = 0; l < laneCount_; ++l) {
        if (lanes_[l].state == LaneState::Fading && level(l) < bestLevel) {
            best = l;
            bestLevel = level(l);
        }
    }
    return best;
}

int VoiceBank::findHeld(uint32_t noteId) const BOOP_RT {
    for (int l = 0; l < laneCount_; ++l)
        if (lanes_[l].state == LaneState::Held && lanes_[l].noteId == noteId) return l;
    return -1;
}

void VoiceBank::start(int lane, double frequencyHz, float gain, uint32_t noteId, uint64_t order,
                      uint64_t frame) BOOP_RT {
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    // Rounding to the 2^-32 grid: at 44.1 kHz one step is 1.03e-5 Hz, 0.0007 cent at A0.
    const double increment = std::nearbyint(frequencyHz / sampleRate_ * 4294967296.0);
    c.phase[i] = 0;
    c.increment[i] = static_cast<uint32_t>(increment);
    c.level[i] = 0.0f;
    c.slope[i] = static_cast<float>(1.0 / std::max(1.0, spec_.attackSeconds * sampleRate_));
    c.gain[i] = gain * spec_.level;
    c.invDt[i] = static_cast<float>(4294967296.0 / std::max(increment, 1.0));
    c.z1[i] = 0.0f;
    c.z2[i] = 0.0f;
    Lane& l = lanes_[lane];
    if (l.state == LaneState::Idle) ++activeCount_;
    l.state = LaneState::Held;
    l.noteId = noteId;
    l.order = order;
    l.onFrame = frame;
    chunkActive_[lane / kLanes] |= static_cast<uint8_t>(1u << i);
}

void VoiceBank::release(int lane, uint64_t frame) BOOP_RT {
    Lane& l = lanes_[lane];
    if (l.state != LaneState::Held) return;
    const double gateSeconds = static_cast<double>(frame - l.onFrame) / sampleRate_;
    const double seconds = std::min(gateSeconds * spec_.releaseGateFraction, spec_.releaseMaxSeconds);
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    c.slope[i] = -c.level[i] / static_cast<float>(std::max(1.0, seconds * sampleRate_));
    l.state = LaneState::Releasing;
}

void VoiceBank::fade(int lane, double seconds) BOOP_RT {
    Lane& l = lanes_[lane];
    if (l.state == LaneState::Idle) return;
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    const float fadeSlope = -c.level[i] / static_cast<float>(std::max(1.0, seconds * sampleRate_));
    // A release already falling faster keeps its own slope: fading must never slow a voice down.
    if (l.state != LaneState::Fading || fadeSlope < c.slope[i]) c.slope[i] = std::min(fadeSlope, c.slope[i]);
    l.state = LaneState::Fading;
}

void VoiceBank::retire(int lane) BOOP_RT {
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    c.level[i] = 0.0f;
    c.slope[i] = 0.0f;
    c.gain[i] = 0.0f;
    c.z1[i] = 0.0f;
    c.z2[i] = 0.0f;
    lanes_[lane].state = LaneState::Idle;
    --activeCount_;
    chunkActive_[lane / kLanes] &= static_cast<uint8_t>(~(1u << i));
}

// The hot loop. Each iteration renders one frame of eight voices with straight-line vector code:
// phase step, polynomial sine (or band-limited triangle/saw), envelope as a clamped ramp (attack
// and release are the same add-and-clamp; no per-sample branch on the envelope stage), optional
// raised-cosine shaping, gain, then the biquad. State stays in registers across the frame loop.
template <Waveform W, bool Filtered, bool Shaped>
void VoiceBank::renderChunk(Chunk& c, f8* acc, int begin, int end) BOOP_RT {
    u8 phase = c.phase;
    const u8 increment = c.increment;
    f8 level = c.level;
    const f8 slope = c.slope, gain = c.gain, invDt = c.invDt;
    f8 z1 = c.z1, z2 = c.z2;
    const BiquadCoefficients k = coefficients_;
    constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;

    for (int n = begin; n < end; ++n) {
        f8 wave;
        if constexpr (W == Waveform::Saw) {
            // Unsigned phase in [0, 1): a rising ramp, with polyBLEP residuals subtracted on
            // either side of the wrap so the step does not alias.
            const f8 t = __builtin_convertvector(phase, f8) * kTurnsPerStep;
            const f8 dt = __builtin_convertvector(increment, f8) * kTurnsPerStep;
            const f8 u0 = t * invDt;
            const f8 u1 = (t - 1.0f) * invDt;
            const f8 afterWrap = u0 + u0 - u0 * u0 - 1.0f;
            const f8 beforeWrap = u1 * u1 + u1 + u1 + 1.0f;
            const f8 blep = select(t < dt, afterWrap, select(t > 1.0f - dt, beforeWrap, splat(0.0f)));
            wave = (t + t - 1.0f) - blep;
        } else {
            // Signed phase in [-0.5, 0.5) turns.
            const f8 x = __builtin_convertvector(reinterpret_cast<const i8&>(phase), f8) * kTurnsPerStep;
            if constexpr (W == Waveform::Sine) {
                wave = sinTurns(x);
            } else {
                wave = abs(x) * 4.0f - 1.0f;
            }
        }
        phase += increment;

        f8 env = level;
        level = min(max(level + slope, splat(0.0f)), splat(1.0f));
        if constexpr (Shaped) env = env * env * (3.0f - 2.0f * env);

        f8 y = wave * env * gain;
        if constexpr (Filtered) {
            const f8 in = y;
            y = in * k.b0 + z1;
            z1 = in * k.b1 - y * k.a1 + z2;
            z2 = in * k.b2 - y * k.a2;
        }
        acc[n] += y;
    }
    c.phase = phase;
    c.level = level;
    c.z1 = z1;
    c.z2 = z2;
}

void VoiceBank::render(f8* acc, int begin, int end) BOOP_RT {
    if (activeCount_ == 0 || end <= begin) return;
    for (int ci = 0; ci < chunkCount_; ++ci) {
        if (!chunkActive_[ci]) continue;
        Chunk& c = chunks_[ci];
        switch (spec_.waveform) {
            case Waveform::Sine:
                if (spec_.raisedCosineEdges) {
                    if (spec_.filtered) renderChunk<Waveform::Sine, true, true>(c, acc, begin, end);
                    else renderChunk<Waveform::Sine, false, true>(c, acc, begin, end);
                } else {
                    if (spec_.filtered) renderChunk<Waveform::Sine, true, false>(c, acc, begin, end);
                    else renderChunk<Waveform::Sine, false, false>(c, acc, begin, end);
                }
                break;
            case Waveform::Triangle: renderChunk<Waveform::Triangle, true, false>(c, acc, begin, end); break;
            case Waveform::Saw: renderChunk<Waveform::Saw, true, false>(c, acc, begin, end); break;
        }
        // Retire lanes whose release or fade has reached silence and whose filter has rung
        // down (a few tenths of a millisecond later), so nothing is ever cut off mid-ring.
        for (int i = 0; i < kLanes; ++i) {
            const int lane = ci * kLanes + i;
            const LaneState s = lanes_[lane].state;
            if ((s == LaneState::Releasing || s == LaneState::Fading) && c.level[i] <= 0.0f &&
                std::fabs(c.z1[i]) < 1e-7f && std::fabs(c.z2[i]) < 1e-7f)
                retire(lane);
        }
    }
}

}  // namespace boop
