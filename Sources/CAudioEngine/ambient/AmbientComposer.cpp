// The composition: the source units (pad, lead, ocean, the lead's echo) and the decisions that play them — chord
// changes, lead steps and slow drift — on exact frames of the composition clock.
#include "ambient/AmbientEngine.hpp"

#include <cmath>

#include "dsp/MidiPitch.hpp"
#include "dsp/OnePole.hpp"

namespace boop::ambient {

namespace {

float midiToHz(int midi) BOOP_RT { return static_cast<float>(dsp::midiKeyHz(midi)); }

}  // namespace

void AmbientEngine::prepareVoices() {
    const std::uint64_t seed = cfg_.seed;
    pad_.prepare(sr_, seed);
    pad_.setDetuneCents(cfg_.pad_detune_cents);
    pad_.setAttack(cfg_.pad_attack_seconds);
    pad_.setRelease(cfg_.pad_release_seconds);
    pad_.setFilter(cfg_.filter_min_hz, 0.5 + 7.5 * cfg_.filter_resonance * cfg_.filter_resonance);

    lead_.prepare(sr_);
    lead_.setRatio(cfg_.fm_ratio);
    lead_.setIndex(cfg_.fm_index);
    lead_.setEnvelope(cfg_.lead_attack_seconds, cfg_.lead_decay_seconds);

    grains_.prepare(sr_, seed, 3.0);
    grains_.setGrain(cfg_.grain_seconds, cfg_.grain_density);
    grains_.setPitchSpread(cfg_.grain_pitch_spread);

    ocean_.prepare(sr_, seed);
    ocean_.setSwell(cfg_.ocean_swell_seconds);
}

void AmbientEngine::prepareComposition() {
    const std::uint64_t seed = cfg_.seed;
    harmony_.configure(cfg_.key, static_cast<Scale>(cfg_.scale), cfg_.seventh_chance, cfg_.modulation_chance, seed);
    rhythm_.set(static_cast<int>(cfg_.lead_pulses), static_cast<int>(cfg_.lead_steps),
                static_cast<int>(cfg_.lead_rotation));

    leadRng_.seedWith(seed, dsp::kStreamLead);
    driftRng_.seedWith(seed, dsp::kStreamDrift);
    cutoffDrift_.prepare(sr_, cfg_.filter_sweep_seconds);
    detuneDrift_.prepare(sr_, 23.0);
    grainDrift_.prepare(sr_, 37.0);
    oceanDrift_.prepare(sr_, 29.0);
    leadDrift_.prepare(sr_, 41.0);

    framesPerStep_ = sr_ * 60.0 / (cfg_.tempo_bpm * 4.0);
    // Chords change on step boundaries (whole multiples of the rhythm's cycle when they fit) so
    // harmony and lead stay locked however long a piece runs.
    const double steps = cfg_.chord_seconds * sr_ / framesPerStep_;
    std::uint64_t cs = static_cast<std::uint64_t>(std::llround(steps));
    const std::uint64_t cycle = cfg_.lead_steps;
    if (cs >= cycle) cs = (cs + cycle / 2) / cycle * cycle;
    chordSteps_ = cs < 1 ? 1 : cs;

    fadeIn_ = cfg_.fade_in_seconds > 0.0f ? 0.0 : 1.0;
    fadeInStep_ = cfg_.fade_in_seconds > 0.0f ? 1.0 / (cfg_.fade_in_seconds * sr_) : 1.0;

    panGlide_ = static_cast<float>(dsp::onePoleCoef(0.005, sr_));
    mix_.padLevel = cfg_.pad_level;
    mix_.leadLevel = cfg_.lead_level;
    mix_.grainLevel = cfg_.grain_level;
    mix_.oceanLevel = cfg_.ocean_level;
    pubKey_.store(harmony_.key());
}

std::uint64_t AmbientEngine::stepFrame(std::uint64_t k) const BOOP_RT {
    return static_cast<std::uint64_t>(std::floor(static_cast<double>(k) * framesPerStep_ + 0.5));
}

void AmbientEngine::controlTick() BOOP_RT {
    const float amount = cfg_.drift_amount;
    // Cutoff: exponential between min and max, so the sweep sounds even.
    const float c = cutoffDrift_.advance(driftRng_, kChunk);
    const double ratio = static_cast<double>(cfg_.filter_max_hz) / cfg_.filter_min_hz;
    const double pos = 0.5 + 0.5 * c * (0.3 + 0.7 * amount);
    pad_.setFilter(cfg_.filter_min_hz * std::pow(ratio, pos),
                   0.5 + 7.5 * cfg_.filter_resonance * cfg_.filter_resonance);

    const float d = detuneDrift_.advance(driftRng_, kChunk);
    pad_.setDetuneCents(cfg_.pad_detune_cents * (1.0f + 0.5f * amount * d));
    pad_.refreshTuning();

    const float g = grainDrift_.advance(driftRng_, kChunk);
    mix_.grainLevel = cfg_.grain_level * (1.0f + 0.5f * amount * g);
    mix_.grainDensity = cfg_.grain_density * (1.0f + 0.5f * amount * g);

    const float o = oceanDrift_.advance(driftRng_, kChunk);
    mix_.oceanLevel = cfg_.ocean_level * (1.0f + 0.6f * amount * o);

    const float l = leadDrift_.advance(driftRng_, kChunk);
    mix_.leadLevel = cfg_.lead_level * (1.0f + 0.3f * amount * l);
}

void AmbientEngine::chordChange() BOOP_RT {
    const Chord& ch = chordIndex_ == 0 ? harmony_.current() : harmony_.next();
    ++chordIndex_;
    nextChordFrame_ = stepFrame(chordIndex_ * chordSteps_);

    // Open voicing: root, fifth (or seventh) and the third an octave up; the old chord releases
    // slowly into the three free voices, so chords cross-fade.
    const int base = 12 * (cfg_.pad_octave + 1) + harmony_.key();
    const int top = ch.noteCount == 4 ? ch.notes[3] : ch.notes[2];
    const int notes[3] = {base + ch.notes[0], base + top, base + ch.notes[1] + 12};
    pad_.releaseAll();
    for (int n : notes) pad_.noteOn(midiToHz(n), 0.22f);

    const ChordShown shown{
        frame_, harmony_.chordCount(), harmony_.key(), ch.root, ch.degree, static_cast<std::int32_t>(ch.quality)};
    if (frame_ >= logUntil_)
        showChord(shown);
    else if (chordLogSize_ < chordLogCap_)
        chordLog_[chordLogSize_++] = shown;  // shown when its frame is heard (replay)
}

void AmbientEngine::showChord(const ChordShown& c) BOOP_RT {
    pubKey_.store(c.key, std::memory_order_relaxed);
    pubRoot_.store(c.root, std::memory_order_relaxed);
    pubDegree_.store(c.degree, std::memory_order_relaxed);
    pubQuality_.store(c.quality, std::memory_order_relaxed);
    pubChords_.store(c.chords, std::memory_order_relaxed);
}

void AmbientEngine::leadStep() BOOP_RT {
    const std::uint64_t k = stepIndex_++;
    nextStepFrame_ = stepFrame(stepIndex_);
    const bool onset = rhythm_.onset(k);
    // Always draw the same count so the lead's stream does not depend on the pattern.
    const float uPlay = leadRng_.uniform(), uMove = leadRng_.uniform(), uPass = leadRng_.uniform();
    const float uVel = leadRng_.uniform(), uPan = leadRng_.uniform();
    if (!onset || !(uPlay < cfg_.lead_probability)) return;

    // Pool: chord tones over two octaves from the lead octave; the melody walks through it.
    const Chord& ch = harmony_.current();
    int pool[8];
    int count = 0;
    const int base = 12 * (cfg_.lead_octave + 1) + harmony_.key();
    for (int oct = 0; oct < 2; ++oct)
        for (int i = 0; i < ch.noteCount && i < 4; ++i) pool[count++] = base + ch.notes[i] + 12 * oct;
    int step = static_cast<int>(uMove * 5.0f) - 2;  // -2 ... 2
    leadIndex_ += step;
    if (leadIndex_ < 0) leadIndex_ = -leadIndex_;
    if (leadIndex_ >= count) leadIndex_ = 2 * (count - 1) - leadIndex_;
    if (leadIndex_ < 0) leadIndex_ = 0;
    int midi = pool[leadIndex_];
    if (uPass < 0.2f) {
        // A passing tone: the scale step above the chord tone.
        const int deg = ch.degree + 2 * (leadIndex_ % ch.noteCount) + 1;
        midi = harmony_.scaleNote(deg, cfg_.lead_octave) + 12 * (leadIndex_ / ch.noteCount);
    }
    const bool accent = (k % rhythm_.steps()) == static_cast<std::uint64_t>(0);
    const float vel = (accent ? 0.85f : 0.55f) + 0.15f * uVel;
    lead_.noteOn(midiToHz(midi), vel);
    const float pan = 0.3f + 0.4f * uPan;
    mix_.leadPanL = std::sqrt(1.0f - pan);
    mix_.leadPanR = std::sqrt(pan);
}

void AmbientEngine::renderSources(Sources& s, std::uint64_t limit) BOOP_RT {
    if (frame_ == nextControl_) {
        controlTick();
        nextControl_ += kChunk;
    }
    if (frame_ == nextChordFrame_) chordChange();
    while (frame_ == nextStepFrame_) leadStep();
    std::uint64_t n = limit;
    if (nextControl_ - frame_ < n) n = nextControl_ - frame_;
    if (nextChordFrame_ - frame_ < n) n = nextChordFrame_ - frame_;
    if (nextStepFrame_ - frame_ < n) n = nextStepFrame_ - frame_;
    const int m = static_cast<int>(n);
    s.n = m;
    s.mix = mix_;
    if (leadBesidePad_) {
        // The lead's tone lowpass is stepped inside the pad's frame loop, where its recursion
        // overlaps the pad's vector work (PadBeside); the same samples as one after the other.
        dsp::FmLeadTerms terms;
        const int live = lead_.terms(terms, m);
        if (!pad_.processBeside(s.padL, s.padR, m, dsp::PadBeside{&lead_.state(), &terms, live, s.lead}))
            lead_.filter(terms, live, s.lead, m);
    } else {
        pad_.process(s.padL, s.padR, m);
        lead_.process(s.lead, m);
    }
    renderOceanAndEcho(s);
    frame_ += n;
}

// The lead's ping-pong echo for the stretch, and the ocean where it is made with the sources
// (startWorker): frame by frame in one loop, each a recursion a frame long, which side by side the
// processor overlaps. Their samples are those of PingPongDelay::process and dsp::OceanNoise::process,
// and neither depends on how the stretches are cut into mix calls, so making them here gives the
// bits the mix once made. Anything not finite in the echo (never expected) becomes silence and
// clears its lines, where it happened.
void AmbientEngine::renderOceanAndEcho(Sources& s) BOOP_RT {
    const int m = s.n;
    float in[kChunk];
    for (int i = 0; i < m; ++i) in[i] = s.lead[i] * s.mix.leadLevel;
    // The echo's reads made ahead as vectors where its delay allows (PingPongDelay::readAhead),
    // leaving the frame-by-frame loop its feedback alone.
    float yl[kChunk], yr[kChunk];
    const bool ahead = delay_.readAhead(m, yl, yr);
    dsp::PingPongDelay::Run echo = delay_.begin();
    const bool withOcean = oceanWithSources_;
    for (int i = 0; i < m;) {
        dsp::OceanNoise::Run waves{};  // filled by beginRun where the ocean is made here
        const int k = withOcean ? ocean_.beginRun(m - i, waves) : m - i;
        if (ahead) {
            for (int j = i; j < i + k; ++j) {
                if (withOcean) dsp::OceanNoise::step(waves, s.ocL[j], s.ocR[j]);
                dsp::PingPongDelay::feed(echo, in[j], yl[j], yr[j], s.dlL[j], s.dlR[j]);
            }
        } else {
            for (int j = i; j < i + k; ++j) {
                if (withOcean) dsp::OceanNoise::step(waves, s.ocL[j], s.ocR[j]);
                dsp::PingPongDelay::step(echo, in[j], s.dlL[j], s.dlR[j]);
            }
        }
        if (withOcean) ocean_.endRun(waves, k);
        i += k;
    }
    delay_.end(echo);
    int bad = 0;
    for (int i = 0; i < m; ++i)
        bad |= (std::fabs(s.dlL[i]) <= 3.4028235e38f && std::fabs(s.dlR[i]) <= 3.4028235e38f) ? 0 : 1;
    if (bad) {
        for (int i = 0; i < m; ++i) s.dlL[i] = s.dlR[i] = 0.0f;
        delay_.reset();
        echoNonfinite_.fetch_add(1, std::memory_order_relaxed);
    }
}
}  // namespace boop::ambient
