#include "engine/MidiSynth.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "dsp/MidiPitch.hpp"

namespace boop {

namespace {
#define BOOP_FAMILY_VOICE(name, voice) voice,
constexpr boop_instrument_voice kFamilyVoices[] = {BOOP_GM_FAMILIES(BOOP_FAMILY_VOICE)};
#undef BOOP_FAMILY_VOICE
static_assert(sizeof kFamilyVoices / sizeof kFamilyVoices[0] == 16, "BOOP_GM_FAMILIES: General MIDI has 16");
#define BOOP_PROGRAM_OF(ENUMERATOR, name, value, program, ...) program,
constexpr int kVoicePrograms[] = {BOOP_VOICES(BOOP_PROGRAM_OF)};
#undef BOOP_PROGRAM_OF

// CC 72/73: 1 ms ... 10 s; CC 71: Q 0.5 ... 20 (CAudioEngineSynth.h); CC 74 is cc74Cutoff.
double controlSeconds(uint8_t v) noexcept { return 0.001 * std::pow(10.0, 4.0 * v / 127.0); }
double controlQ(uint8_t v) noexcept { return 0.5 * std::pow(40.0, v / 127.0); }
}  // namespace

boop_instrument_voice MidiSynth::programVoice(int program) noexcept {
    if (program < 0 || program > 127) return BOOP_VOICE_MAX_ENUM;
    int best = -1;
    for (int v = 0; v < BOOP_VOICE_COUNT; ++v) {
        const int p = kVoicePrograms[v];
        if (p < 0 || p / 8 != program / 8) continue;
        if (best < 0 || std::abs(p - program) < std::abs(kVoicePrograms[best] - program) ||
            (std::abs(p - program) == std::abs(kVoicePrograms[best] - program) && p < kVoicePrograms[best]))
            best = v;
    }
    return best >= 0 ? static_cast<boop_instrument_voice>(best) : kFamilyVoices[program / 8];
}

bool MidiSynth::isVoice(int v) noexcept {
    return v == kOff || (v >= 0 && v <= kDrums) || (v >= kPalette && v < kPalette + BOOP_VOICE_COUNT) ||
           (v >= kKit && v < kKit + BOOP_KIT_COUNT);
}

MidiSynth::MidiSynth(Engine& engine, const int (&channelVoices)[kChannels], double bendRange) noexcept
    : engine_(engine),
      bendRange_(bendRange),
      rampFrames_(std::max(1, static_cast<int>(std::lround(kVolumeRampSeconds * engine.config().sample_rate)))),
      sampleRate_(engine.config().sample_rate) {
    palette_.prepare(engine.config().sample_rate);
    for (int key = 0; key < 128; ++key) keyHz_[key] = dsp::midiKeyHz(key);
    for (int c = 0; c < kChannels; ++c) {
        channels_[c].voice = kOff;
        channels_[c].range = bendRange;
        setVoice(c, isVoice(channelVoices[c]) ? channelVoices[c] : kOff);
    }
}

void MidiSynth::assignVoice(int ch, int voice) BOOP_RT {
    Channel& c = channels_[ch];
    if (voice == kKit + BOOP_KIT_GM) voice = kDrums;
    if (voice == c.voice) return;  // a host that sets it each cycle keeps the sound its controllers moved
    c.voice = voice;
    if (!isPalette(ch)) return;
    boop_instrument sound = SynthPalette::voiceSound(static_cast<boop_instrument_voice>(voice - kPalette));
    sound.pan = std::clamp((c.pan - 64.0) / 63.0, -1.0, 1.0);
    palette_.setSound(ch, sound);
}

void MidiSynth::setSound(int ch, const boop_instrument& sound) noexcept {
    channels_[ch].voice = kPalette + clampVoice(sound.voice);
    channels_[ch].pan = static_cast<uint8_t>(std::clamp(std::lround(64.0 + 63.0 * sound.pan), 0L, 127L));
    palette_.setSound(ch, sound);
    if (!channels_[ch].managing) return;
    for (int m = 0; m < kChannels; ++m)
        if (channels_[m].manager == ch) setSound(m, sound);
}

int MidiSynth::kitOf(int ch) const BOOP_RT {
    const int v = channels_[ch].voice;
    if (v == kDrums) return BOOP_KIT_GM;
    return v >= kKit && v < kKit + BOOP_KIT_COUNT ? v - kKit : -1;
}

float MidiSynth::velocityGain(uint8_t velocity) noexcept {
    const float v = static_cast<float>(velocity);
    return v <= 96.0f ? 0.6f * v / 96.0f : 0.6f + 0.4f * (v - 96.0f) / 24.0f;
}

void MidiSynth::handle(const MidiMessage& m) BOOP_RT {
    const int ch = m.channel();
    Channel& c = channels_[ch];
    switch (m.kind()) {
        case 0x90:
            if (m.data2 > 0) {
                noteOn(ch, m.data1, m.data2);
                break;
            }
            [[fallthrough]];  // velocity 0 is a note-off
        case 0x80:
            noteOff(ch, m.data1);
            break;
        case 0xA0:  // poly pressure: the channel's, as the last key pressed tells it
            c.pressure = m.data2;
            setVibrato(ch);
            break;
        case 0xB0:
            control(ch, m.data1, m.data2);
            break;
        case 0xC0:
            program(ch, m.data1);
            break;
        case 0xD0:
            c.pressure = m.data1;
            setVibrato(ch);
            if (c.managing) forwardToZone(ch, m.status, m.data1, m.data2);
            break;
        case 0xE0:
            setBend(ch, (int(m.data2) << 7 | int(m.data1)) - 8192);
            break;
        default:
            break;
    }
    held_.store(heldCount_, std::memory_order_relaxed);
}

void MidiSynth::program(int ch, uint8_t number) BOOP_RT {
    // A rhythm channel keeps its kit (Bank Select chooses it); a silent one stays silent.
    if (kitOf(ch) >= 0 || channels_[ch].voice == kOff || channels_[ch].manager >= 0) return;
    setVoice(ch, kPalette + programVoice(number));
}

void MidiSynth::noteOn(int ch, uint8_t key, uint8_t velocity) BOOP_RT {
    Channel& c = channels_[ch];
    if (c.voice == kOff) return;
    Command cmd;
    cmd.gain = velocityGain(velocity);
    if (const int kit = kitOf(ch); kit >= 0) {
        // A hit is short: it keeps the volume it started with.
        cmd.gain *= c.volume;
        cmd.type = Command::Type::DrumHit;
        cmd.timbre = static_cast<uint8_t>(kit);
        cmd.noteId = key;
        send(cmd);
    } else if (keyHz_[key] > 0.0) {  // a key the tuning leaves unmapped stays silent
        // A key struck again while it still sounds (held by the pedal) ends the old note first.
        if (c.keys[key] != Up) release(ch, key);
        if (isPalette(ch)) {
            palette_.noteOn(ch, noteId(ch, key), keyHz_[key], cmd.gain, ++order_);
        } else {
            cmd.type = Command::Type::NoteOn;
            cmd.timbre = static_cast<uint8_t>(c.voice);
            cmd.noteId = noteId(ch, key);
            cmd.value = keyHz_[key] * c.applied;
            cmd.volume = c.volume;
            cmd.cutoff = expressive(ch) ? c.cutoff : 0.0;
            send(cmd);
        }
        c.keys[key] = Down;
        ++heldCount_;
    }
    last_.store(ch << 8 | key, std::memory_order_relaxed);
}

// A note ends wherever it sounds: its channel may have changed voice since it started.
void MidiSynth::release(int ch, uint8_t key) BOOP_RT {
    Command cmd;
    cmd.type = Command::Type::NoteOff;
    cmd.noteId = noteId(ch, key);
    send(cmd);
    palette_.noteOff(ch, cmd.noteId);
    channels_[ch].keys[key] = Up;
    --heldCount_;
}

void MidiSynth::noteOff(int ch, uint8_t key) BOOP_RT {
    Channel& c = channels_[ch];
    if (c.keys[key] != Down) return;  // drums have no note-off; a key not down has nothing to end
    if (c.pedal)
        c.keys[key] = Pedalled;
    else
        release(ch, key);
}

void MidiSynth::setPedal(int ch, bool down) BOOP_RT {
    Channel& c = channels_[ch];
    c.pedal = down;
    if (down) return;
    for (int k = 0; k < 128; ++k)
        if (c.keys[k] == Pedalled) release(ch, static_cast<uint8_t>(k));
}

void MidiSynth::silence(int ch) BOOP_RT {
    Channel& c = channels_[ch];
    Command cmd;
    cmd.value = kAllSoundOffSeconds;
    if (kitOf(ch) >= 0) {
        cmd.type = Command::Type::FadeDrums;
    } else {
        cmd.type = Command::Type::FadeGroup;
        cmd.noteId = noteId(ch, 0);
    }
    send(cmd);
    palette_.fade(ch, kAllSoundOffSeconds);
    for (uint8_t& k : c.keys) {
        if (k != Up) --heldCount_;
        k = Up;
    }
}

void MidiSynth::releaseAll() BOOP_RT {
    for (int ch = 0; ch < kChannels; ++ch) {
        channels_[ch].pedal = false;
        silence(ch);
    }
    held_.store(heldCount_, std::memory_order_relaxed);
}

void MidiSynth::setBend(int ch, int value) BOOP_RT {
    channels_[ch].bendValue = value;
    applyBend(ch);
}

void MidiSynth::applyBend(int ch) BOOP_RT {
    Channel& c = channels_[ch];
    c.own = std::exp2(static_cast<double>(c.bendValue) / 8192.0 * c.range / 12.0);
    if (c.managing)
        for (int m = 0; m < kChannels; ++m)
            if (channels_[m].manager == ch) applyBend(m);
    const double bend = c.manager >= 0 ? c.own * channels_[c.manager].own : c.own;
    if (bend == c.bend) return;
    c.bend = bend;
    palette_.setBend(ch, bend);
    retune(ch);
}

void MidiSynth::setVolume(int ch) BOOP_RT {
    Channel& c = channels_[ch];
    c.target = c.cc7 * c.expression;
    palette_.setLevel(ch, c.target);
    startRamp(ch);
}

// The volume and the cutoff ramp together: the volume along a straight line, the cutoff by a
// constant ratio a frame.
void MidiSynth::startRamp(int ch) BOOP_RT {
    Channel& c = channels_[ch];
    if (c.rampLeft == 0) ++ramping_;
    c.rampLeft = rampFrames_;
    c.step = (c.target - c.volume) / static_cast<float>(rampFrames_);
    c.cutoffStep = c.cutoff > 0.0 ? std::pow(c.cutoffTarget / c.cutoff, 1.0 / rampFrames_) : 1.0;
}

void MidiSynth::setVibrato(int ch) BOOP_RT {
    Channel& c = channels_[ch];
    const int pressure = std::min(127, c.pressure + c.zonePressure);
    c.vibrato.depth = Vibrato::depthOf(c.modulation, static_cast<uint8_t>(pressure));
    palette_.setVibrato(ch, c.vibrato.depth);
    if (c.vibrato.depth == 0.0) retune(ch);  // back to the bend alone; stepVibratos starts it
}

void MidiSynth::stepVolumes() BOOP_RT {
    for (int ch = 0; ch < kChannels && ramping_ > 0; ++ch) {
        Channel& c = channels_[ch];
        if (c.rampLeft == 0) continue;
        // The last step lands on the target exactly, whatever the float sum of the steps.
        c.volume = --c.rampLeft == 0 ? c.target : c.volume + c.step;
        c.cutoff = c.rampLeft == 0 ? c.cutoffTarget : c.cutoff * c.cutoffStep;
        if (c.rampLeft == 0) --ramping_;
        if (kitOf(ch) >= 0) continue;
        Command cmd;
        cmd.type = Command::Type::VolumeGroup;
        cmd.noteId = noteId(ch, 0);
        cmd.gain = c.volume;
        cmd.cutoff = expressive(ch) ? c.cutoff : 0.0;
        send(cmd);
    }
}

void MidiSynth::renderPalette(float* out, uint32_t frames) BOOP_RT {
    if (fadeRequest_.load(std::memory_order_relaxed) > 0.0) {
        const double seconds = fadeRequest_.exchange(0.0, std::memory_order_acquire);
        for (int ch = 0; ch < kChannels; ++ch) palette_.fade(ch, seconds);
    }
    palette_.render(out, frames);
    paletteVoices_.store(static_cast<uint32_t>(palette_.activeCount()), std::memory_order_relaxed);
}

// The sound controllers of a palette channel (CC 10 also pans a song-style kit).
void MidiSynth::paletteControl(int ch, uint8_t number, uint8_t value) BOOP_RT {
    Channel& c = channels_[ch];
    switch (number) {
        case 10: {
            c.pan = value;
            const double pan = std::clamp((value - 64.0) / 63.0, -1.0, 1.0);
            palette_.setPan(ch, pan);
            if (kitOf(ch) > BOOP_KIT_GM) {
                Command cmd;
                cmd.type = Command::Type::InstrumentParam;
                cmd.timbre = BOOP_INSTRUMENT_SLOTS - 1;
                cmd.noteId = InstrumentParams::Pan;
                cmd.value = pan;
                send(cmd);
            }
            return;
        }
        case 71:
            return palette_.setParam(ch, InstrumentParams::Resonance, controlQ(value));
        case 72:
            return palette_.setParam(ch, InstrumentParams::Release, controlSeconds(value));
        case 73:
            return palette_.setParam(ch, InstrumentParams::Attack, controlSeconds(value));
        case 74:
            setCutoff(ch, value);
            return palette_.setParam(ch, InstrumentParams::Cutoff, cc74Cutoff(value));
        default:
            return;
    }
}

void MidiSynth::control(int ch, uint8_t number, uint8_t value) BOOP_RT {
    Channel& c = channels_[ch];
    switch (number) {
        case 0:  // bank select: a rhythm channel's kit
            if (kitOf(ch) >= 0 && value < BOOP_KIT_COUNT) setVoice(ch, value == BOOP_KIT_GM ? kDrums : kKit + value);
            break;
        case 1:
            c.modulation = value;
            setVibrato(ch);
            break;
        case 7:
            c.cc7 = volumeGain(value);
            setVolume(ch);
            break;
        case 11:
            c.expression = static_cast<float>(value) * static_cast<float>(value) / (127.0f * 127.0f);
            setVolume(ch);
            break;
        case 64:
            setPedal(ch, value >= 64);
            break;
        case 120:  // all sound off
            silence(ch);
            break;
        case 121:  // reset all controllers (RP-015): volume and pan stay
            setBend(ch, 0);
            setPedal(ch, false);
            c.expression = 1.0f;
            setVolume(ch);
            c.modulation = c.pressure = 0;
            setVibrato(ch);
            break;
        case 6:
        case 38:
        case 100:
        case 101:
            registered(ch, number, value);
            break;
        case 123:  // all notes off: a note-off for every key down, the pedal holding them as any
        case 124:  // the mode messages imply all notes off (MIDI 1.0)
        case 125:
        case 126:
        case 127:
            for (int k = 0; k < 128; ++k)
                if (c.keys[k] == Down) noteOff(ch, static_cast<uint8_t>(k));
            break;
        default:
            paletteControl(ch, number, value);
            break;
    }
    if (c.managing) forwardToZone(ch, 0xB0, number, value);
}

void MidiSynth::setTuning(const Tuning& tuning) noexcept {
    for (int key = 0; key < 128; ++key) keyHz_[key] = tuning.keyHz(key);
}

void MidiSynth::setKeyHz(const double (&hz)[128]) BOOP_RT {
    for (int key = 0; key < 128; ++key) keyHz_[key] = hz[key];
}

}  // namespace boop
