#include "engine/DrumBank.hpp"

#include <algorithm>
#include <cmath>

namespace boop {

namespace {

void resetEnvelope(DrumBank::Envelope& e, const dsp::DrumRecipe& r, float gain) noexcept {
    e.age = 0;
    e.rampIn = r.rampInFrames;
    e.perRamp = 1.0f / static_cast<float>(r.rampInFrames);
    e.fadeGain = 1.0f;
    e.fadeStep = 0.0f;
    e.gain = gain;
}

}  // namespace

void DrumBank::prepare(double sampleRate) {
    sampleRate_ = sampleRate;
    kernels_ = &chooseKernels();
    tables_.prepare(sampleRate);
    reset();
}

void DrumBank::reset() noexcept {
    for (Sweep& v : sweep_) v = Sweep{};
    ring_ = Ring{};
    ringing_ = 0;
    for (Noise& v : noise_) v = Noise{};
    for (uint64_t& o : order_) o = 0;
}

int DrumBank::activeCount() const BOOP_RT {
    int n = 0;
    for (int l = 0; l < kVoices; ++l) n += sweep_[l].alive || ring_.ringing[l] || noise_[l].alive;
    return n;
}

void DrumBank::trigger(uint32_t key, float gain, uint32_t seed, uint64_t order, uint64_t frame) BOOP_RT {
    int lane = -1;
    for (int l = 0; l < kVoices && lane < 0; ++l)
        if (!sweep_[l].alive && !ring_.ringing[l] && !noise_[l].alive) lane = l;
    if (lane < 0) {
        lane = 0;
        for (int l = 1; l < kVoices; ++l)
            if (order_[l] < order_[lane]) lane = l;
    }
    order_[lane] = order;
    if (ring_.ringing[lane]) stopRinging(lane);
    const dsp::DrumRecipe r = dsp::DrumRecipe::forKey(key, sampleRate_);
    startSweep(sweep_[lane], r, gain, frame);
    startNoise(noise_[lane], r, gain, seed);
}

void DrumBank::startSweep(Sweep& t, const dsp::DrumRecipe& r, float gain, uint64_t frame) BOOP_RT {
    t.alive = r.toneAmp > 0.0f;
    resetEnvelope(t.env, r, gain);
    const double unitsPerHz = 4294967296.0 / sampleRate_;
    const double baseInc = static_cast<float>(r.baseHz * unitsPerHz);
    t.decay = r.toneDecay;
    t.omega = 6.283185307179586 * baseInc / 4294967296.0;
    // The sweep's increment at frame m is sweep * d^m: k frames of it add sweep * sum(d^m, m < k).
    const double d = r.sweepDecay;
    const double sweep = r.sweepHz * unitsPerHz;
    t.sweepLeftPerSweep = sweep == 0.0 ? 0.0f : d < 1.0 ? static_cast<float>(1.0 / (1.0 - d)) : 1e30f;
    double sum = 0.0, dk = 1.0, level = 1.0;
    for (int k = 0; k < 8; ++k) {
        t.baseSteps[k] = static_cast<uint32_t>(static_cast<uint64_t>(std::llround(k * baseInc)));
        t.sweepSums[k] = static_cast<float>(sum);
        t.powers[k] = static_cast<float>(level);
        sum += dk;
        dk *= d;
        level *= r.toneDecay;
    }
    t.base8 = static_cast<uint32_t>(static_cast<uint64_t>(std::llround(8 * baseInc)));
    t.sweepSum8 = static_cast<float>(sum);
    t.sweepDecay8 = static_cast<float>(dk);
    t.decay8 = static_cast<float>(level);
    // The group the hit falls in began `offset` frames earlier: the state there is the hit's,
    // taken back that many frames, so that the hit's own first frame has phase 0 and its level.
    const uint32_t h = static_cast<uint32_t>(frame & 7u);
    t.offset = h;
    if (t.alive) {
        t.sweep = static_cast<float>(sweep / std::pow(d, static_cast<double>(h)));
        t.amp = r.toneAmp / t.powers[h];
        t.phase = 0u - (t.baseSteps[h] + static_cast<uint32_t>(static_cast<int32_t>(t.sweep * t.sweepSums[h])));
    }
}

void DrumBank::startNoise(Noise& v, const dsp::DrumRecipe& r, float gain, uint32_t seed) BOOP_RT {
    v.table = tables_.table(r.kind);
    v.alive = v.table != nullptr && r.noiseAmp > 0.0f;
    resetEnvelope(v.env, r, gain);
    v.start = tables_.start(seed);
    v.groupAmp = r.noiseAmp;
    float power = 1.0f;
    for (int k = 0; k < 8; ++k) {
        v.powers[k] = power;
        power *= r.noiseDecay;
    }
    v.decay8 = power;
    v.clapPeriod = r.clapPeriod;
    v.perPeriod = r.clapPeriod > 0 ? 1.0f / static_cast<float>(r.clapPeriod) : 0.0f;
}

void DrumBank::fadeAll(double seconds) BOOP_RT {
    const float step = 1.0f / static_cast<float>(std::max(1.0, seconds * sampleRate_));
    for (int l = 0; l < kVoices; ++l) {
        if (sweep_[l].alive && step > sweep_[l].env.fadeStep) sweep_[l].env.fadeStep = step;
        if (ring_.ringing[l] && step > ring_.fadeStep[l]) ring_.fadeStep[l] = step;
        if (noise_[l].alive && step > noise_[l].env.fadeStep) noise_[l].env.fadeStep = step;
    }
}

void DrumBank::render(float* mono, uint64_t clock, int begin, int end) BOOP_RT {
    // Sweeping tones first: those that begin to ring within the block join the ringing lanes at
    // their group boundary, so the ringing lanes are rendered in runs between those boundaries.
    int lanes[kVoices], at[kVoices], count = 0;
    for (int l = 0; l < kVoices; ++l) {
        if (!sweep_[l].alive) continue;
        bool ready = false;
        const int stop = kernels_->sweep(sweep_[l], mono, begin, end, ready);
        if (ready) {
            lanes[count] = l;
            at[count++] = stop;
        }
    }
    int pos = begin;
    for (int done = 0; done < count; ++done) {
        int next = done;
        for (int j = done + 1; j < count; ++j)
            if (at[j] < at[next]) next = j;
        std::swap(at[done], at[next]);
        std::swap(lanes[done], lanes[next]);
        renderRing(mono, clock, pos, at[done]);
        pos = at[done];
        startRinging(lanes[done]);
    }
    renderRing(mono, clock, pos, end);
    for (Noise& v : noise_)
        if (v.alive) kernels_->noise(v, mono, begin, end, tables_.mask());
}

// From the sweeping state at a group's first frame to the rotating complex level it stands for.
void DrumBank::startRinging(int lane) BOOP_RT {
    Sweep& v = sweep_[lane];
    Ring& r = ring_;
    const double theta = 6.283185307179586 * static_cast<int32_t>(v.phase) / 4294967296.0;
    const double level = static_cast<double>(v.amp) * v.env.gain;
    r.levelRe[lane] = level * std::cos(theta);
    r.levelIm[lane] = level * std::sin(theta);
    r.re[lane] = static_cast<float>(r.levelRe[lane]);
    r.im[lane] = static_cast<float>(r.levelIm[lane]);
    double re = 1.0, im = 0.0;
    const double stepRe = v.decay * std::cos(v.omega), stepIm = v.decay * std::sin(v.omega);
    for (int k = 0; k < 8; ++k) {
        r.turnRe[k][lane] = static_cast<float>(re);
        r.turnIm[k][lane] = static_cast<float>(im);
        const double nextRe = re * stepRe - im * stepIm;
        im = re * stepIm + im * stepRe;
        re = nextRe;
    }
    r.stepRe[lane] = re;
    r.stepIm[lane] = im;
    r.level[lane] = v.amp;
    r.decay8[lane] = v.decay8;
    r.fadeGain[lane] = 1.0f;
    r.fadeStep[lane] = 0.0f;
    r.ringing[lane] = -1;
    ++ringing_;
    v.alive = false;
}

void DrumBank::stopRinging(int lane) BOOP_RT {
    Ring& r = ring_;
    r.levelRe[lane] = r.levelIm[lane] = 0.0;
    r.re[lane] = r.im[lane] = r.level[lane] = 0.0f;
    r.ringing[lane] = 0;
    --ringing_;
}

void DrumBank::renderRing(float* mono, uint64_t clock, int begin, int end) BOOP_RT {
    if (ringing_ == 0 || begin >= end) return;
    bool fading = false;
    for (int l = 0; l < kVoices; ++l) fading |= ring_.ringing[l] && ring_.fadeStep[l] > 0.0f;
    const uint32_t ended = kernels_->ring[fading](ring_, mono, clock, begin, end);
    ringing_ -= __builtin_popcount(ended);
}

}  // namespace boop
