#include "dsp/Yin.hpp"

#include <algorithm>
#include <cmath>

namespace boop {
namespace dsp {

namespace {
// Plain complex products: std::complex's operator* calls __muldc3 for C99 Inf/NaN rules,
// several times slower in the FFT's inner loop.
inline std::complex<double> mul(std::complex<double> a, std::complex<double> b) noexcept {
    return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// Around a dip of a periodic signal with period T, d(τ) ≈ c − A·cos(ω(τ − τ0)), ω = 2π/T. Given
// three samples y(−1) = a, y(0) = b, y(1) = c this solves for the dip's offset τ0 and its depth
// c − A exactly. As ω → 0 it becomes the paper's parabolic interpolation; at high pitches, where
// a period spans a handful of samples, the parabola is badly biased and this is not.
struct Dip {
    double offset;  // in [−1, 1] relative to the middle sample
    double depth;   // the model's minimum value
};

inline Dip cosineDip(double a, double b, double c, double omega) noexcept {
    const double curv = a + c - 2.0 * b;  // = 2·A·cosφ·(1 − cos ω)
    if (!(curv > 0.0)) return {0.0, b};
    if (!(omega > 1e-6 && omega < 3.0)) {
        const double off = 0.5 * (a - c) / curv;
        const double v = b - (a - c) * (a - c) / (8.0 * curv);
        return {std::clamp(off, -1.0, 1.0), v < 0.0 ? 0.0 : v};
    }
    const double acos_ = curv / (2.0 * (1.0 - std::cos(omega)));  // A·cos φ
    const double asin_ = (a - c) / (2.0 * std::sin(omega));       // A·sin φ
    const double phi = std::atan2(asin_, acos_);
    const double amp = std::sqrt(acos_ * acos_ + asin_ * asin_);
    const double off = phi / omega;
    const double v = b + acos_ - amp;
    return {std::clamp(off, -1.0, 1.0), v < 0.0 ? 0.0 : v};
}
}  // namespace

void Yin::prepare(double sampleRate, uint32_t windowSize) {
    sampleRate_ = sampleRate;
    windowSize_ = std::max<uint32_t>(64, windowSize & ~1u);
    // The correlation needs N ≥ W + τmax = windowSize without circular wrap-around.
    fftSize_ = 1;
    log2Fft_ = 0;
    while (fftSize_ < windowSize_) {
        fftSize_ <<= 1;
        ++log2Fft_;
    }
    twiddles_.resize(fftSize_ / 2);
    for (uint32_t k = 0; k < fftSize_ / 2; ++k) {
        const double a = -2.0 * M_PI * double(k) / double(fftSize_);
        twiddles_[k] = {std::cos(a), std::sin(a)};
    }
    bitReverse_.resize(fftSize_);
    for (uint32_t i = 0; i < fftSize_; ++i) {
        uint32_t r = 0;
        for (uint32_t b = 0; b < log2Fft_; ++b) r |= ((i >> b) & 1u) << (log2Fft_ - 1 - b);
        bitReverse_[i] = r;
    }
    work_.assign(fftSize_, {});
    spectrum_.assign(fftSize_, {});
    crossSpectrum_.assign(fftSize_, {});
    x_.assign(windowSize_, 0.0);
    prefix_.assign(windowSize_ + 1, 0.0);
    diff_.assign(windowSize_ / 2 + 1, 0.0);
    cmnd_.assign(windowSize_ / 2 + 1, 1.0);
    setRange(requestedMinHz_, requestedMaxHz_);
}

void Yin::setRange(double minHz, double maxHz) noexcept {
    requestedMinHz_ = minHz;
    requestedMaxHz_ = maxHz;
    const double lowest = windowSize_ > 0 ? sampleRate_ / double(windowSize_ / 2 - 1) : 20.0;
    const double highest = sampleRate_ / 3.0;
    minHz_ = std::max(minHz > 0 ? minHz : 40.0, lowest);
    maxHz_ = std::min(maxHz > 0 ? maxHz : sampleRate_ / 4.0, highest);
    if (maxHz_ < minHz_) maxHz_ = minHz_;
}

void Yin::setSilenceThreshold(double dbfs) noexcept {
    // RMS in dBFS → mean square.
    silencePower_ = std::pow(10.0, dbfs / 10.0);
}

void Yin::fft(std::complex<double>* data, bool inverse) BOOP_RT {
    const uint32_t n = fftSize_;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t r = bitReverse_[i];
        if (r > i) std::swap(data[i], data[r]);
    }
    for (uint32_t len = 2; len <= n; len <<= 1) {
        const uint32_t half = len >> 1;
        const uint32_t step = n / len;
        for (uint32_t start = 0; start < n; start += len) {
            for (uint32_t k = 0; k < half; ++k) {
                std::complex<double> w = twiddles_[k * step];
                if (inverse) w = std::conj(w);
                const std::complex<double> u = data[start + k];
                const std::complex<double> t = mul(w, data[start + k + half]);
                data[start + k] = u + t;
                data[start + k + half] = u - t;
            }
        }
    }
}

// The interpolated position of the dip of d around τ (on the raw difference: its dips are
// symmetric, the normalised d' is tilted by the cumulative mean). period = current estimate.
double Yin::interpolatedMinimum(uint32_t tau, uint32_t maxTau, double period) const BOOP_RT {
    if (tau < 1 || tau + 1 > maxTau) return double(tau);
    const double omega = 2.0 * M_PI / period;
    return double(tau) + cosineDip(diff_[tau - 1], diff_[tau], diff_[tau + 1], omega).offset;
}

// The lag of the smallest d within ±radius of center, if it is a true local minimum; else 0.
uint32_t Yin::localMinimumNear(double center, uint32_t radius, uint32_t maxTau) const BOOP_RT {
    const long c = static_cast<long>(center + 0.5);
    const long lo = std::max<long>(1, c - long(radius));
    const long hi = std::min<long>(long(maxTau) - 1, c + long(radius));
    if (lo > hi) return 0;
    long best = lo;
    for (long t = lo + 1; t <= hi; ++t)
        if (diff_[t] < diff_[best]) best = t;
    if (best <= 1 || best + 1 > long(maxTau)) return 0;
    if (!(diff_[best] <= diff_[best - 1] && diff_[best] <= diff_[best + 1])) return 0;
    return static_cast<uint32_t>(best);
}

// d(τ) and its first two derivatives at a fractional lag: r(τ) by evaluating the inverse DFT of
// the cross-spectrum at τ (band-limited interpolation), the energy term by interpolating x².
void Yin::evalFractional(double tau, uint32_t W, double& d, double& d1, double& d2) const BOOP_RT {
    const uint32_t N = fftSize_;
    const double theta = 2.0 * M_PI * tau / double(N);
    const double cw = std::cos(theta), sw = std::sin(theta);
    double er = 1.0, ei = 0.0;  // e^{iθk}
    double r = crossSpectrum_[0].real(), r1 = 0.0, r2 = 0.0;
    const double kScale = 2.0 * M_PI / double(N);
    for (uint32_t k = 1; k < N / 2; ++k) {
        const double nr = er * cw - ei * sw;
        ei = er * sw + ei * cw;
        er = nr;
        const std::complex<double> R = crossSpectrum_[k];
        const double re = R.real() * er - R.imag() * ei;  // Re(R e^{iθk})
        const double im = R.real() * ei + R.imag() * er;  // Im(R e^{iθk})
        const double w = kScale * double(k);
        r += 2.0 * re;
        r1 -= 2.0 * w * im;
        r2 -= 2.0 * w * w * re;
    }
    const double invN = 1.0 / double(N);
    r *= invN;
    r1 *= invN;
    r2 *= invN;
    // Energy of x over [τ, τ+W): linear in the fractional part between integer lags.
    const double t0 = std::floor(tau);
    const uint32_t i0 = static_cast<uint32_t>(t0);
    const double frac = tau - t0;
    const double ea = prefix_[i0 + W] - prefix_[i0];
    const double eb = prefix_[i0 + 1 + W] - prefix_[i0 + 1];
    const double e = ea + frac * (eb - ea);
    d = prefix_[W] + e - 2.0 * r;
    d1 = (eb - ea) - 2.0 * r1;
    d2 = -2.0 * r2;
}

// Newton steps on the band-limited d(τ) from `tau`; stays within half a sample of the start.
double Yin::polishMinimum(double tau, uint32_t W, uint32_t tauMax) const BOOP_RT {
    const double start = tau;
    for (int it = 0; it < 4; ++it) {
        if (tau < 1.0 || tau + 1.0 > double(tauMax)) return start;
        double d, d1, d2;
        evalFractional(tau, W, d, d1, d2);
        if (!(d2 > 0.0)) return start;
        const double step = d1 / d2;
        tau -= std::clamp(step, -0.25, 0.25);
        if (std::fabs(tau - start) > 0.5) return start;
        if (std::fabs(step) < 1e-7) break;
    }
    return tau;
}

YinResult Yin::process(const float* samples, uint32_t n) BOOP_RT {
    YinResult result;
    lastValid_ = false;
    if (windowSize_ == 0 || samples == nullptr) return result;
    const uint32_t m = std::min(n, windowSize_) & ~1u;
    if (m < 32) return result;
    const uint32_t W = m / 2;
    const uint32_t tauMax = m - W;
    if (!loadWindow(samples + (n - m), m)) return result;  // silence (or NaN)
    differenceFunction(m, W, tauMax);

    const uint32_t tauMin = std::max<uint32_t>(2, static_cast<uint32_t>(std::floor(sampleRate_ / maxHz_)));
    const uint32_t tauHi = std::min<uint32_t>(tauMax - 1, static_cast<uint32_t>(std::ceil(sampleRate_ / minHz_)));
    if (tauMin + 1 >= tauHi) return result;
    lastW_ = W;
    lastTauMax_ = tauMax;
    lastTauMin_ = tauMin;
    lastTauHi_ = tauHi;
    lastValid_ = true;

    double best = 1.0;
    const uint32_t tau = firstDip(tauMin, tauHi, best);
    if (tau == kAboveRange) return result;  // a pitch above the range: unvoiced
    if (tau == 0) {
        result.confidence = std::clamp(1.0 - best, 0.0, 1.0);
        return result;  // no dip below the threshold: unvoiced
    }
    double depth = 1.0;
    const double period = refinedPeriod(tau, W, tauMax, depth);
    const double f = sampleRate_ / period;
    result.confidence = std::clamp(1.0 - depth, 0.0, 1.0);
    if (!(f >= minHz_ * 0.97 && f <= maxHz_ * 1.03)) return result;
    result.frequency = f;
    return result;
}

bool Yin::loadWindow(const float* s, uint32_t m) BOOP_RT {
    double power = 0.0;
    prefix_[0] = 0.0;
    for (uint32_t i = 0; i < m; ++i) {
        const double v = s[i];
        x_[i] = v;
        power += v * v;
        prefix_[i + 1] = prefix_[i] + v * v;
    }
    if (!(power / double(m) >= silencePower_)) return false;
    // A window only partly filled with signal (a tone's onset, or its end, inside it) has no
    // period to find: with the first half silent, d(τ) is just the energy entering the lagged
    // frame and d' dips at a short lag, a confident pitch octaves above the tone (a C7 at an A4's
    // onset). Each quarter must carry signal within 30 dB of the loudest one.
    double loudest = 0.0, quietest = HUGE_VAL;
    for (uint32_t q = 0; q < 4; ++q) {
        const double e = prefix_[(q + 1) * m / 4] - prefix_[q * m / 4];
        loudest = std::max(loudest, e);
        quietest = std::min(quietest, e);
    }
    return quietest >= loudest * kMinQuarterRatio;
}

void Yin::differenceFunction(uint32_t m, uint32_t W, uint32_t tauMax) BOOP_RT {
    // Cross-correlation r(τ) = Σ_{j<W} x_j x_{j+τ}: both real sequences in one complex FFT
    // (a = first W samples, b = all m samples), then R = conj(A)·B, r = IFFT(R).
    const uint32_t N = fftSize_;
    for (uint32_t i = 0; i < N; ++i) {
        const double a = i < W ? x_[i] : 0.0;
        const double b = i < m ? x_[i] : 0.0;
        work_[i] = {a, b};
    }
    fft(work_.data(), false);
    for (uint32_t k = 0; k < N; ++k) {
        const std::complex<double> z = work_[k];
        const std::complex<double> zc = std::conj(work_[(N - k) & (N - 1)]);
        const std::complex<double> A{0.5 * (z.real() + zc.real()), 0.5 * (z.imag() + zc.imag())};
        // B = (z − zc) / 2i
        const std::complex<double> B{0.5 * (z.imag() - zc.imag()), -0.5 * (z.real() - zc.real())};
        spectrum_[k] = mul(std::conj(A), B);
    }
    std::copy(spectrum_.begin(), spectrum_.end(), crossSpectrum_.begin());
    fft(spectrum_.data(), true);

    const double e0 = prefix_[W];
    const double invN = 1.0 / double(N);
    for (uint32_t tau = 0; tau <= tauMax; ++tau) {
        const double et = prefix_[tau + W] - prefix_[tau];
        const double d = e0 + et - 2.0 * spectrum_[tau].real() * invN;
        diff_[tau] = d > 0.0 ? d : 0.0;
    }
    cmnd_[0] = 1.0;
    double running = 0.0;
    for (uint32_t tau = 1; tau <= tauMax; ++tau) {
        running += diff_[tau];
        cmnd_[tau] = running > 0.0 ? diff_[tau] * double(tau) / running : 1.0;
    }
}

double Yin::dipDepth(uint32_t t, double period) const BOOP_RT {
    return cosineDip(cmnd_[t - 1], cmnd_[t], cmnd_[t + 1], 2.0 * M_PI / period).depth;
}

uint32_t Yin::firstDip(uint32_t tauMin, uint32_t tauHi, double& best) const BOOP_RT {
    // Step 4 with the dip's interpolated depth: at high pitches a period spans only a few
    // samples, the integer lags straddle a narrow dip, and their d' alone would miss it and pick
    // the dip at 2T (an octave error).
    // The scan starts at lag 2, not at the range's shortest period: a first dip below the range
    // is a pitch above it, and must not let its dip at 2T pass for a pitch an octave lower.
    for (uint32_t t = 2; t <= tauHi; ++t) {
        const bool localMin = cmnd_[t] <= cmnd_[t - 1] && cmnd_[t] <= cmnd_[t + 1];
        const double depthHere = localMin ? dipDepth(t, double(t)) : cmnd_[t];
        if (t >= tauMin) best = std::min(best, depthHere);
        if (depthHere < threshold_) {
            while (t + 1 <= tauHi && cmnd_[t + 1] < cmnd_[t]) ++t;
            return t < tauMin ? kAboveRange : t;
        }
    }
    return 0;
}

double Yin::refinedPeriod(uint32_t tau, uint32_t W, uint32_t tauMax, double& depth) const BOOP_RT {
    double period = interpolatedMinimum(tau, tauMax, double(tau));
    period = interpolatedMinimum(tau, tauMax, period);  // once more with the better ω
    depth = dipDepth(tau, period);
    // Polish on the band-limited d(τ): its minimum is the period itself for any periodic
    // signal, whatever its harmonics (the cosine fit alone is biased when harmonics narrow the dip).
    period = polishMinimum(period, W, tauMax);
    // Then the dips at 2T, 4T ...: a residual error (noise) is shared by m periods.
    for (uint32_t mult = 2; double(mult) * period + 3.0 < double(tauMax) && mult <= 8; mult *= 2) {
        const uint32_t tm = localMinimumNear(double(mult) * period, 2, tauMax);
        if (tm == 0) break;
        if (dipDepth(tm, period) > std::max(threshold_, 2.0 * depth)) break;
        const double polished = polishMinimum(double(mult) * period, W, tauMax);
        if (std::fabs(polished - double(mult) * period) > 0.5) break;
        period = polished / double(mult);
    }
    return period;
}

uint32_t Yin::candidates(YinCandidate* out, uint32_t max) const BOOP_RT {
    if (!lastValid_ || out == nullptr) return 0;
    uint32_t count = 0;
    double lowest = HUGE_VAL;
    for (uint32_t t = std::max<uint32_t>(lastTauMin_, 2); t <= lastTauHi_ && count < max; ++t) {
        if (!(cmnd_[t] <= cmnd_[t - 1] && cmnd_[t] < cmnd_[t + 1])) continue;
        const double depth = dipDepth(t, double(t));
        if (!(depth < lowest)) continue;
        lowest = depth;
        double period = interpolatedMinimum(t, lastTauMax_, double(t));
        period = interpolatedMinimum(t, lastTauMax_, period);
        out[count++] = {period, depth, t};
    }
    return count;
}

double Yin::refinedFrequency(const YinCandidate& candidate) const BOOP_RT {
    const uint32_t tau = candidate.lag;
    if (!lastValid_ || tau < 2 || tau + 1 > lastTauMax_) return 0.0;
    double depth = 1.0;
    return sampleRate_ / refinedPeriod(tau, lastW_, lastTauMax_, depth);
}

}  // namespace dsp
}  // namespace boop
