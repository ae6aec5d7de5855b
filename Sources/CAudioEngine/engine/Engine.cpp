#include "engine/Engine.hpp"
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
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
    silence_.reset(new float[kSliceFrames]());
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

// The documented rule (docs/DESIGN.md, "The melody voice"): when every voice is owned, the voice
// released first is stolen; only when none is releasing, the oldest held one. A released voice
// is already on its way out, so taking it costs the least sound.
void Engine::stealOne() BOOP_RT {
    int bestBank = -1;
    VoiceBank::StealCandidate best;
    for (int t = 0; t < BOOP_TIMBRE_COUNT; ++t) {
        const VoiceBank::StealCandidate c = banks_[t].stealCandidate();
        if (c.before(best)) {
            best = c;
            bestBank = t;
        }
    }
    if (bestBank >= 0) banks_[bestBank].fade(best.lane, kStealFadeSeconds);
}

uint32_t Engine::ownedVoices() const BOOP_RT {
    uint32_t owned = 0;
    for (const VoiceBank& bank : banks_) owned += static_cast<uint32_t>(bank.ownedLanes());
    return owned;
}

void Engine::noteOn(const Command& c, uint64_t frame) BOOP_RT {
    VoiceBank& bank = banks_[c.timbre];
    if (ownedVoices() >= config_.voices) stealOne();
    int lane = bank.findFreeLane();
    if (lane < 0) lane = bank.quietestFadingLane();
    if (lane < 0) return;  // unreachable: capacity exceeds owned + fading
    bank.start(lane, c.value, c.gain, c.noteId, ++noteOrder_, frame, c.volume, c.cutoff);
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
                kits_.trigger(static_cast<boop_kit>(c.timbre), c.noteId, c.gain, ++drumSeed_, ++noteOrder_);
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
            break;
        case Command::Type::FadeGroup:
            for (VoiceBank& bank : banks_) bank.fadeGroup(c.noteId >> 8, c.value);
            break;
        case Command::Type::RetuneGroup:
            for (VoiceBank& bank : banks_) bank.retuneGroup(c.noteId >> 8, c.value);
            break;
        case Command::Type::FadeDrums:
            drums_.fadeAll(c.value);
            kits_.fadeAll(c.value);
            break;
        case Command::Type::VolumeGroup:
            for (VoiceBank& bank : banks_) bank.setGroupVolume(c.noteId >> 8, c.gain, c.cutoff);
            break;
    }
}

void Engine::renderSegment(uint32_t begin, uint32_t end) BOOP_RT {
    for (VoiceBank& bank : banks_) {
        directUsed_ |= bank.activeLanes() > 0;
        sumsUsed_ |=
            bank.render(partialSums_.get(), direct_.get(), clock_, static_cast<int>(begin), static_cast<int>(end));
    }
    directUsed_ |= drums_.activeCount() > 0;
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
    stampMark();
}

// clock_gettime(CLOCK_MONOTONIC) is answered from the vDSO, without a system call or a lock, but
// is not annotated: allowed by name here. Read only while a mark waits (boop edit -v).
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
void Engine::stampMark() BOOP_RT {
    const uint64_t frame = markFrame_.load(std::memory_order_acquire);
    if (clock_ <= frame || markedFrame_.load(std::memory_order_relaxed) == frame) return;
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    markNs_.store(uint64_t(ts.tv_sec) * 1'000'000'000u + uint64_t(ts.tv_nsec), std::memory_order_relaxed);
    markedFrame_.store(frame, std::memory_order_release);
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

float Engine::renderSlice(float* out, uint32_t frames) BOOP_RT {
    // The partial sums only when the last slice wrote any (a chord of four or more voices).
    if (sumsUsed_) std::memset(partialSums_.get(), 0, sizeof(dsp::simd::f8) * kSliceFrames);
    sumsUsed_ = false;
    // The direct sums only when the last slice may have written any (a song's instruments and
    // kits sound in the stereo pair alone).
    if (directUsed_) std::memset(direct_.get(), 0, sizeof(float) * kSliceFrames);
    directUsed_ = false;
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

}  // namespace boop
