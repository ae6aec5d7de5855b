#pragma once
// YIN fundamental-frequency estimator (A. de Cheveigné and H. Kawahara, "YIN, a fundamental
// frequency estimator for speech and music", JASA 111(4), 2002).
//
// Steps as in the paper: (2) difference function d(τ), (3) cumulative-mean-normalised
// difference d'(τ), (4) absolute threshold — the first dip of d' below the threshold, followed
// down to its local minimum, (5) interpolation of the dip: parabolic for well-sampled dips,
// generalised to a three-point cosine fit (exact for a sinusoid; it tends to the parabola as the
// period grows) because at high pitches a period spans only a few samples. Unvoiced (frequency 0) in silence, when
// no dip falls below the threshold, or when the period lies outside [minHz, maxHz]; also when
// the signal fills only part of the window (a quarter of it 30 dB below the loudest quarter):
// at a tone's onset the paper's steps give a confident pitch octaves too high.
//
// Two engineering choices:
//  - d(τ) is computed from an FFT cross-correlation and prefix sums of x² (O(N log N) instead of
//    O(W·τmax)): d(τ) = Σx_j² + Σx_{j+τ}² − 2 Σ x_j x_{j+τ}, in double so the dips of a clean
//    tone are not lost in rounding.
//  - after the paper's estimate T, the dip nearest m·T (m = 2, 4, 8, … while it fits in the lag
//    range) is located and interpolated too, and T = τ_m / m. The interpolation error of one dip
//    is shared by m periods, which is what makes sub-cent accuracy possible at high pitches
//    (4 kHz at 16 kHz is a 4-sample period). A refinement is only taken when that dip is as deep
//    as the first, so vibrato or noise fall back to the paper's estimate.
#include <complex>
#include <cstdint>
#include <vector>

#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// One dip of d'(τ) after process(): its interpolated period (samples) and depth d' there.
struct YinCandidate {
    double period = 0.0;
    double depth = 1.0;
    uint32_t lag = 0;  // the dip's integer lag
};

struct YinResult {
    double frequency = 0.0;   // Hz; 0 = unvoiced
    double confidence = 0.0;  // 1 − d'(T), in [0, 1]
};

class Yin {
  public:
    // Allocates everything (FFT tables and work buffers) for windows of up to windowSize frames.
    // The lag range is windowSize/2, so the lowest detectable pitch is 2·sampleRate/windowSize.
    void prepare(double sampleRate, uint32_t windowSize);

    // Pitch range (Hz) searched; clamped to what the window allows. Default 40 Hz … sampleRate/4.
    void setRange(double minHz, double maxHz) noexcept;
    // The absolute threshold on d' (default 0.12; the paper suggests 0.10–0.15).
    void setThreshold(double threshold) noexcept { threshold_ = threshold; }
    // Below this RMS level (dBFS) the result is unvoiced (default −60 dBFS).
    void setSilenceThreshold(double dbfs) noexcept;
    double sampleRate() const noexcept { return sampleRate_; }

    // Estimates the pitch of the last min(n, windowSize) samples. Never allocates.
    YinResult process(const float* samples, uint32_t n) BOOP_RT;

    // After process(): the dips of d' in the pitch range, by increasing lag, each deeper than
    // every dip before it (only those can be "the first dip below a threshold" for some
    // threshold, the candidates of probabilistic YIN). None for a silent or onset window.
    // Returns how many were written to out (at most max).
    uint32_t candidates(YinCandidate* out, uint32_t max) const BOOP_RT;
    // After process(): a candidate's period refined as process() refines its own (band-limited
    // polish, then the dips at 2T, 4T, ...); returns the frequency in Hz.
    double refinedFrequency(const YinCandidate& candidate) const BOOP_RT;

  private:
    // The steps of process(), in order.
    // false when silent, or when a quarter of the window is 30 dB below the loudest (an onset).
    bool loadWindow(const float* samples, uint32_t m) BOOP_RT;
    static constexpr double kMinQuarterRatio = 1e-3;
    void differenceFunction(uint32_t m, uint32_t W, uint32_t tauMax) BOOP_RT;
    static constexpr uint32_t kAboveRange = 0xFFFFFFFFu;
    // The first dip below the threshold: its lag, 0 when there is none, kAboveRange when it lies
    // above the pitch range.
    uint32_t firstDip(uint32_t tauMin, uint32_t tauHi, double& best) const BOOP_RT;
    double refinedPeriod(uint32_t tau, uint32_t W, uint32_t tauMax, double& depth) const BOOP_RT;
    double dipDepth(uint32_t t, double period) const BOOP_RT;

    void fft(std::complex<double>* data, bool inverse) BOOP_RT;
    double interpolatedMinimum(uint32_t tau, uint32_t maxTau, double period) const BOOP_RT;
    uint32_t localMinimumNear(double center, uint32_t radius, uint32_t maxTau) const BOOP_RT;
    void evalFractional(double tau, uint32_t W, double& d, double& d1, double& d2) const BOOP_RT;
    double polishMinimum(double tau, uint32_t W, uint32_t tauMax) const BOOP_RT;

    // The last process()'s window: W, τmax and the searched lags; valid = d' was computed.
    uint32_t lastW_ = 0, lastTauMax_ = 0, lastTauMin_ = 0, lastTauHi_ = 0;
    bool lastValid_ = false;

    double sampleRate_ = 16000.0;
    uint32_t windowSize_ = 0;
    uint32_t fftSize_ = 0;
    uint32_t log2Fft_ = 0;
    double minHz_ = 40.0, maxHz_ = 4000.0;
    double requestedMinHz_ = 40.0, requestedMaxHz_ = -1.0;
    double threshold_ = 0.12;
    double silencePower_ = 1e-6;  // mean square, −60 dBFS

    std::vector<std::complex<double>> twiddles_;  // e^{-2πik/N}, k < N/2
    std::vector<uint32_t> bitReverse_;
    std::vector<std::complex<double>> work_;
    std::vector<std::complex<double>> spectrum_;
    std::vector<std::complex<double>> crossSpectrum_;  // conj(A)·B, kept for fractional lags
    std::vector<double> x_;
    std::vector<double> prefix_;  // prefix sums of x²
    std::vector<double> diff_;    // d(τ)
    std::vector<double> cmnd_;    // d'(τ)
};

}  // namespace dsp
}  // namespace boop
