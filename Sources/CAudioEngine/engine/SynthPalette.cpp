#include "engine/SynthPalette.hpp"

#include <algorithm>
#include <cmath>

#include "dsp/SoftClipper.hpp"
#include "engine/Engine.hpp"
#include "rt/Denormals.hpp"

namespace boop {

namespace {
#define BOOP_SOUND_OF(ENUMERATOR, name, value, program, attack, decay, sustain, release, cutoff, resonance, ...) \
    {ENUMERATOR, 0.5, attack, decay, sustain, release, cutoff, resonance, 0.0},
constexpr boop_instrument kSounds[] = {BOOP_VOICES(BOOP_SOUND_OF)};
#undef BOOP_SOUND_OF
constexpr double kPi = 3.14159265358979323846;
}  // namespace

boop_instrument SynthPalette::voiceSound(boop_instrument_voice voice) BOOP_RT { return kSounds[clampVoice(voice)]; }

void SynthPalette::panGains(double pan, float& left, float& right) BOOP_RT {
    const double theta = (std::clamp(pan, -1.0, 1.0) + 1.0) * kPi / 4.0;
    // The centre's cos(pi/4) x sqrt(2) rounds to 1 exactly in float: unity, as a song's centre.
    left = static_cast<float>(std::sqrt(2.0) * std::cos(theta));
    right = static_cast<float>(std::sqrt(2.0) * std::sin(theta));
}

void SynthPalette::prepare(double sampleRate) {
    sampleRate_ = sampleRate;
    rampFrames_ = std::max(1, static_cast<int>(std::lround(kRampSeconds * sampleRate)));
    for (Lane& lane : lanes_) lane.bank.prepare(sampleRate);
}

void SynthPalette::setSound(int ch, const boop_instrument& s) BOOP_RT {
    InstrumentBank& bank = lanes_[ch].bank;
    // Sounding notes fade out before the voice changes under them (a string, say, that was never plucked).
    if (clampVoice(s.voice) != bank.params().voice) bank.fadeAll(InstrumentBank::kStealFade);
    bank.setParam(InstrumentParams::Voice, s.voice);
    bank.setParam(InstrumentParams::Width, s.width);
    bank.setParam(InstrumentParams::Attack, s.attack);
    bank.setParam(InstrumentParams::Decay, s.decay);
    bank.setParam(InstrumentParams::Sustain, s.sustain);
    bank.setParam(InstrumentParams::Release, s.release);
    bank.setParam(InstrumentParams::Cutoff, s.cutoff);
    bank.setParam(InstrumentParams::Resonance, s.resonance);
    setPan(ch, s.pan);
}

void SynthPalette::setParam(int ch, uint32_t index, double value) BOOP_RT {
    if (index == InstrumentParams::Pan) return setPan(ch, value);
    lanes_[ch].bank.setParam(index, value);
}

void SynthPalette::copySound(int from, int to) BOOP_RT {
    const InstrumentParams& p = lanes_[from].bank.params();
    setSound(to, boop_instrument{p.voice, p.width, p.attack, p.decay, p.sustain, p.release, p.cutoff, p.resonance,
                                 lanes_[from].pan});
}

void SynthPalette::noteOn(int ch, uint32_t noteId, double hz, float gain, uint64_t order) BOOP_RT {
    Lane& lane = lanes_[ch];
    lane.bank.start(noteId, hz, gain, order, ++lane.seed);
}

void SynthPalette::setBend(int ch, double ratio) BOOP_RT {
    Lane& lane = lanes_[ch];
    lane.bend = ratio;
    if (lane.vibrato.depth == 0.0) lane.bank.setPitch(ratio);
}

void SynthPalette::setLevel(int ch, float gain) BOOP_RT {
    lanes_[ch].level = gain;
    retarget(lanes_[ch]);
}

void SynthPalette::setPan(int ch, double pan) BOOP_RT {
    lanes_[ch].pan = std::clamp(pan, -1.0, 1.0);
    retarget(lanes_[ch]);
}

void SynthPalette::retarget(Lane& lane) BOOP_RT {
    float left, right;
    panGains(lane.pan, left, right);
    lane.target[0] = left * lane.level;
    lane.target[1] = right * lane.level;
    if (lane.bank.activeCount() == 0) {
        // Nothing sounds: the next note starts at the new gains, no ramp.
        for (int s = 0; s < 2; ++s) lane.gain[s] = lane.target[s];
        lane.rampLeft = 0;
        return;
    }
    lane.rampLeft = rampFrames_;
    for (int s = 0; s < 2; ++s) lane.step[s] = (lane.target[s] - lane.gain[s]) / static_cast<float>(rampFrames_);
}

int SynthPalette::activeCount() const BOOP_RT {
    int n = 0;
    for (const Lane& lane : lanes_) n += lane.bank.activeCount();
    return n;
}

void SynthPalette::renderLane(Lane& lane, float* out, int frames) BOOP_RT {
    if (lane.vibrato.depth > 0.0) {
        lane.bank.setPitch(lane.bend * lane.vibrato.ratio());
        lane.vibrato.advance(frames, sampleRate_);
    } else {
        lane.bank.setPitch(lane.bend);
    }
    std::fill(left_, left_ + frames, 0.0f);
    lane.bank.render(left_, right_, 0, frames);  // at pan 0: left is the mono sum at unity
    const float master = Engine::kMasterGain;
    for (int i = 0; i < frames; ++i) {
        if (lane.rampLeft > 0) {
            const bool last = --lane.rampLeft == 0;
            for (int s = 0; s < 2; ++s) lane.gain[s] = last ? lane.target[s] : lane.gain[s] + lane.step[s];
        }
        const float x = left_[i] * master;
        out[2 * i] += x * lane.gain[0];
        out[2 * i + 1] += x * lane.gain[1];
    }
}

void SynthPalette::render(float* out, uint32_t frames) BOOP_RT {
    DenormalGuard denormalGuard;  // the lowpass tails, as in Engine::render
    for (uint32_t done = 0; done < frames;) {
        const int n = static_cast<int>(std::min<uint32_t>(frames - done, kChunk));
        float* chunk = out + 2 * static_cast<size_t>(done);
        bool sounded = false;
        for (Lane& lane : lanes_) {
            if (lane.bank.activeCount() == 0) continue;
            renderLane(lane, chunk, n);
            sounded = true;
        }
        if (sounded)
            for (int i = 0; i < 2 * n; ++i) chunk[i] = dsp::SoftClipper::process(chunk[i]);
        done += static_cast<uint32_t>(n);
    }
}

}  // namespace boop
