#include "dsp/DrumRecipe.hpp"
#include <algorithm>
#include <cmath>

#include "dsp/OnePole.hpp"

namespace boop {
namespace dsp {

namespace {

// Keys 35 ... 50 of the General MIDI drum map; below them a kick, above them the crash/ride
// family (49 and 51 ... 81).
using K = DrumRecipe::Kind;
constexpr K kGeneralMidiKinds[] = {K::Kick, K::Kick,      K::Rim,    K::Snare,     K::Clap, K::Snare,
                                   K::Tom,  K::ClosedHat, K::Tom,    K::ClosedHat, K::Tom,  K::OpenHat,
                                   K::Tom,  K::Tom,       K::Cymbal, K::Tom};
constexpr uint32_t kFirstKey = 35;

}  // namespace

DrumRecipe::Kind DrumRecipe::kindForKey(uint32_t key) BOOP_RT {
    if (key < kFirstKey) return K::Kick;
    const uint32_t i = key - kFirstKey;
    return i < sizeof kGeneralMidiKinds / sizeof kGeneralMidiKinds[0] ? kGeneralMidiKinds[i] : K::Cymbal;
}

namespace {

// Each kind's recipe, in seconds and hertz: decay times are 1/e times; 0 means "no such part".
struct KindRecipe {
    double baseHz, sweepHz, sweepSeconds;
    float toneAmp;
    double toneSeconds;
    float noiseAmp;
    double noiseSeconds, cutoffHz;
    bool highpass;
    double clapSeconds;  // between a clap's re-strikes
};

constexpr KindRecipe kKinds[] = {
    /* Kick      */ {48.0, 110.0, 0.030, 1.0f, 0.28, 0.08f, 0.004, 3000.0, false, 0.0},
    /* Snare     */ {185.0, 40.0, 0.020, 0.45f, 0.06, 0.6f, 0.11, 1500.0, true, 0.0},
    /* Rim       */ {820.0, 0.0, 0.0, 0.5f, 0.012, 0.3f, 0.008, 2500.0, true, 0.0},
    /* Clap      */ {50.0, 0.0, 0.0, 0.0f, 0.0, 0.7f, 0.09, 1200.0, true, 0.011},
    /* Tom       */ {80.0, 0.0, 0.04, 0.85f, 0.22, 0.0f, 0.0, 2000.0, false, 0.0},  // pitch set per key
    /* ClosedHat */ {50.0, 0.0, 0.0, 0.0f, 0.0, 0.4f, 0.035, 7000.0, true, 0.0},
    /* OpenHat   */ {50.0, 0.0, 0.0, 0.0f, 0.0, 0.35f, 0.22, 7000.0, true, 0.0},
    /* Cymbal    */ {50.0, 0.0, 0.0, 0.0f, 0.0, 0.3f, 0.7, 5000.0, true, 0.0},
};

}  // namespace

DrumRecipe DrumRecipe::forKey(uint32_t key, double rate) BOOP_RT {
    // Amplitude falls by 1/e every `seconds`.
    auto decay = [rate](double seconds) { return seconds > 0.0 ? onePoleRetention(seconds, rate) : 1.0; };
    DrumRecipe r;
    r.kind = kindForKey(key);
    const KindRecipe& k = kKinds[static_cast<int>(r.kind)];
    r.rampInFrames = static_cast<uint32_t>(0.001 * rate) + 1;
    r.baseHz = k.baseHz;
    r.sweepHz = k.sweepHz;
    if (r.kind == Kind::Tom) {
        // Low tom 41 at 80 Hz up to high tom 50 at 145 Hz (80 * 2^(9 / 10.5)), each swept down from 1.6
        // times its pitch.
        r.baseHz = k.baseHz * std::pow(2.0, (static_cast<double>(key) - 41.0) / 10.5);
        r.sweepHz = r.baseHz * 0.6;
    }
    r.sweepDecay = decay(k.sweepSeconds);
    r.toneAmp = k.toneAmp;
    r.toneDecay = k.toneAmp > 0.0f ? float(decay(k.toneSeconds)) : 0.0f;
    r.noiseAmp = k.noiseAmp;
    r.noiseDecay = k.noiseAmp > 0.0f ? float(decay(k.noiseSeconds)) : 0.0f;
    // Kept under 0.4 of the rate, so the filter stays well-conditioned at low rates.
    r.noiseCutoffHz = std::min(k.cutoffHz, rate * 0.4);
    r.noiseHighpass = k.highpass;
    r.clapPeriod = static_cast<uint32_t>(k.clapSeconds * rate);
    return r;
}

}  // namespace dsp
}  // namespace boop
