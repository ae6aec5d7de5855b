#include "engine/VoiceBank.hpp"
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <type_traits>

namespace boop {

using namespace dsp::simd;

void VoiceBank::prepare(double sampleRate, int capacity, const TimbreSpec& spec) {
    spec_ = spec;
    sampleRate_ = sampleRate;
    if (spec.filtered) coefficients_ = dsp::BiquadCoefficients::lowpass(sampleRate, spec.cutoffHz, spec.q);
    group_ = GroupFilter::of(coefficients_.a1, coefficients_.a2);
    kernels_ = chooseKernels(spec);
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
    ownedCount_ = 0;
}

static bool owns(VoiceBank::LaneState s) BOOP_RT {
    return s == VoiceBank::LaneState::Held || s == VoiceBank::LaneState::Releasing;
}

VoiceBank::StealCandidate VoiceBank::stealCandidate() const BOOP_RT {
    StealCandidate best;
    if (ownedCount_ == 0) return best;
    for (int l = 0; l < laneCount_; ++l) {
        const Lane& lane = lanes_[l];
        if (!owns(lane.state)) continue;
        StealCandidate c;
        c.lane = l;
        c.releasing = lane.state == LaneState::Releasing;
        c.age = c.releasing ? lane.releaseFrame : lane.order;
        c.order = lane.order;
        if (c.before(best)) best = c;
    }
    return best;
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

void VoiceBank::start(int lane, double frequencyHz, float gain, uint32_t noteId, uint64_t order, uint64_t frame,
                      float volume, double cutoffHz) BOOP_RT {
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    // Rounding to the 2^-32 grid: at 44.1 kHz one step is 1.03e-5 Hz, 0.0007 cent at A0.
    const double increment = std::nearbyint(frequencyHz / sampleRate_ * 4294967296.0);
    c.phase[i] = 0;
    c.increment[i] = static_cast<uint32_t>(increment);
    c.start[i] = 0.0f;
    c.t[i] = 0.0f;
    c.slope[i] = static_cast<float>(1.0 / std::max(1.0, spec_.attackSeconds * sampleRate_));
    const float unitGain = gain * spec_.level * (spec_.filtered ? coefficients_.b0 : 1.0f);
    c.gain[i] = unitGain * volume;  // volume 1 (everything but live MIDI) leaves the bits as they were
    c.invDt[i] = static_cast<float>(4294967296.0 / std::max(increment, 1.0));
    c.s1[i] = c.s2[i] = 0.0f;
    for (f8& x : c.gx) x[i] = 0.0f;
    Lane& l = lanes_[lane];
    if (l.state == LaneState::Idle) ++activeCount_;
    if (!owns(l.state)) ++ownedCount_;
    // Held from `frame`, not yet released.
    l = Lane{LaneState::Held, noteId, order, frame, 0, frequencyHz, unitGain, volume, cutoffHz};
    if (cutoffHz > 0.0) applyGain(lane);
    chunkActive_[lane / kLanes] |= static_cast<uint8_t>(1u << i);
}

void VoiceBank::release(int lane, uint64_t frame) BOOP_RT {
    Lane& l = lanes_[lane];
    if (l.state != LaneState::Held) return;
    const double gateSeconds = static_cast<double>(frame - l.onFrame) / sampleRate_;
    const double seconds = std::min(gateSeconds * spec_.releaseGateFraction, spec_.releaseMaxSeconds);
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    const float from = level(lane);
    c.start[i] = from;
    c.t[i] = 0.0f;
    c.slope[i] = -from / static_cast<float>(std::max(1.0, seconds * sampleRate_));
    l.state = LaneState::Releasing;
    l.releaseFrame = frame;
}

void VoiceBank::fade(int lane, double seconds) BOOP_RT {
    Lane& l = lanes_[lane];
    if (l.state == LaneState::Idle) return;
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    const float from = level(lane);
    const float fadeSlope = -from / static_cast<float>(std::max(1.0, seconds * sampleRate_));
    // A release already falling faster keeps its own slope: fading must never slow a voice down.
    if ((l.state != LaneState::Fading || fadeSlope < c.slope[i]) && fadeSlope < c.slope[i]) {
        c.start[i] = from;
        c.t[i] = 0.0f;
        c.slope[i] = fadeSlope;
    }
    if (owns(l.state)) --ownedCount_;
    l.state = LaneState::Fading;
}

void VoiceBank::retire(int lane) BOOP_RT {
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    c.start[i] = 0.0f;
    c.t[i] = 0.0f;
    c.slope[i] = 0.0f;
    c.gain[i] = 0.0f;
    c.s1[i] = c.s2[i] = 0.0f;
    for (f8& x : c.gx) x[i] = 0.0f;
    if (owns(lanes_[lane].state)) --ownedCount_;
    lanes_[lane].state = LaneState::Idle;
    --activeCount_;
    chunkActive_[lane / kLanes] &= static_cast<uint8_t>(~(1u << i));
}

// The first k inputs of lane i's current group are all zero.
static bool groupSilent(const VoiceBank::Chunk& c, int i, uint32_t k) noexcept {
    for (uint32_t j = 0; j < k; ++j)
        if (c.gx[j][i] != 0.0f) return false;
    return true;
}

bool VoiceBank::render(f8* acc, float* mono, uint64_t clock, int begin, int end) BOOP_RT {
    if (activeCount_ == 0 || end <= begin) return false;
    bool usedAcc = false;
    const uint32_t k = static_cast<uint32_t>((clock + static_cast<uint64_t>(begin)) & 7u);
    // Frames of a group the block ends inside: a lane retires only when they, too, are silent.
    const uint32_t kEnd = static_cast<uint32_t>((clock + static_cast<uint64_t>(end)) & 7u);
    for (int ci = 0; ci < chunkCount_; ++ci) {
        const uint8_t active = chunkActive_[ci];
        if (!active) continue;
        Chunk& c = chunks_[ci];
        // Up to kMaxTimeMajorLanes sounding lanes: each on its own, eight frames at a time.
        if (__builtin_popcount(active) <= kMaxTimeMajorLanes) {
            kernels_.lane(c, active, mono, begin, end, k, group_);
        } else {
            kernels_.chunk(c, acc, begin, end, k, group_);
            usedAcc = true;
        }
        // Retire lanes whose release or fade has reached silence and whose filter has rung
        // down to exactly zero (the render path flushes denormals, so that comes some hundreds
        // of frames later): nothing is cut off mid-ring, and since a lane adds only zeros by
        // then, the block boundary at which it is retired changes no bit of its output.
        for (int i = 0; i < kLanes; ++i) {
            const int lane = ci * kLanes + i;
            const LaneState s = lanes_[lane].state;
            if ((s == LaneState::Releasing || s == LaneState::Fading) && level(lane) <= 0.0f && c.s1[i] == 0.0f &&
                c.s2[i] == 0.0f && groupSilent(c, i, kEnd))
                retire(lane);
        }
    }
    return usedAcc;
}

}  // namespace boop
