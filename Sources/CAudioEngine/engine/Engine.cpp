#include "engine/Engine.hpp"
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include "dsp/SoftClipper.hpp"
#include "engine/Timbre.hpp"
#include "rt/Denormals.hpp"

namespace boop {

bool Engine::isValid(const boop_engine_config& c) noexcept {
    return std::isfinite(c.sample_rate) && c.sample_rate >= BOOP_ENGINE_RATE_MIN &&
           c.sample_rate <= BOOP_ENGINE_RATE_MAX && c.voices >= BOOP_ENGINE_VOICES_MIN &&
           c.voices <= BOOP_ENGINE_VOICES_MAX && c.max_block_frames >= 1 &&
           c.max_block_frames <= BOOP_ENGINE_BLOCK_FRAMES_MAX && c.queue_capacity >= BOOP_ENGINE_QUEUE_MIN &&
           c.queue_capacity <= BOOP_ENGINE_QUEUE_MAX && c.channels >= 1 && c.channels <= BOOP_CHANNELS_MAX;
}

Engine::Engine(const boop_engine_config& config)
    : config_(config), queue_(config.queue_capacity), now_(kNowQueueCapacity) {
    // Room for every owned voice plus as many fading ones again (each steal leaves one fading
    // for 5 ms) plus slack, so a steal practically never has to reuse a still-fading lane.
    const int lanes = static_cast<int>(config.voices) * 2 + dsp::simd::kLanes;
    for (int t = 0; t < BOOP_TIMBRE_COUNT; ++t) banks_[t].prepare(config.sample_rate, lanes, timbreSpec(t));
    drums_.prepare(config.sample_rate);
    for (InstrumentBank& slot : instruments_) slot.prepare(config.sample_rate);
    kits_.prepare(config.sample_rate);
    left_.reset(new float[kSliceFrames]());
    right_.reset(new float[kSliceFrames]());
    partialSums_.reset(new dsp::simd::f8[kSliceFrames]);
    mono_.reset(new float[kSliceFrames]);
    direct_.reset(new float[kSliceFrames]);
}

bool Engine::push(const Command& command) noexcept {
    if (command.frame == BOOP_FRAME_NOW) {
        if (now_.tryPush(command)) return true;
        dropped_.fetch_add(1, std::memory_order_relaxed);
        return false;
    }
    if (queue_.tryPush(command)) {
        ++pushed_;
        return true;
    }
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return false;
}

void Engine::cancelPending(double fadeSeconds) noexcept {
    cancelFade_.store(fadeSeconds, std::memory_order_relaxed);
    cancelUpTo_.store(pushed_, std::memory_order_release);
}

void Engine::stealOldest() BOOP_RT {
    int bestBank = -1, bestLane = -1;
    uint64_t bestOrder = UINT64_MAX;
    for (int t = 0; t < BOOP_TIMBRE_COUNT; ++t) {
        const VoiceBank& bank = banks_[t];
        if (bank.activeLanes() == 0) continue;
        for (int l = 0; l < bank.capacity(); ++l) {
            const auto s = bank.state(l);
            if ((s == VoiceBank::LaneState::Held || s == VoiceBank::LaneState::Releasing) &&
                bank.order(l) < bestOrder) {
                bestOrder = bank.order(l);
                bestBank = t;
                bestLane = l;
            }
        }
    }
    if (bestBank >= 0) {
        banks_[bestBank].fade(bestLane, kStealFadeSeconds);
        --ownedVoices_;
    }
}

void Engine::noteOn(const Command& c, uint64_t frame) BOOP_RT {
    VoiceBank& bank = banks_[c.timbre];
    if (ownedVoices_ >= config_.voices) stealOldest();
    int lane = bank.findFreeLane();
    if (lane < 0) lane = bank.quietestFadingLane();
    if (lane < 0) return;  // unreachable: capacity exceeds owned + fading
    const auto previous = bank.state(lane);
    if (previous == VoiceBank::LaneState::Held || previous == VoiceBank::LaneState::Releasing) --ownedVoices_;
    bank.start(lane, c.value, c.gain, c.noteId, ++noteOrder_, frame, c.volume);
    ++ownedVoices_;
}

void Engine::apply(const Command& c, uint64_t frame) BOOP_RT {
    switch (c.type) {
        case Command::Type::NoteOn:
            noteOn(c, frame);
            break;
        case Command::Type::NoteOff: {
            bool found = false;
            for (VoiceBank& bank : banks_) {
                const int lane = bank.findHeld(c.noteId);
                if (lane >= 0) {
                    bank.release(lane, frame);
                    if (bank.state(lane) == VoiceBank::LaneState::Idle) --ownedVoices_;
                    found = true;
                    break;
                }
            }
            for (int s = 0; !found && s < BOOP_INSTRUMENT_SLOTS; ++s) found = instruments_[s].release(c.noteId);
            break;
        }
        case Command::Type::DrumHit:
            if (c.timbre == 0) {
                drums_.trigger(c.noteId, c.gain, ++drumSeed_, ++noteOrder_, frame);
            } else {
                kits_.trigger(static_cast<KitBank::Kit>(c.timbre), c.noteId, c.gain, ++drumSeed_, ++noteOrder_);
            }
            break;
        case Command::Type::InstrumentNoteOn:
        case Command::Type::InstrumentParam:
            applyInstrument(c);
            break;
        case Command::Type::AllNotesOff:
            for (VoiceBank& bank : banks_)
                for (int l = 0; l < bank.capacity(); ++l) bank.fade(l, c.value);
            drums_.fadeAll(c.value);
            for (InstrumentBank& slot : instruments_) slot.fadeAll(c.value);
            kits_.fadeAll(c.value);
            ownedVoices_ = 0;
            break;
        case Command::Type::FadeGroup:
            for (VoiceBank& bank : banks_)
                ownedVoices_ -= static_cast<uint32_t>(bank.fadeGroup(c.noteId >> 8, c.value));
            break;
        case Command::Type::RetuneGroup:
            for (VoiceBank& bank : banks_) bank.retuneGroup(c.noteId >> 8, c.value);
            break;
        case Command::Type::FadeDrums:
            drums_.fadeAll(c.value);
            break;
        case Command::Type::VolumeGroup:
            for (VoiceBank& bank : banks_) bank.setGroupVolume(c.noteId >> 8, c.gain);
            break;
    }
}

void Engine::renderSegment(uint32_t begin, uint32_t end) BOOP_RT {
    for (VoiceBank& bank : banks_)
        sumsUsed_ |=
            bank.render(partialSums_.get(), direct_.get(), clock_, static_cast<int>(begin), static_cast<int>(end));
    drums_.render(direct_.get(), clock_, static_cast<int>(begin), static_cast<int>(end));
    const int b = static_cast<int>(begin), e = static_cast<int>(end);
    for (InstrumentBank& slot : instruments_) {
        if (slot.activeCount() == 0) continue;
        slot.render(left_.get(), right_.get(), b, e);
        stereoUsed_ = true;
    }
    if (kits_.activeCount() > 0) {
        float panLeft, panRight;
        panGains(instruments_[BOOP_INSTRUMENT_SLOTS - 1].params().pan, panLeft, panRight);
        kits_.render(left_.get(), right_.get(), panLeft, panRight, b, e);
        stereoUsed_ = true;
    }
}

void Engine::applyInstrument(const Command& c) BOOP_RT {
    InstrumentBank& slot = instruments_[c.timbre % BOOP_INSTRUMENT_SLOTS];
    if (c.type == Command::Type::InstrumentParam) {
        slot.setParam(c.noteId, c.value);
    } else {
        slot.start(c.noteId, c.value, c.gain, ++noteOrder_, ++drumSeed_);
    }
}

void Engine::render(float* out, uint32_t frames) BOOP_RT {
    DenormalGuard denormalGuard;
    // In slices of at most kSliceFrames, so the partial sums (32 bytes a frame) stay in the
    // first-level cache across the passes of every bank; 4096-frame blocks had them in L2.
    float peak = 0.0f;
    for (uint32_t done = 0; done < frames;) {
        const uint32_t n = std::min(frames - done, kSliceFrames);
        peak = std::max(peak, renderSlice(out + static_cast<size_t>(done) * config_.channels, n));
        done += n;
    }
    uint32_t active = 0;
    for (const VoiceBank& bank : banks_) active += static_cast<uint32_t>(bank.activeLanes());
    active += static_cast<uint32_t>(drums_.activeCount());
    for (const InstrumentBank& slot : instruments_) active += static_cast<uint32_t>(slot.activeCount());
    active += static_cast<uint32_t>(kits_.activeCount());
    activeVoices_.store(active, std::memory_order_relaxed);
    peak_.store(peak, std::memory_order_relaxed);
    publishedClock_.store(clock_, std::memory_order_release);
}

float Engine::renderSlice(float* out, uint32_t frames) BOOP_RT {
    // The partial sums only when the last slice wrote any (a chord of four or more voices).
    if (sumsUsed_) std::memset(partialSums_.get(), 0, sizeof(dsp::simd::f8) * kSliceFrames);
    sumsUsed_ = false;
    std::memset(direct_.get(), 0, sizeof(float) * frames);
    if (stereoUsed_) {
        std::memset(left_.get(), 0, sizeof(float) * kSliceFrames);
        std::memset(right_.get(), 0, sizeof(float) * kSliceFrames);
        stereoUsed_ = false;
    }
    const uint64_t cancelUpTo = cancelUpTo_.load(std::memory_order_acquire);
    if (cancelUpTo > popped_) {
        Command discarded;
        while (popped_ < cancelUpTo && queue_.tryPop(discarded)) ++popped_;
        Command fade;
        fade.type = Command::Type::AllNotesOff;
        fade.value = cancelFade_.load(std::memory_order_relaxed);
        apply(fade, clock_);
    }
    // Immediate events (auditions) land at the block start, ahead of everything scheduled.
    for (Command command; now_.tryPop(command);) apply(command, clock_);
    uint32_t pos = 0;
    for (;;) {
        // Events due at or before this frame (late ones land here, at the block start).
        while (const Command* next = queue_.peek()) {
            if (next->frame > clock_ + pos) break;
            Command command;
            queue_.tryPop(command);
            ++popped_;
            apply(command, clock_ + pos);
        }
        uint32_t segmentEnd = frames;
        if (const Command* next = queue_.peek()) {
            if (next->frame < clock_ + frames) segmentEnd = static_cast<uint32_t>(next->frame - clock_);
        }
        renderSegment(pos, segmentEnd);
        pos = segmentEnd;
        if (pos >= frames) break;
    }

    const float peak = mixDown(out, frames);
    clock_ += frames;
    return peak;
}

namespace {

// Eight frames at a time: eight vectors of partial sums become one vector of eight samples
// (simd::laneTrees), plus the direct sums, times the master gain. Returns how many frames it
// folded (a multiple of eight).
BOOP_SIMD_INLINE uint32_t foldEights(const dsp::simd::f8* sums, const float* direct, float* mono, uint32_t frames,
                                     dsp::simd::f8& loudest) noexcept {
    using dsp::simd::f8;
    uint32_t n = 0;
    for (; n + 8 <= frames; n += 8) {
        const f8 y = (dsp::simd::laneTrees(sums + n) + *reinterpret_cast<const dsp::simd::f8u*>(direct + n)) *
                     Engine::kMasterGain;
        loudest = dsp::simd::max(loudest, dsp::simd::abs(y));
        std::memcpy(mono + n, &y, sizeof y);
    }
    return n;
}

uint32_t foldEightsBaseline(const dsp::simd::f8* s, const float* d, float* m, uint32_t f, dsp::simd::f8& l) BOOP_RT {
    return foldEights(s, d, m, f, l);
}
// Frames [0, 8 x (frames / 8)) of the direct sums alone (no partial sums) times the master gain.
BOOP_SIMD_INLINE uint32_t scaleEights(const float* direct, float* mono, uint32_t frames,
                                      dsp::simd::f8& loudest) noexcept {
    using dsp::simd::f8;
    uint32_t n = 0;
    for (; n + 8 <= frames; n += 8) {
        const f8 y = *reinterpret_cast<const dsp::simd::f8u*>(direct + n) * Engine::kMasterGain;
        loudest = dsp::simd::max(loudest, dsp::simd::abs(y));
        std::memcpy(mono + n, &y, sizeof y);
    }
    return n;
}

uint32_t scaleEightsBaseline(const float* d, float* m, uint32_t f, dsp::simd::f8& l) BOOP_RT {
    return scaleEights(d, m, f, l);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define BOOP_HAVE_AVX2_FOLD 1
// A multiply, an absolute value and a maximum: nothing to fuse, so AVX2 gives the same samples.
__attribute__((target("avx2"))) uint32_t scaleEightsAvx2(const float* d, float* m, uint32_t f,
                                                         dsp::simd::f8& l) BOOP_RT {
    return scaleEights(d, m, f, l);
}
// With AVX2 each vector is one register instead of two: the fold was a tenth of a render.
__attribute__((target("avx2,fma"))) uint32_t foldEightsAvx2(const dsp::simd::f8* s, const float* d, float* m,
                                                            uint32_t f, dsp::simd::f8& l) BOOP_RT {
    return foldEights(s, d, m, f, l);
}
#endif

}  // namespace

Engine::FoldKernel Engine::chooseFold() noexcept {
#if defined(BOOP_HAVE_AVX2_FOLD)
    if (dsp::simd::useAvx2()) return foldEightsAvx2;
#endif
    return foldEightsBaseline;
}

// Folds each frame's eight partial sums into one sample, applies the master gain and, only when
// something reaches the knee, the soft clipper; then writes every channel. Returns the peak.
float Engine::mixDown(float* out, uint32_t frames) BOOP_RT {
    using dsp::simd::f8;
    const uint32_t channels = config_.channels;
    // A mono output without instruments is the mix itself: written in place, no copy after.
    float* mono = channels == 1 && !stereoUsed_ ? out : mono_.get();
    const f8* sums = partialSums_.get();
    f8 loudest = dsp::simd::splat(0.0f);
    uint32_t n = 0;
    if (sumsUsed_) {
        n = foldEights_(sums, direct_.get(), mono, frames, loudest);
    } else {
        // Nothing in the partial sums: they add exactly +0 (the fold's result, to the bit).
#if defined(BOOP_HAVE_AVX2_FOLD)
        n = wide_ ? scaleEightsAvx2(direct_.get(), mono, frames, loudest)
                  : scaleEightsBaseline(direct_.get(), mono, frames, loudest);
#else
        n = scaleEightsBaseline(direct_.get(), mono, frames, loudest);
#endif
    }
    if (stereoUsed_) {
        // Instruments sound: the centred mix (folded above, not yet clipped) plus the stereo pair.
        for (; n < frames; ++n) mono[n] = (dsp::simd::laneTree(sums[n]) + direct_[n]) * kMasterGain;
        return mixStereo(out, frames);
    }
    float peak = 0.0f;
    for (int k = 0; k < 8; ++k) peak = std::max(peak, loudest[k]);
    // The frames after the last whole eight, lanes added in the same tree as above: a frame's
    // bits must not depend on whether a block's end left it in the tail.
    for (; n < frames; ++n) {
        mono[n] = (dsp::simd::laneTree(sums[n]) + direct_[n]) * kMasterGain;
        peak = std::max(peak, std::fabs(mono[n]));
    }
    if (peak > dsp::SoftClipper::kKnee) {
        for (n = 0; n < frames; ++n) mono[n] = dsp::SoftClipper::process(mono[n]);
        peak = dsp::SoftClipper::process(peak);  // the clipper is monotonic
    }
    if (channels > 1) {
        for (n = 0; n < frames; ++n)
            for (uint32_t ch = 0; ch < channels; ++ch) out[n * channels + ch] = mono[n];
    }
    return peak;
}

namespace {

// Frames [0, 4 x (frames / 4)) of a stereo output: each side is the centred mix plus its side
// times the master gain; peak takes the loudest. Returns how many frames it wrote.
uint32_t stereoFours(const float* mono, const float* left, const float* right, float* out, uint32_t frames,
                     float& peak) noexcept {
    using dsp::simd::f4;
    f4 loudest{};
    uint32_t n = 0;
    for (; n + 4 <= frames; n += 4) {
        f4 m, l, r;
        std::memcpy(&m, mono + n, sizeof m);
        std::memcpy(&l, left + n, sizeof l);
        std::memcpy(&r, right + n, sizeof r);
        l = m + l * Engine::kMasterGain;
        r = m + r * Engine::kMasterGain;
        loudest = dsp::simd::max(loudest, dsp::simd::max(dsp::simd::abs(l), dsp::simd::abs(r)));
        const f4 low = __builtin_shufflevector(l, r, 0, 4, 1, 5), high = __builtin_shufflevector(l, r, 2, 6, 3, 7);
        std::memcpy(out + 2 * n, &low, sizeof low);
        std::memcpy(out + 2 * n + 4, &high, sizeof high);
    }
    for (int k = 0; k < 4; ++k) peak = std::max(peak, loudest[k]);
    return n;
}

#if defined(BOOP_HAVE_AVX2_FOLD)
// stereoFours eight frames at a time with AVX2: the same operations on each frame (no FMA), so
// the same samples.
BOOP_SIMD_INLINE uint32_t stereoEights(const float* mono, const float* left, const float* right, float* out,
                                       uint32_t frames, float& peak) noexcept {
    using dsp::simd::f8;
    f8 loudest{};
    uint32_t n = 0;
    for (; n + 8 <= frames; n += 8) {
        f8 m, l, r;
        std::memcpy(&m, mono + n, sizeof m);
        std::memcpy(&l, left + n, sizeof l);
        std::memcpy(&r, right + n, sizeof r);
        l = m + l * Engine::kMasterGain;
        r = m + r * Engine::kMasterGain;
        loudest = dsp::simd::max(loudest, dsp::simd::max(dsp::simd::abs(l), dsp::simd::abs(r)));
        const f8 low = __builtin_shufflevector(l, r, 0, 8, 1, 9, 2, 10, 3, 11);
        const f8 high = __builtin_shufflevector(l, r, 4, 12, 5, 13, 6, 14, 7, 15);
        std::memcpy(out + 2 * n, &low, sizeof low);
        std::memcpy(out + 2 * n + 8, &high, sizeof high);
    }
    for (int k = 0; k < 8; ++k) peak = std::max(peak, loudest[k]);
    return n;
}

__attribute__((target("avx2"))) uint32_t stereoEightsAvx2(const float* mono, const float* left, const float* right,
                                                          float* out, uint32_t frames, float& peak) noexcept {
    return stereoEights(mono, left, right, out, frames, peak);
}
#endif

}  // namespace

// The slice with instrument voices or kits sounding: each channel is the centred mix plus its
// side of the stereo pair (a mono output takes their mean) through the soft clipper. Returns the
// peak.
float Engine::mixStereo(float* out, uint32_t frames) BOOP_RT {
    const float* mono = mono_.get();
    const float* left = left_.get();
    const float* right = right_.get();
    const uint32_t channels = config_.channels;
    float peak = 0.0f;
    if (channels == 1) {
        for (uint32_t n = 0; n < frames; ++n) {
            out[n] = mono[n] + 0.5f * (left[n] + right[n]) * kMasterGain;
            peak = std::max(peak, std::fabs(out[n]));
        }
    } else if (channels == 2) {
        // The usual stereo output four frames at a time, then the rest frame by frame: the same
        // operations per frame as the general loop below, so the same bits.
#if defined(BOOP_HAVE_AVX2_FOLD)
        uint32_t n = wide_ ? stereoEightsAvx2(mono, left, right, out, frames, peak)
                           : stereoFours(mono, left, right, out, frames, peak);
#else
        uint32_t n = stereoFours(mono, left, right, out, frames, peak);
#endif
        for (; n < frames; ++n) {
            const float l = mono[n] + left[n] * kMasterGain;
            const float r = mono[n] + right[n] * kMasterGain;
            peak = std::max(peak, std::max(std::fabs(l), std::fabs(r)));
            out[2 * n] = l;
            out[2 * n + 1] = r;
        }
    } else {
        for (uint32_t n = 0; n < frames; ++n) {
            const float l = mono[n] + left[n] * kMasterGain;
            const float r = mono[n] + right[n] * kMasterGain;
            peak = std::max(peak, std::max(std::fabs(l), std::fabs(r)));
            out[n * channels] = l;
            out[n * channels + 1] = r;
            for (uint32_t ch = 2; ch < channels; ++ch) out[n * channels + ch] = 0.5f * (l + r);
        }
    }
    // The clipper only when something reaches its knee (below it, it is the identity).
    if (peak > dsp::SoftClipper::kKnee) {
        for (uint32_t i = 0; i < frames * channels; ++i) out[i] = dsp::SoftClipper::process(out[i]);
        peak = dsp::SoftClipper::process(peak);
    }
    return peak;
}

}  // namespace boop
