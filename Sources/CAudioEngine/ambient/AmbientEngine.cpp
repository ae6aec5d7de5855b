#include "ambient/AmbientEngine.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <system_error>
#include "rt/Denormals.hpp"

namespace boop::ambient {

void AmbientEngine::normalize(double targetLufs, double expectedLufs) noexcept {
    level_.prepare(sr_, targetLufs);
    level_.setEstimate(expectedLufs);
    normalizing_ = true;
}

double AmbientEngine::measureLoudness(const boop_ambient_config& config, double seconds) {
    AmbientEngine probe(config);
    LoudnessMeter meter;
    meter.prepare(config.sample_rate, 2);
    probe.probe_ = &meter;
    const bool twoCores = probe.startWorker();
    const auto total = static_cast<std::uint64_t>((config.fade_in_seconds + seconds) * config.sample_rate);
    float block[2 * 1024];
    for (std::uint64_t done = 0; done < total; done += 1024) {
        const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(1024, total - done));
        if (twoCores)
            probe.renderWithWorker(block, n);
        else
            probe.render(block, n);
    }
    return meter.integrated();
}

namespace {

float midiToHz(int midi) BOOP_RT { return static_cast<float>(440.0 * std::exp2((midi - 69) / 12.0)); }

}  // namespace

AmbientEngine::AmbientEngine(const boop_ambient_config& config) : cfg_(config), sr_(config.sample_rate) {
    prepareVoices();
    prepareEffects();
    prepareComposition();
}

AmbientEngine::~AmbientEngine() { stopWorker(); }

bool AmbientEngine::startWorker() {
    if (worker_.joinable() || frame_ != 0) return false;
    ring_.reset(new Sources[kRing]);
    try {
        worker_ = std::thread([this] { workerLoop(); });
    } catch (const std::system_error&) {
        ring_.reset();
        return false;
    }
    return true;
}

void AmbientEngine::stopWorker() noexcept {
    if (!worker_.joinable()) return;
    stopping_.store(true);
    {
        std::lock_guard<std::mutex> lock(wakeMutex_);
        wake_.notify_all();
    }
    worker_.join();
}

// The worker: stretch after stretch of the sources into the ring, waiting only while it is full.
// It owns the composition and the source units; render() touches only the mix's side.
void AmbientEngine::workerLoop() noexcept {
    DenormalGuard guard;  // the same arithmetic as the render thread's
    std::uint32_t head = head_.load(std::memory_order_relaxed);
    while (!stopping_.load(std::memory_order_relaxed)) {
        if (head - tail_.load(std::memory_order_acquire) == kRing) {
            std::unique_lock<std::mutex> lock(wakeMutex_);
            workerWaits_.store(true);
            wake_.wait(lock, [&] { return stopping_.load() || head - tail_.load() < kRing; });
            workerWaits_.store(false);
            continue;
        }
        renderSources(ring_[head % kRing], kChunk);
        head_.store(++head);  // sequentially consistent, like the waits' flags: no wake-up is lost
        // A waiting render() is woken once a batch is ready, not for every stretch: each
        // wake-up is a system call on both sides.
        if (renderWaits_.load() && head - tail_.load() >= kWakeBatch) {
            std::lock_guard<std::mutex> lock(wakeMutex_);
            wake_.notify_all();
        }
    }
}

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

void AmbientEngine::prepareEffects() {
    delay_.prepare(sr_, 2.1);
    delay_.setTime(cfg_.delay_seconds);
    delay_.setFeedback(cfg_.delay_feedback);
    delay_.setDamping(cfg_.delay_damping);
    delay_.reset();

    reverb_.prepare(sr_);
    reverb_.setSize(cfg_.reverb_size);
    reverb_.setDecay(cfg_.reverb_decay_seconds);
    reverb_.setDamping(cfg_.reverb_damping);
    limiter_.prepare(sr_);
}

void AmbientEngine::prepareComposition() {
    const std::uint64_t seed = cfg_.seed;
    harmony_.configure(cfg_.key, static_cast<Scale>(cfg_.scale), cfg_.seventh_chance, cfg_.modulation_chance, seed);
    rhythm_.set(static_cast<int>(cfg_.lead_pulses), static_cast<int>(cfg_.lead_steps),
                static_cast<int>(cfg_.lead_rotation));

    leadRng_.seedWith(seed, kStreamLead);
    driftRng_.seedWith(seed, kStreamDrift);
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

    panGlide_ = static_cast<float>(1.0 - std::exp(-1.0 / (0.005 * sr_)));
    padLevel_ = cfg_.pad_level;
    leadLevel_ = cfg_.lead_level;
    grainLevel_ = cfg_.grain_level;
    oceanLevel_ = cfg_.ocean_level;
    pubKey_.store(harmony_.key());
}

std::uint64_t AmbientEngine::stepFrame(std::uint64_t k) const BOOP_RT {
    return static_cast<std::uint64_t>(std::floor(static_cast<double>(k) * framesPerStep_ + 0.5));
}

void AmbientEngine::requestFadeOut(double seconds) noexcept {
    fadeOutSeconds_.store(seconds, std::memory_order_relaxed);
    fadeOutSeq_.fetch_add(1, std::memory_order_release);
}

void AmbientEngine::requestPause(bool paused, double fadeSeconds) noexcept {
    pauseFadeSeconds_.store(fadeSeconds, std::memory_order_relaxed);
    pauseWanted_.store(paused ? 1 : 0, std::memory_order_relaxed);
    pauseSeq_.fetch_add(1, std::memory_order_release);
}

void AmbientEngine::applyRequests() BOOP_RT {
    const std::uint32_t fseq = fadeOutSeq_.load(std::memory_order_acquire);
    if (fseq != seenFadeOutSeq_) {
        seenFadeOutSeq_ = fseq;
        const double s = fadeOutSeconds_.load(std::memory_order_relaxed);
        finishing_ = true;
        fadeTarget_ = 0.0f;
        fadeStep_ = s > 0.0 ? static_cast<float>(1.0 / (s * sr_)) : 1.0f;
    }
    const std::uint32_t pseq = pauseSeq_.load(std::memory_order_acquire);
    if (pseq != seenPauseSeq_ && !finishing_) {
        seenPauseSeq_ = pseq;
        const double s = pauseFadeSeconds_.load(std::memory_order_relaxed);
        pausing_ = pauseWanted_.load(std::memory_order_relaxed) != 0;
        fadeTarget_ = pausing_ ? 0.0f : 1.0f;
        fadeStep_ = s > 0.0 ? static_cast<float>(1.0 / (s * sr_)) : 1.0f;
    }
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
    grainLevel_ = cfg_.grain_level * (1.0f + 0.5f * amount * g);
    grainDensity_ = cfg_.grain_density * (1.0f + 0.5f * amount * g);

    const float o = oceanDrift_.advance(driftRng_, kChunk);
    oceanLevel_ = cfg_.ocean_level * (1.0f + 0.6f * amount * o);

    const float l = leadDrift_.advance(driftRng_, kChunk);
    leadLevel_ = cfg_.lead_level * (1.0f + 0.3f * amount * l);
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

    pubKey_.store(harmony_.key(), std::memory_order_relaxed);
    pubRoot_.store(ch.root, std::memory_order_relaxed);
    pubDegree_.store(ch.degree, std::memory_order_relaxed);
    pubQuality_.store(static_cast<std::int32_t>(ch.quality), std::memory_order_relaxed);
    pubChords_.store(harmony_.chordCount(), std::memory_order_relaxed);
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
    leadPanL_ = std::sqrt(1.0f - pan);
    leadPanR_ = std::sqrt(pan);
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
    s.padLevel = padLevel_;
    s.leadLevel = leadLevel_;
    s.grainLevel = grainLevel_;
    s.oceanLevel = oceanLevel_;
    s.leadPanL = leadPanL_;
    s.leadPanR = leadPanR_;
    s.grainDensity = grainDensity_;
    pad_.process(s.padL, s.padR, m);
    lead_.process(s.lead, m);
    ocean_.process(s.ocL, s.ocR, m);
    frame_ += n;
}

// The effects the sources feed (grains, echo), the dry mix, the reverb and the master stage,
// for frames [at, at + n) of a stretch.
void AmbientEngine::mix(const Sources& s, int at, float* out, int n) BOOP_RT {
    if (at == 0) grains_.setGrain(cfg_.grain_seconds, s.grainDensity);
    const float *padL = s.padL + at, *padR = s.padR + at, *lead = s.lead + at;
    for (int i = 0; i < n; ++i) {
        grainIn_[i] = 0.35f * (padL[i] + padR[i]) + 0.5f * lead[i];
        dlIn_[i] = lead[i] * s.leadLevel;
    }
    grains_.process(grainIn_, grL_, grR_, n);
    delay_.process(dlIn_, dlL_, dlR_, n);
    mixDry(s, at, n);
    reverb_.process(dryL_, dryR_, rvL_, rvR_, n);
    master(out, n);
}

namespace {

// sum of a[i]^2 + b[i]^2, four partial sums wide so the loop is not one long chain of adds (the
// meters' energies; their rounding is the meters' business alone).
float energy(const float* a, const float* b, int n) BOOP_RT {
    typedef float f4 __attribute__((vector_size(16)));
    typedef float f4u __attribute__((vector_size(16), aligned(4)));
    f4 acc = {};
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        const f4 x = *reinterpret_cast<const f4u*>(a + i), y = *reinterpret_cast<const f4u*>(b + i);
        acc += x * x + y * y;
    }
    float s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for (; i < n; ++i) s += a[i] * a[i] + b[i] * b[i];
    return s;
}

}  // namespace

// The layers at their levels into the dry bus (the reverb's input), and each layer's energy for
// the meters.
void AmbientEngine::mixDry(const Sources& s, int at, int n) BOOP_RT {
    const float dmix = cfg_.delay_mix;
    const float padLevel = s.padLevel, leadLevel = s.leadLevel, grainLevel = s.grainLevel, oceanLevel = s.oceanLevel;
    const float *padL = s.padL + at, *padR = s.padR + at, *lead = s.lead + at, *grL = grL_, *grR = grR_;
    const float *ocL = s.ocL + at, *ocR = s.ocR + at, *dlL = dlL_, *dlR = dlR_;
    // Pan glides (~5 ms) so a retrigger under a ringing note never steps a channel's gain.
    float panL[kChunk], panR[kChunk];
    float pl = panL_, pr = panR_;
    for (int i = 0; i < n; ++i) {
        pl += (s.leadPanL - pl) * panGlide_;
        pr += (s.leadPanR - pr) * panGlide_;
        panL[i] = pl;
        panR[i] = pr;
    }
    panL_ = pl;
    panR_ = pr;
    for (int i = 0; i < n; ++i) {
        const float l = lead[i] * leadLevel;
        dryL_[i] = padL[i] * padLevel + l * panL[i] + grL[i] * grainLevel + ocL[i] * oceanLevel + dlL[i] * dmix;
        dryR_[i] = padR[i] * padLevel + l * panR[i] + grR[i] * grainLevel + ocR[i] * oceanLevel + dlR[i] * dmix;
    }
    sums_[0] += 0.5 * energy(padL, padR, n);
    sums_[1] += 0.5 * energy(lead, lead, n);
    sums_[2] += 0.5 * energy(grL, grR, n);
    sums_[3] += 0.5 * energy(ocL, ocR, n);
}

// Dry and reverberated sound together, the fades, the loudness normalisation and the limiter, in
// passes over the block: the gains (frame by frame only while a fade moves), then the levels,
// then the limiter's envelope (the one recursion), then its gain and the clipper.
void AmbientEngine::master(float* out, int n) BOOP_RT {
    const float mix = cfg_.reverb_mix;
    const float dryGain = 1.0f - 0.6f * mix, wetGain = 1.2f * mix;
    const float masterGain = cfg_.master_gain;
    float l[kChunk], r[kChunk], gain[kChunk];
    sums_[4] += 0.5 * energy(rvL_, rvR_, n);
    for (int i = 0; i < n; ++i) {
        l[i] = (dryL_[i] * dryGain + rvL_[i] * wetGain) * masterGain;
        r[i] = (dryR_[i] * dryGain + rvR_[i] * wetGain) * masterGain;
    }
    if (fadeIn_ >= 1.0 && fade_ == fadeTarget_) {
        // No fade moving: one gain for the block, times the normaliser's.
        // The level is measured in steady state only: fades are the listener's, not the music's.
        const bool steady = fade_ == 1.0f;
        if (probe_ != nullptr && steady) {
            float frames[2 * kChunk];
            for (int i = 0; i < n; ++i) {
                frames[2 * i] = l[i];
                frames[2 * i + 1] = r[i];
            }
            probe_->add(frames, static_cast<std::uint64_t>(n));
        }
        const float fade = fade_ * static_cast<float>(fadeIn_);
        if (normalizing_) {
            level_.run(l, r, gain, n, steady);
            for (int i = 0; i < n; ++i) gain[i] = fade * gain[i];
        } else {
            for (int i = 0; i < n; ++i) gain[i] = fade;
        }
    } else {
        for (int i = 0; i < n; ++i) {
            if (fadeIn_ < 1.0) {
                fadeIn_ += fadeInStep_;
                if (fadeIn_ > 1.0) fadeIn_ = 1.0;
            }
            if (fade_ != fadeTarget_) {
                if (fade_ < fadeTarget_) {
                    fade_ += fadeStep_;
                    if (fade_ > fadeTarget_) fade_ = fadeTarget_;
                } else {
                    fade_ -= fadeStep_;
                    if (fade_ < fadeTarget_) fade_ = fadeTarget_;
                }
            }
            const bool steady = fade_ == 1.0f && fadeTarget_ == 1.0f && fadeIn_ >= 1.0;
            if (probe_ != nullptr && steady) {
                const float frame[2] = {l[i], r[i]};
                probe_->add(frame, 1);
            }
            float g = fade_ * static_cast<float>(fadeIn_);
            if (normalizing_) {
                if (steady) level_.measure(l[i], r[i]);
                g *= level_.next();
            }
            gain[i] = g;
        }
    }

    // Gains applied; anything not finite becomes silence (and is reported below).
    float peak[kChunk];
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float a = l[i] * gain[i], b = r[i] * gain[i];
        const float aa = std::fabs(a), ab = std::fabs(b);
        const bool finite = aa <= 3.4028235e38f && ab <= 3.4028235e38f;  // false for inf and NaN
        bad |= finite ? 0 : 1;
        l[i] = finite ? a : 0.0f;
        r[i] = finite ? b : 0.0f;
        peak[i] = finite ? (aa > ab ? aa : ab) : 0.0f;
    }
    limiter_.follow(peak, n);
    for (int i = 0; i < n; ++i) {
        const float g = limiter_.gainFor(peak[i]);
        out[2 * i] = SoftLimiter::clip(l[i] * g);
        out[2 * i + 1] = SoftLimiter::clip(r[i] * g);
    }
    if (bad) {
        // Never expected; if it happens the feedback paths must not keep recirculating it.
        ++nonfinite_;
        delay_.reset();
        reverb_.reset();
        grains_.reset();
        limiter_.reset();
    }
}

// At most n frames, fewer when a fade to silence ends sooner: it must stop the clock on the
// exact sample it reaches silence.
std::uint64_t AmbientEngine::untilSilence(std::uint64_t n) const BOOP_RT {
    if (fade_ != fadeTarget_ && fadeTarget_ == 0.0f) {
        const std::uint64_t left = static_cast<std::uint64_t>(std::ceil(fade_ / fadeStep_));
        if (left >= 1 && left < n) return left;
    }
    return n;
}

void AmbientEngine::render(float* out, std::uint32_t frames) BOOP_RT {
    if (worker_.joinable()) {
        // Not for a real-time thread (see startWorker): silence rather than a race.
        for (std::uint32_t i = 0; i < 2 * frames; ++i) out[i] = 0.0f;
        return;
    }
    DenormalGuard guard;
    applyRequests();
    for (auto& s : sums_) s = 0.0;
    std::uint32_t done = 0;
    std::uint32_t counted = 0;
    while (done < frames) {
        if (finished_ || (pausing_ && fade_ == 0.0f)) {
            // Silent: the composition clock stands still.
            for (std::uint32_t i = 2 * done; i < 2 * frames; ++i) out[i] = 0.0f;
            break;
        }
        renderSources(chunk_, untilSilence(frames - done));
        const int n = chunk_.n;
        mix(chunk_, 0, out + 2 * done, n);
        mixFrame_ += static_cast<std::uint64_t>(n);
        done += static_cast<std::uint32_t>(n);
        counted += static_cast<std::uint32_t>(n);
        if (finishing_ && fade_ == 0.0f) finished_ = true;
    }
    finishRender(out, frames, counted);
}

// The same as render(), the sources coming from the worker's ring. A stretch is mixed in as
// many pieces as the blocks and the end of a fade cut it into: every unit's samples are the same
// however it is cut, so the output is render()'s, sample for sample.
void AmbientEngine::renderWithWorker(float* out, std::uint32_t frames) {
    DenormalGuard guard;
    applyRequests();
    for (auto& s : sums_) s = 0.0;
    std::uint32_t done = 0;
    std::uint32_t counted = 0;
    std::uint32_t tail = tail_.load(std::memory_order_relaxed);
    while (done < frames) {
        if (finished_ || (pausing_ && fade_ == 0.0f)) {
            for (std::uint32_t i = 2 * done; i < 2 * frames; ++i) out[i] = 0.0f;
            break;
        }
        if (head_.load(std::memory_order_acquire) == tail) {
            std::unique_lock<std::mutex> lock(wakeMutex_);
            renderWaits_.store(true);
            wake_.wait(lock, [&] { return head_.load() != tail; });
            renderWaits_.store(false);
        }
        const Sources& s = ring_[tail % kRing];
        std::uint64_t n = static_cast<std::uint64_t>(s.n - tailAt_);
        n = untilSilence(frames - done < n ? frames - done : n);
        mix(s, tailAt_, out + 2 * done, static_cast<int>(n));
        tailAt_ += static_cast<int>(n);
        if (tailAt_ == s.n) {
            tailAt_ = 0;
            tail_.store(++tail);
            if (workerWaits_.load() && head_.load() - tail <= kRing - kWakeBatch) {
                std::lock_guard<std::mutex> lock(wakeMutex_);
                wake_.notify_all();
            }
        }
        mixFrame_ += n;
        done += static_cast<std::uint32_t>(n);
        counted += static_cast<std::uint32_t>(n);
        if (finishing_ && fade_ == 0.0f) finished_ = true;
    }
    finishRender(out, frames, counted);
}

void AmbientEngine::finishRender(const float* out, std::uint32_t frames, std::uint32_t counted) BOOP_RT {
    float pl = 0.0f, pr = 0.0f;
    for (std::uint32_t i = 0; i < frames; ++i) {
        const float l = std::fabs(out[2 * i]), r = std::fabs(out[2 * i + 1]);
        pl = l > pl ? l : pl;
        pr = r > pr ? r : pr;
    }
    publish(pl, pr, sums_, counted);
}

void AmbientEngine::publish(float peakL, float peakR, const double* sums, std::uint32_t n) BOOP_RT {
    constexpr auto relaxed = std::memory_order_relaxed;
    pubFrame_.store(mixFrame_, relaxed);
    pubPeakL_.store(peakL, relaxed);
    pubPeakR_.store(peakR, relaxed);
    if (n > 0) {
        pubPad_.store(static_cast<float>(std::sqrt(sums[0] / n)), relaxed);
        pubLead_.store(static_cast<float>(std::sqrt(sums[1] / n)), relaxed);
        pubGrain_.store(static_cast<float>(std::sqrt(sums[2] / n)), relaxed);
        pubOcean_.store(static_cast<float>(std::sqrt(sums[3] / n)), relaxed);
        pubReverb_.store(static_cast<float>(std::sqrt(sums[4] / n)), relaxed);
    } else {
        pubPad_.store(0, relaxed);
        pubLead_.store(0, relaxed);
        pubGrain_.store(0, relaxed);
        pubOcean_.store(0, relaxed);
        pubReverb_.store(0, relaxed);
    }
    pubPaused_.store(pausing_ && fade_ == 0.0f ? 1 : 0, relaxed);
    pubFading_.store(fade_ != fadeTarget_ ? 1 : 0, relaxed);
    pubFinished_.store(finished_ ? 1 : 0, relaxed);
    pubNonfinite_.store(nonfinite_, relaxed);
}

void AmbientEngine::status(boop_ambient_status& s) const noexcept {
    constexpr auto relaxed = std::memory_order_relaxed;
    std::memset(&s, 0, sizeof s);
    s.frame = pubFrame_.load(relaxed);
    s.chords = pubChords_.load(relaxed);
    s.key = pubKey_.load(relaxed);
    s.scale = cfg_.scale;
    s.chord_root = pubRoot_.load(relaxed);
    s.chord_degree = pubDegree_.load(relaxed);
    HarmonyManager::chordName(s.chord_root, static_cast<ChordQuality>(pubQuality_.load(relaxed)), s.chord_name,
                              sizeof s.chord_name);
    s.peak_left = pubPeakL_.load(relaxed);
    s.peak_right = pubPeakR_.load(relaxed);
    s.level_pad = pubPad_.load(relaxed);
    s.level_lead = pubLead_.load(relaxed);
    s.level_grain = pubGrain_.load(relaxed);
    s.level_ocean = pubOcean_.load(relaxed);
    s.level_reverb = pubReverb_.load(relaxed);
    s.paused = pubPaused_.load(relaxed);
    s.fading = pubFading_.load(relaxed);
    s.finished = pubFinished_.load(relaxed);
    s.nonfinite_resets = pubNonfinite_.load(relaxed);
}

}  // namespace boop::ambient
