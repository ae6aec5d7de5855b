#include "engine/MidiSynth.hpp"

#include <algorithm>
#include <cmath>

#include "dsp/MidiPitch.hpp"

namespace boop {

MidiSynth::MidiSynth(Engine& engine, const int (&channelVoices)[kChannels], double bendRange) noexcept
    : engine_(engine),
      bendRange_(bendRange),
      rampFrames_(std::max(1, static_cast<int>(std::lround(kVolumeRampSeconds * engine.config().sample_rate)))) {
    for (int c = 0; c < kChannels; ++c) channels_[c].voice = channelVoices[c];
}

float MidiSynth::velocityGain(uint8_t velocity) noexcept {
    const float v = static_cast<float>(velocity);
    return v <= 96.0f ? 0.6f * v / 96.0f : 0.6f + 0.4f * (v - 96.0f) / 24.0f;
}

void MidiSynth::handle(const MidiMessage& m) BOOP_RT {
    const int ch = m.channel();
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
        case 0xB0:
            control(ch, m.data1, m.data2);
            break;
        case 0xE0:
            setBend(ch, (int(m.data2) << 7 | int(m.data1)) - 8192);
            break;
        default:
            break;  // aftertouch, program change, channel pressure: nothing to change in these voices
    }
    held_.store(heldCount_, std::memory_order_relaxed);
}

void MidiSynth::noteOn(int ch, uint8_t key, uint8_t velocity) BOOP_RT {
    Channel& c = channels_[ch];
    Command cmd;
    cmd.gain = velocityGain(velocity);
    if (c.voice == kDrums) {
        // A hit is short: it keeps the volume it started with.
        cmd.gain *= c.volume;
        cmd.type = Command::Type::DrumHit;
        cmd.noteId = key;
        send(cmd);
    } else {
        // A key struck again while it still sounds (held by the pedal) ends the old note first.
        if (c.keys[key] != Up) release(ch, key);
        cmd.type = Command::Type::NoteOn;
        cmd.timbre = static_cast<uint8_t>(c.voice);
        cmd.noteId = noteId(ch, key);
        cmd.value = dsp::midiKeyHz(key) * c.bend;
        cmd.volume = c.volume;
        send(cmd);
        c.keys[key] = Down;
        ++heldCount_;
    }
    last_.store(ch << 8 | key, std::memory_order_relaxed);
}

void MidiSynth::release(int ch, uint8_t key) BOOP_RT {
    Command cmd;
    cmd.type = Command::Type::NoteOff;
    cmd.noteId = noteId(ch, key);
    send(cmd);
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
    if (c.voice == kDrums) {
        cmd.type = Command::Type::FadeDrums;
    } else {
        cmd.type = Command::Type::FadeGroup;
        cmd.noteId = noteId(ch, 0);
    }
    send(cmd);
    for (uint8_t& k : c.keys) {
        if (k != Up) --heldCount_;
        k = Up;
    }
}

void MidiSynth::setBend(int ch, int value) BOOP_RT {
    Channel& c = channels_[ch];
    const double bend = std::exp2(static_cast<double>(value) / 8192.0 * bendRange_ / 12.0);
    if (bend == c.bend) return;
    Command cmd;
    cmd.type = Command::Type::RetuneGroup;
    cmd.noteId = noteId(ch, 0);
    cmd.value = bend / c.bend;
    c.bend = bend;
    if (c.voice != kDrums) send(cmd);
}

void MidiSynth::setVolume(int ch, uint8_t value) BOOP_RT {
    Channel& c = channels_[ch];
    c.target = volumeGain(value);
    if (c.rampLeft == 0) ++ramping_;
    c.rampLeft = rampFrames_;
    c.step = (c.target - c.volume) / static_cast<float>(rampFrames_);
}

void MidiSynth::stepVolumes() BOOP_RT {
    for (int ch = 0; ch < kChannels && ramping_ > 0; ++ch) {
        Channel& c = channels_[ch];
        if (c.rampLeft == 0) continue;
        // The last step lands on the target exactly, whatever the float sum of the steps.
        c.volume = --c.rampLeft == 0 ? c.target : c.volume + c.step;
        if (c.rampLeft == 0) --ramping_;
        if (c.voice == kDrums) continue;
        Command cmd;
        cmd.type = Command::Type::VolumeGroup;
        cmd.noteId = noteId(ch, 0);
        cmd.gain = c.volume;
        send(cmd);
    }
}

void MidiSynth::control(int ch, uint8_t number, uint8_t value) BOOP_RT {
    switch (number) {
        case 7:
            setVolume(ch, value);
            break;
        case 64:
            setPedal(ch, value >= 64);
            break;
        case 120:  // all sound off
        case 123:  // all notes off: ended within 10 ms too, the pedal holding none of them
        case 124:  // the mode messages imply all notes off (MIDI 1.0)
        case 125:
        case 126:
        case 127:
            silence(ch);
            break;
        case 121:  // reset all controllers: bend centred, pedal up (volume stays, as RP-015 says)
            setBend(ch, 0);
            setPedal(ch, false);
            break;
        default:
            break;
    }
}

}  // namespace boop
