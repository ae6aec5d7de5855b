// The mix: the grains the sources feed, the dry bus (the sources and their echo), the reverb, and
// the master stage (fades, loudness normalisation, the limiter and the clipper).
#include "ambient/AmbientEngine.hpp"

#include <cmath>
#include "dsp/OnePole.hpp"

namespace boop::ambient {

namespace {
float energy(const float* a, const float* b, int n) BOOP_RT;
}  // namespace

// The grains the sources feed, the dry mix, the reverb and the master stage, for frames
// [at, at + n) of a stretch.
void AmbientEngine::mix(const Sources& s, int at, float* out, int n) BOOP_RT {
    float l[kChunk], r[kChunk];
    mixWet(s, at, l, r, n);
    master(l, r, out, n);
}

// mix() up to the master stage.
void AmbientEngine::mixWet(const Sources& s, int at, float* l, float* r, int n) BOOP_RT {
    if (at == 0) grains_.setGrain(cfg_.grain_seconds, s.mix.grainDensity);
    const float *padL = s.padL + at, *padR = s.padR + at, *lead = s.lead + at;
    for (int i = 0; i < n; ++i) grainIn_[i] = 0.35f * (padL[i] + padR[i]) + 0.5f * lead[i];
    grains_.process(grainIn_, grL_, grR_, n);
    // The ocean's samples depend only on how many frames it has made: made here or with the
    // sources (oceanWithSources_), they are the same.
    if (!oceanWithSources_) ocean_.process(ocL_, ocR_, n);
    mixDry(s, at, n);
    reverb_.process(dryL_, dryR_, rvL_, rvR_, n);
    const float mix = cfg_.reverb_mix;
    const float dryGain = 1.0f - 0.6f * mix, wetGain = 1.2f * mix;
    const float masterGain = cfg_.master_gain;
    sums_[4] += 0.5 * energy(rvL_, rvR_, n);
    for (int i = 0; i < n; ++i) {
        l[i] = (dryL_[i] * dryGain + rvL_[i] * wetGain) * masterGain;
        r[i] = (dryR_[i] * dryGain + rvR_[i] * wetGain) * masterGain;
    }
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
    const float padLevel = s.mix.padLevel, leadLevel = s.mix.leadLevel, grainLevel = s.mix.grainLevel,
                oceanLevel = s.mix.oceanLevel;
    const float *padL = s.padL + at, *padR = s.padR + at, *lead = s.lead + at, *grL = grL_, *grR = grR_;
    const float* ocL = oceanWithSources_ ? s.ocL + at : ocL_;
    const float *ocR = oceanWithSources_ ? s.ocR + at : ocR_, *dlL = s.dlL + at, *dlR = s.dlR + at;
    // Pan glides (~5 ms) so a retrigger under a ringing note never steps a channel's gain.
    float panL[kChunk], panR[kChunk];
    float pl = panL_, pr = panR_;
    // Most of the time a glide has arrived: its next step leaves it where it is, and so does
    // every step after (the same inputs), so the block is that value without the recursion.
    float nl = pl, nr = pr;
    dsp::onePole(nl, s.mix.leadPanL, panGlide_);
    dsp::onePole(nr, s.mix.leadPanR, panGlide_);
    if (nl == pl && nr == pr) {
        for (int i = 0; i < n; ++i) {
            panL[i] = pl;
            panR[i] = pr;
        }
    } else {
        for (int i = 0; i < n; ++i) {
            panL[i] = dsp::onePole(pl, s.mix.leadPanL, panGlide_);
            panR[i] = dsp::onePole(pr, s.mix.leadPanR, panGlide_);
        }
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

// The fades, the loudness normalisation and the limiter over the dry and reverberated sound (l,
// r; overwritten), in passes over the block: the gains (frame by frame only while a fade moves),
// then the levels, then the limiter's envelope (the one recursion), then its gain and the clipper.
void AmbientEngine::master(float* l, float* r, float* out, int n) BOOP_RT {
    float gain[kChunk];
    if (fadeIn_ >= 1.0 && fade_ == fadeTarget_)
        steadyGains(l, r, gain, n);
    else
        rampGains(l, r, gain, n);
    limit(l, r, gain, out, n);
}

// No fade moving: one gain for the block, times the normaliser's. The level is measured in
// steady state only: fades are the listener's, not the music's.
void AmbientEngine::steadyGains(const float* l, const float* r, float* gain, int n) BOOP_RT {
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
}

// A fade-in, pause, resume or fade-out moving: the gains frame by frame.
void AmbientEngine::rampGains(const float* l, const float* r, float* gain, int n) BOOP_RT {
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

namespace {

// The limiter's envelope followed over the block and its gain and the clipper applied.
void followAndClip(dsp::SoftLimiter& limiter, const float* l, const float* r, float* peak, float* out, int n) BOOP_RT {
    limiter.follow(peak, n);
    for (int i = 0; i < n; ++i) {
        const float g = limiter.gainFor(peak[i]);
        out[2 * i] = dsp::SoftClipper::cubic(l[i] * g);
        out[2 * i + 1] = dsp::SoftClipper::cubic(r[i] * g);
    }
}

// Whether the envelope and every peak of the block are at or under the threshold.
bool underThreshold(const dsp::SoftLimiter& limiter, const float* peak, int n) BOOP_RT {
    float m = limiter.env;
    for (int i = 0; i < n; ++i) m = peak[i] > m ? peak[i] : m;
    return m <= limiter.threshold;
}

}  // namespace

// The gains applied (anything not finite becomes silence, and resets the effects), then the
// limiter and the clipper into the interleaved output.
void AmbientEngine::limit(float* l, float* r, const float* gain, float* out, int n) BOOP_RT {
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
    if (underThreshold(limiter_, peak, n)) {
        // The envelope stays at or under the threshold, where the gain is exactly 1: the
        // clipper alone. What the envelope is under the threshold never shows (the next peak
        // over it sets it to that peak whatever it was), so any value there serves.
        limiter_.env = limiter_.threshold;
        for (int i = 0; i < n; ++i) {
            out[2 * i] = dsp::SoftClipper::cubic(l[i]);
            out[2 * i + 1] = dsp::SoftClipper::cubic(r[i]);
        }
    } else {
        followAndClip(limiter_, l, r, peak, out, n);
    }
    if (bad) {
        // Never expected; if it happens the feedback paths must not keep recirculating it (the
        // echo, made with the sources, has its own guard: AmbientEngine::renderOceanAndEcho).
        ++nonfinite_;
        reverb_.reset();
        grains_.reset();
        limiter_.reset();
    }
}

}  // namespace boop::ambient
