// MPE zones of the live synth (MidiSynth::setMpeZone): which channels belong to which zone, what
// the manager channel passes on to its members, and the registered parameters that set them up.
#include <algorithm>

#include "engine/MidiSynth.hpp"

namespace boop {

void MidiSynth::setVoice(int ch, int voice) BOOP_RT {
    Channel& c = channels_[ch];
    if (c.manager >= 0) {  // a member plays its manager's sound; its own comes back when the zone ends
        c.ownVoice = voice;
        return;
    }
    assignVoice(ch, voice);
    if (!c.managing) return;
    for (int m = 0; m < kChannels; ++m)
        if (channels_[m].manager == ch) assignVoice(m, channels_[ch].voice);
}

void MidiSynth::setBendRange(double semitones) BOOP_RT {
    bendRange_ = semitones;
    for (Channel& c : channels_)
        if (c.manager < 0 && !c.managing) c.range = semitones;
}

void MidiSynth::leaveZones() BOOP_RT {
    for (int ch = 0; ch < kChannels; ++ch) {
        Channel& c = channels_[ch];
        const bool member = c.manager >= 0;
        if (!member && !c.managing) continue;
        c.manager = -1;
        c.managing = false;
        c.zonePressure = 0;
        c.range = bendRange_;
        if (member) assignVoice(ch, c.ownVoice);
    }
}

// Channels first ... last (0-based) become members of `manager`'s zone with the MPE defaults.
void MidiSynth::joinZone(int manager, int first, int last) BOOP_RT {
    Channel& mc = channels_[manager];
    mc.managing = true;
    mc.range = kMpeManagerRange;
    mc.bendValue = 0;
    for (int ch = first; ch <= last; ++ch) {
        Channel& c = channels_[ch];
        c.ownVoice = c.voice;
        c.manager = manager;
        c.range = kMpeMemberRange;
        c.bendValue = 0;
        assignVoice(ch, mc.voice);
        if (isPalette(manager)) palette_.copySound(manager, ch);
    }
    applyBend(manager);
}

void MidiSynth::setMpeZone(bool upper, int members) BOOP_RT {
    members = std::clamp(members, 0, kChannels - 1);
    zones_[upper ? 1 : 0] = members;
    int& other = zones_[upper ? 0 : 1];
    // The newer zone wins: the other keeps what is left of channels 1-16 beside it and its manager.
    if (other > 0 && members + other > kChannels - 2) other = std::max(0, kChannels - 2 - members);
    leaveZones();
    if (zones_[0] > 0) joinZone(0, 1, zones_[0]);
    if (zones_[1] > 0) joinZone(kChannels - 1, kChannels - 1 - zones_[1], kChannels - 2);
}

// RPN 0 (pitch bend sensitivity) in a zone: the manager's own range, or every member's at once;
// RPN 6 (the MPE Configuration Message) on channel 1 or 16. Outside a zone RPN 0 changes nothing.
void MidiSynth::registered(int ch, uint8_t number, uint8_t value) BOOP_RT {
    Channel& c = channels_[ch];
    if (number >= 100) {
        c.rpn[101 - number] = value;
        return;
    }
    if (number == 6) c.data[1] = 0;
    c.data[number == 6 ? 0 : 1] = value;
    if (c.rpn[0] == 0 && c.rpn[1] == 6 && number == 6 && (ch == 0 || ch == kChannels - 1)) {
        setMpeZone(ch == kChannels - 1, value);
    } else if (c.rpn[0] == 0 && c.rpn[1] == 0 && (c.manager >= 0 || c.managing)) {
        const double range = c.data[0] + c.data[1] / 100.0;
        if (c.managing) {
            c.range = range;
            applyBend(ch);
            return;
        }
        for (int m = 0; m < kChannels; ++m) {
            if (channels_[m].manager != c.manager) continue;
            channels_[m].range = range;
            applyBend(m);
        }
    }
}

// What a manager channel says to its whole zone: the pedal, volume, expression, modulation, the
// sound controllers, pan, all sound/notes off and channel pressure.
void MidiSynth::forwardToZone(int ch, uint8_t status, uint8_t d1, uint8_t d2) BOOP_RT {
    if ((status & 0xF0) == 0xB0) {
        switch (d1) {
            case 1:
            case 7:
            case 10:
            case 11:
            case 64:
            case 71:
            case 72:
            case 73:
            case 74:
            case 120:
            case 121:
            case 123:
                break;
            default:
                return;
        }
    }
    for (int m = 0; m < kChannels; ++m) {
        if (channels_[m].manager != ch) continue;
        if ((status & 0xF0) == 0xB0) {
            if (d1 == 121) channels_[m].zonePressure = 0;
            control(m, d1, d2);
        } else {  // RP-053: the zone's pressure combines with each note's own (setVibrato adds them)
            channels_[m].zonePressure = d1;
            setVibrato(m);
        }
    }
}

void MidiSynth::retune(int ch) BOOP_RT {
    Channel& c = channels_[ch];
    const double ratio = expressive(ch) && c.vibrato.depth > 0.0 ? c.bend * c.vibrato.ratio() : c.bend;
    if (ratio == c.applied) return;
    Command cmd;
    cmd.type = Command::Type::RetuneGroup;
    cmd.noteId = noteId(ch, 0);
    cmd.value = ratio / c.applied;
    c.applied = ratio;
    if (kitOf(ch) < 0) send(cmd);
}

// A version-1 member's CC 74 glides to its cutoff with the volume's ramp (from none: from the top
// of CC 74's range); elsewhere it is only kept, for the notes the channel may play as a member.
void MidiSynth::setCutoff(int ch, uint8_t value) BOOP_RT {
    Channel& c = channels_[ch];
    c.cutoffTarget = cc74Cutoff(value);
    if (!expressive(ch)) {
        c.cutoff = c.cutoffTarget;
        return;
    }
    if (c.cutoff == 0.0) c.cutoff = cc74Cutoff(127);
    startRamp(ch);
}

uint32_t MidiSynth::stepVibratos(uint32_t frames) BOOP_RT {
    if (vibratoLeft_ == 0) {
        bool running = false;
        for (int ch = 0; ch < kChannels; ++ch) {
            Channel& c = channels_[ch];
            const bool on = expressive(ch) && c.vibrato.depth > 0.0;
            if (!on && c.applied == c.bend) continue;
            retune(ch);  // a channel whose vibrato stopped lands on its bend
            if (!on) continue;
            c.vibrato.advance(kVibratoStep, sampleRate_);
            running = true;
        }
        if (!running) return frames;
        vibratoLeft_ = kVibratoStep;
    }
    const uint32_t n = std::min(frames, vibratoLeft_);
    vibratoLeft_ -= n;
    return n;
}

}  // namespace boop
