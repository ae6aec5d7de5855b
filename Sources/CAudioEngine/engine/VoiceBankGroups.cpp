// The voice bank's operations on groups of notes, for live MIDI (see VoiceBank.hpp).
#include <cmath>

#include "engine/SynthExpression.hpp"
#include "engine/VoiceBank.hpp"

namespace boop {

void VoiceBank::fadeGroup(uint32_t group, double seconds) BOOP_RT {
    for (int l = 0; l < laneCount_; ++l) {
        const LaneState s = lanes_[l].state;
        if ((s == LaneState::Held || s == LaneState::Releasing) && (lanes_[l].noteId >> 8) == group) {
            fade(l, seconds);
        }
    }
}

void VoiceBank::retuneGroup(uint32_t group, double ratio) BOOP_RT {
    for (int l = 0; l < laneCount_; ++l) {
        Lane& lane = lanes_[l];
        if (lane.state == LaneState::Idle || (lane.noteId >> 8) != group) continue;
        lane.hz *= ratio;
        // Only the increment changes: the phase runs on from where it is, so the waveform has
        // no step, and the next frame already sounds the new pitch.
        const double increment = std::nearbyint(lane.hz / sampleRate_ * 4294967296.0);
        if (!(increment >= 1.0 && increment < 2147483648.0)) continue;  // at or above Nyquist: keep the old pitch
        Chunk& c = chunk(l);
        const int i = l % dsp::simd::kLanes;
        c.increment[i] = static_cast<uint32_t>(increment);
        c.invDt[i] = static_cast<float>(4294967296.0 / increment);
        if (lane.cutoff > 0.0) applyGain(l);
    }
}

void VoiceBank::setGroupVolume(uint32_t group, float volume, double cutoffHz) BOOP_RT {
    for (int l = 0; l < laneCount_; ++l) {
        Lane& lane = lanes_[l];
        if (lane.state == LaneState::Idle || (lane.noteId >> 8) != group) continue;
        lane.volume = volume;
        lane.cutoff = cutoffHz;
        applyGain(l);
    }
}

void VoiceBank::applyGain(int l) BOOP_RT {
    const Lane& lane = lanes_[l];
    // The gain multiplies the lowpass's input, so a change frame by frame reaches the output
    // smoothed further by the filter. Without a cutoff the bits are those of unit gain x volume.
    float gain = lane.unitGain * lane.volume;
    if (lane.cutoff > 0.0) gain *= static_cast<float>(lowpassGain(sampleRate_, lane.cutoff, kExpressionQ, lane.hz));
    chunk(l).gain[l % dsp::simd::kLanes] = gain;
}

}  // namespace boop
