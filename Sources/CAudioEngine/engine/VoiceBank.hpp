#pragma once
#include <cstdint>
#include <memory>
#include "dsp/GroupBiquad.hpp"
#include "dsp/Lowpass.hpp"
#include "dsp/SimdTypes.hpp"
#include "engine/Timbre.hpp"
#include "rt/Realtime.hpp"

namespace boop {

// All voices of one timbre, stored structure-of-arrays in chunks of eight lanes and rendered
// eight at a time. This is the one place where the engine's hot loop lives; see render().
class VoiceBank {
  public:
    enum class LaneState : uint8_t {
        Idle,
        Held,       // attack, then sustain, until note-off
        Releasing,  // note-off received: linear release to zero
        Fading      // stolen or all-notes-off: a short fade to zero; no longer owns a voice
    };

    // Allocates. capacity lanes (rounded up to a multiple of eight).
    void prepare(double sampleRate, int capacity, const TimbreSpec& spec);
    void reset() noexcept;

    int capacity() const noexcept { return laneCount_; }
    LaneState state(int lane) const noexcept { return lanes_[lane].state; }
    uint64_t order(int lane) const noexcept { return lanes_[lane].order; }
    // The envelope's level at the next frame (before shaping).
    float level(int lane) const noexcept {
        const Chunk& c = chunk(lane);
        const int i = lane % dsp::simd::kLanes;
        const float ramp = c.slope[i] * c.t[i];
        const float level = c.start[i] + ramp;
        return level < 0.0f ? 0.0f : level > 1.0f ? 1.0f : level;
    }
    int activeLanes() const noexcept { return activeCount_; }
    // Held or releasing lanes: the voices the engine's polyphony counts. Kept by the bank at
    // every change of a lane's state (start, fade, retire), so a release that ends by itself in
    // render() gives its voice back.
    int ownedLanes() const noexcept { return ownedCount_; }
    // The lane the engine's voice stealing takes from this bank, -1 if none owns a voice: the
    // releasing lane released first (ties: the older note), else the oldest held lane. Its key
    // orders candidates across banks: released lanes before held ones, then by age.
    struct StealCandidate {
        int lane = -1;
        bool releasing = false;
        uint64_t age = UINT64_MAX;  // release frame (releasing) or note order (held)
        uint64_t order = UINT64_MAX;
        bool before(const StealCandidate& o) const BOOP_RT {
            if (lane < 0) return false;
            if (o.lane < 0) return true;
            if (releasing != o.releasing) return releasing;
            return age != o.age ? age < o.age : order < o.order;
        }
    };
    StealCandidate stealCandidate() const BOOP_RT;

    // -1 when every lane is busy.
    int findFreeLane() const BOOP_RT;
    // The fading lane that is quietest (to reuse when the bank is full), -1 if none.
    int quietestFadingLane() const BOOP_RT;
    // The lane of a held note, -1 if none.
    int findHeld(uint32_t noteId) const BOOP_RT;

    // volume: a live channel's volume, kept apart from the gain so that setGroupVolume can change it;
    // cutoffHz: an MPE member's CC 74, taken as the gain the palette's lowpass gives the note at
    // its pitch (lowpassGain in SynthExpression.hpp), 0 for none.
    void start(int lane, double frequencyHz, float gain, uint32_t noteId, uint64_t order, uint64_t frame,
               float volume = 1.0f, double cutoffHz = 0.0) BOOP_RT;
    void release(int lane, uint64_t frame) BOOP_RT;
    void fade(int lane, double seconds) BOOP_RT;
    // Live MIDI (VoiceBankGroups.cpp). A group is noteId >> 8. fadeGroup fades every held or
    // releasing lane of the group;
    // retuneGroup multiplies their frequency by ratio, keeping the phase (a bend glides).
    void fadeGroup(uint32_t group, double seconds) BOOP_RT;
    void retuneGroup(uint32_t group, double ratio) BOOP_RT;
    // The gain of every sounding lane of the group becomes its start gain x volume x the cutoff's
    // gain at its pitch (as start), from the next frame (a caller ramps by calling it frame by
    // frame). A retune keeps volume and cutoff and gives the cutoff's gain at the new pitch.
    void setGroupVolume(uint32_t group, float volume, double cutoffHz = 0.0) BOOP_RT;

    // Adds frames [begin, end) of every sounding lane, then retires lanes whose release or fade
    // has reached zero. A busy chunk adds into acc (one 8-lane partial sum per frame; the caller
    // folds the lanes together once at the end of the block); a chunk with few sounding lanes
    // renders each of them along time and adds straight into mono. clock is the engine's frame
    // at index 0: the lowpass works in groups of eight frames counted on it. True when it added
    // into acc.
    bool render(dsp::simd::f8* acc, float* mono, uint64_t clock, int begin, int end) BOOP_RT;
    static constexpr int kMaxTimeMajorLanes = 3;

    struct alignas(32) Chunk {
        dsp::simd::u8 phase;      // 32-bit phase accumulator: wraps by itself, exact frequency grid
        dsp::simd::u8 increment;  // round(f / rate * 2^32)
        // The envelope before shaping, clamp(start + slope * t) at the segment's frame t: attack,
        // sustain and release are one formula, computed alike frame by frame or eight at once.
        dsp::simd::f8 start;
        dsp::simd::f8 slope;   // change per sample (+attack, -release, 0 idle)
        dsp::simd::f8 t;       // frames into the segment (a float counting whole frames)
        dsp::simd::f8 gain;    // velocity x timbre level (x lowpass b0 when filtered)
        dsp::simd::f8 invDt;   // 2^32 / increment, for the saw's polyBLEP
        dsp::simd::f8 s1, s2;  // lowpass state before the current group of eight frames (GroupFilter)
        dsp::simd::f8 gx[8];   // the current group's inputs so far, when a block ended inside it
    };

    // The lowpass over a group of eight frames at once (dsp/GroupBiquad.hpp); b0 is folded into
    // each voice's gain.
    using GroupFilter = dsp::GroupBiquad;

  private:
    using Kernel = void (*)(Chunk&, dsp::simd::f8*, int, int, uint32_t, const GroupFilter&) BOOP_RT;
    using LaneKernel = void (*)(Chunk&, unsigned, float*, int, int, uint32_t, const GroupFilter&) BOOP_RT;
    struct Kernels {
        Kernel chunk = nullptr;
        LaneKernel lane = nullptr;
    };
    static Kernels chooseKernels(const TimbreSpec& spec) noexcept;

    struct Lane {
        LaneState state = LaneState::Idle;
        uint32_t noteId = 0;
        uint64_t order = 0;
        uint64_t onFrame = 0;
        uint64_t releaseFrame = 0;
        double hz = 0.0;        // the exact frequency, so that bends multiply no rounding errors
        float unitGain = 0.0f;  // the chunk's gain before the channel volume
        float volume = 1.0f;
        double cutoff = 0.0;  // Hz, 0 for none
    };

    Chunk& chunk(int lane) noexcept { return chunks_[lane / dsp::simd::kLanes]; }
    const Chunk& chunk(int lane) const noexcept { return chunks_[lane / dsp::simd::kLanes]; }
    void retire(int lane) BOOP_RT;
    // The lane's chunk gain from its unit gain, volume, cutoff and pitch.
    void applyGain(int lane) BOOP_RT;

    TimbreSpec spec_{};
    Kernels kernels_;
    double sampleRate_ = 44100.0;
    dsp::BiquadCoefficients coefficients_;
    GroupFilter group_{};
    std::unique_ptr<Chunk[]> chunks_;
    std::unique_ptr<Lane[]> lanes_;
    std::unique_ptr<uint8_t[]> chunkActive_;  // bit per lane: skip silent chunks cheaply
    int laneCount_ = 0;
    int chunkCount_ = 0;
    int activeCount_ = 0;
    int ownedCount_ = 0;
};

}  // namespace boop
