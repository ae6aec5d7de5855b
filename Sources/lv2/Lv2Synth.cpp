// boop.lv2's synth (see Lv2Synth.hpp).
#include "Lv2Synth.hpp"

#include <lv2/atom/util.h>
#include <lv2/patch/patch.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

#include "engine/SynthBlocks.hpp"

namespace boop::lv2 {

namespace {
constexpr float kVoiceMax = kVoiceCount - 1;
constexpr float kUnityVolume = 100.0f;  // CC 7's General MIDI default, which MidiSynth starts at

// OutputStage::setGainDb stores 10^(dB/20) (std::pow: no allocation, lock or system call) in an
// atomic, but is defined in OutputStage.cpp where clang cannot see it: allowed by name here.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
void setStageGain(OutputStage& stage, double gainDb) BOOP_RT { stage.setGainDb(gainDb); }
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
}  // namespace

void Lv2Synth::defaultVoices(int (&voices)[MidiSynth::kChannels]) noexcept {
    for (int& v : voices) v = BOOP_TIMBRE_MELODY;
    voices[1] = BOOP_TIMBRE_CHORDS;
    voices[2] = BOOP_TIMBRE_BASS;
    voices[9] = MidiSynth::kDrums;
}

std::unique_ptr<Lv2Synth> Lv2Synth::create(double sampleRate, const Lv2Urids& urids, const LV2_URID_Map& map) {
    // Filled here rather than by boop_engine_config_default, whose file would link the C API's
    // ALSA sequencer code into the plugin. The queue is unused: MIDI is applied directly.
    boop_engine_config ec{sampleRate, kPolyphony, kBlockFrames, BOOP_ENGINE_QUEUE_MIN, 2};
    if (!Engine::isValid(ec)) return nullptr;
    try {
        std::unique_ptr<Lv2Synth> self(new Lv2Synth);
        self->urids_ = urids;
        self->notify_.init(map, Lv2NotifyUrids{urids.patchSet, urids.patchAck, urids.patchError, urids.patchProperty,
                                               urids.patchValue, urids.patchSequence, urids.scale, urids.mapping});
        int voices[MidiSynth::kChannels];
        defaultVoices(voices);
        self->engine_ = std::make_unique<Engine>(ec);
        self->synth_ = std::make_unique<MidiSynth>(*self->engine_, voices, 2.0);
        self->setChannelVoices(voices);
        self->block_.assign(std::size_t(kBlockFrames) * 2, 0.0f);
        self->stage_.prepare(sampleRate, 2, BOOP_CEILING_DBTP);
        std::fill(std::begin(self->applied_), std::end(self->applied_), NAN);
        self->applied_[kVolume] = kUnityVolume;
        return self;
    } catch (...) {
        return nullptr;
    }
}

void Lv2Synth::connect(uint32_t port, void* data) noexcept {
    switch (port) {
        case kMidiIn:
            midiIn_ = static_cast<const LV2_Atom_Sequence*>(data);
            break;
        case kOutLeft:
        case kOutRight:
            out_[port - kOutLeft] = static_cast<float*>(data);
            break;
        case kLatency:
            latencyOut_ = static_cast<float*>(data);
            break;
        case kNotify:
            notify_.connect(data);
            break;
        default:
            if (port < kPortCount) controls_[port] = static_cast<const float*>(data);
            break;
    }
}

void Lv2Synth::activate() noexcept {
    // The host may deactivate and activate again: the controls are applied afresh at the next run.
    for (uint32_t p = kVoice; p < kLatency; ++p)
        if (p != kVolume) applied_[p] = NAN;
}

void Lv2Synth::setChannelVoices(const int (&voices)[MidiSynth::kChannels]) noexcept {
    for (int c = 0; c < MidiSynth::kChannels; ++c) {
        const int v = std::clamp(voices[c], 0, kVoiceCount - 1);
        synth_->setVoice(c, synthVoice(v));
        voices_[c].store(v, std::memory_order_relaxed);
    }
}

void Lv2Synth::setVoice(int channel, int voice) BOOP_RT {
    synth_->setVoice(channel, synthVoice(voice));
    voices_[channel].store(voice, std::memory_order_relaxed);
}

// Each control is applied when its value differs from the one applied last: a voice from the
// next note on, the gain at the start of this block, the bend range from the next bend, the
// volume as a CC 7 on channel 1 at the block's first frame (ramped as MIDI's is).
void Lv2Synth::readControls() BOOP_RT {
    for (uint32_t p = kVoice; p < kLatency; ++p) {
        const float value = controls_[p] != nullptr ? *controls_[p] : applied_[p];
        if (value == applied_[p] || !std::isfinite(value)) continue;
        applied_[p] = value;
        switch (p) {
            case kVoice:
                setVoice(0, static_cast<int>(std::lround(std::clamp(value, 0.0f, kVoiceMax))));
                break;
            case kGain:
                setStageGain(stage_, std::clamp<double>(value, BOOP_GAIN_DB_MIN, BOOP_GAIN_DB_MAX));
                break;
            case kBendRange:
                synth_->setBendRange(std::clamp<double>(value, BOOP_SYNTH_BEND_RANGE_MIN, BOOP_SYNTH_BEND_RANGE_MAX));
                break;
            case kVolume: {
                const auto cc = static_cast<uint8_t>(std::lround(std::clamp(value, 0.0f, 127.0f)));
                synth_->handle(MidiMessage{0xB0, 7, cc});
                break;
            }
            default:
                break;
        }
    }
}

void Lv2Synth::applyEvent(const LV2_Atom_Event& event) BOOP_RT {
    const auto* bytes = static_cast<const uint8_t*>(LV2_ATOM_BODY_CONST(&event.body));
    for (uint32_t b = 0; b < event.body.size; ++b) {
        MidiMessage m;
        if (!parser_.feed(bytes[b], m)) continue;
        // A program change picks the channel's voice by the plugin's index (0 melody ... 4 drums,
        // then the palette's voices and kits), as the voice port does; `boop synth` maps General
        // MIDI programs to palette voices instead.
        if (m.kind() == 0xC0) {
            if (m.data1 < kVoiceCount) setVoice(m.channel(), m.data1);
            continue;
        }
        synth_->handle(m);
    }
}

// lv2_atom_sequence_begin/next/is_end are static inline pointer arithmetic, not annotated.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
void Lv2Synth::run(uint32_t frames) BOOP_RT {
    if (latencyOut_ != nullptr) *latencyOut_ = static_cast<float>(stage_.latency());
    notify_.open();
    if (frames == 0) {
        notify_.close();
        return;
    }
    readControls();
    uint32_t done = 0;
    if (midiIn_ != nullptr) {
        LV2_ATOM_SEQUENCE_FOREACH(midiIn_, event) {
            const LV2_URID type = event->body.type;
            // Events come in time order; one stamped outside the block (never from a sane host)
            // is applied on its nearest frame rather than dropped.
            const int64_t t = std::clamp<int64_t>(event->time.frames, 0, frames - 1);
            if (type == urids_.atomObject || type == urids_.atomBlank) {
                applyPatch(std::max<int64_t>(t, done), *reinterpret_cast<const LV2_Atom_Object*>(&event->body));
                continue;
            }
            if (type != urids_.midiEvent) continue;
            const uint32_t at = std::max(done, static_cast<uint32_t>(t));
            renderTo(done, at);
            done = at;
            applyEvent(*event);
        }
    }
    renderTo(done, frames);
    notify_.close();
}

// A patch:Set of boop#scl or boop#kbm with an atom:Path value: the path copied into the request
// (no allocation) and handed to the worker, which copies it on; one that cannot be worked is
// refused on the notify port. A patch:Get (of one of them or of all properties) is answered there
// at `frame`. Anything else is ignored.
void Lv2Synth::applyPatch(int64_t frame, const LV2_Atom_Object& object) BOOP_RT {
    const LV2_URID otype = object.body.otype;
    if (otype != urids_.patchSet && otype != urids_.patchGet) return;
    const LV2_Atom* property = nullptr;
    const LV2_Atom* value = nullptr;
    const LV2_Atom* sequence = nullptr;
    lv2_atom_object_get(&object, urids_.patchProperty, &property, urids_.patchValue, &value, urids_.patchSequence,
                        &sequence, 0);
    const int32_t number = sequence != nullptr && sequence->type == urids_.atomInt
                               ? reinterpret_cast<const LV2_Atom_Int*>(sequence)->body
                               : 0;
    if (property != nullptr && property->type != urids_.atomUrid) return;
    const LV2_URID key = property != nullptr ? reinterpret_cast<const LV2_Atom_URID*>(property)->body : 0;
    if (otype == urids_.patchGet) {
        notify_.get(frame, key, number);
        return;
    }
    if (key != urids_.scale && key != urids_.mapping) return;
    const char* path = value != nullptr && value->type == urids_.atomPath
                           ? static_cast<const char*>(LV2_ATOM_BODY_CONST(value))
                           : nullptr;
    const uint32_t length = path != nullptr ? static_cast<uint32_t>(strnlen(path, value->size)) : 0;
    if (schedule_ == nullptr || path == nullptr || length >= Lv2Tuning::kPathMax) {
        notify_.refused(frame, key, number);
        return;
    }
    request_.which = key == urids_.scale ? Lv2Tuning::kScale : Lv2Tuning::kMapping;
    request_.sequence = number;
    std::memcpy(request_.path, path, length);
    request_.path[length] = '\0';
    if (schedule_->schedule_work(schedule_->handle, Lv2Tuning::kRequestHeader + length + 1, &request_) !=
        LV2_WORKER_SUCCESS)
        notify_.refused(frame, key, number);
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

bool Lv2Synth::tuned(const void* data, uint32_t size) BOOP_RT {
    double hz[Lv2Tuning::kKeys];
    Lv2Tuning::Answer answer;
    if (!Lv2Tuning::read(data, size, hz, answer)) return false;
    if (answer.ok) synth_->setKeyHz(hz);
    notify_.inForce(answer);
    return true;
}

void Lv2Synth::renderTo(uint32_t begin, uint32_t end) BOOP_RT {
    renderSynthBlocks(*synth_, *engine_, stage_, block_.data(), kBlockFrames, begin, end,
                      [this](const float* block, uint32_t n, uint32_t at) BOOP_RT {
                          for (uint32_t i = 0; i < n; ++i) {
                              out_[0][at + i] = block[2 * i];
                              out_[1][at + i] = block[2 * i + 1];
                          }
                      });
}

}  // namespace boop::lv2
