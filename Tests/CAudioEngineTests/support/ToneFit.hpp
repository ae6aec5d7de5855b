#pragma once
// Precise frequency measurement for the tone-accuracy tests: a least-squares sinusoid fit
// (Gauss-Newton on frequency, linear in amplitude and offset). On a clean sine it resolves far
// below 1e-6 cent, so what the tests measure is the engine, not the estimator.
#include <cmath>
#include <cstddef>
#include <vector>

namespace tonefit {

struct Fit {
    double frequency = 0;  // Hz
    double amplitude = 0;
    double residualRms = 0;  // what the model leaves (harmonic distortion + rounding)
    int iterations = 0;
};

namespace detail {
// Solves the symmetric n x n system m * x = v in place (Gaussian elimination, partial pivoting).
template <int N>
inline bool solve(double (&m)[N][N], double (&v)[N]) {
    for (int c = 0; c < N; ++c) {
        int p = c;
        for (int r = c + 1; r < N; ++r)
            if (std::fabs(m[r][c]) > std::fabs(m[p][c])) p = r;
        if (m[p][c] == 0.0) return false;
        if (p != c) {
            for (int k = 0; k < N; ++k) std::swap(m[c][k], m[p][k]);
            std::swap(v[c], v[p]);
        }
        for (int r = c + 1; r < N; ++r) {
            const double f = m[r][c] / m[c][c];
            for (int k = c; k < N; ++k) m[r][k] -= f * m[c][k];
            v[r] -= f * v[c];
        }
    }
    for (int c = N - 1; c >= 0; --c) {
        double s = v[c];
        for (int k = c + 1; k < N; ++k) s -= m[c][k] * v[k];
        v[c] = s / m[c][c];
    }
    return true;
}
}  // namespace detail

// Fits x[n] ~ a cos(w t) + b sin(w t) + d over [begin, end) with t = n - centre, starting from
// `guessHz` (which must be within a fraction of a bin: 1 / (end - begin) cycles per sample).
template <typename Sample>
inline Fit fitSine(const std::vector<Sample>& x, double rate, size_t begin, size_t end, double guessHz,
                   size_t stride = 1) {
    const double centre = 0.5 * double(begin + end - 1);
    double w = 2.0 * M_PI * guessHz / rate;
    double a = 0, b = 0, d = 0;
    Fit fit;
    for (int it = 0; it < 12; ++it) {
        // Basis: cos, sin, 1, and the frequency derivative t * (-a sin + b cos) (a, b from the
        // previous pass; the first pass estimates them with the derivative column left out).
        constexpr int K = 4;
        double m[K][K] = {}, v[K] = {};
        const bool withFrequency = it > 0;
        for (size_t n = begin; n < end; n += stride) {
            const double t = double(n) - centre;
            const double c = std::cos(w * t), s = std::sin(w * t);
            const double g[K] = {c, s, 1.0, withFrequency ? t * (-a * s + b * c) : 0.0};
            const double y = double(x[n]);
            for (int i = 0; i < K; ++i) {
                v[i] += g[i] * y;
                for (int j = 0; j < K; ++j) m[i][j] += g[i] * g[j];
            }
        }
        if (!withFrequency) {
            m[3][3] = 1.0;
            v[3] = 0.0;
        }
        if (!detail::solve(m, v)) break;
        a = v[0];
        b = v[1];
        d = v[2];
        const double dw = v[3];
        w += dw;
        fit.iterations = it + 1;
        if (withFrequency && std::fabs(dw) < 1e-13 * std::fabs(w)) break;
    }
    double r2 = 0;
    size_t count = 0;
    for (size_t n = begin; n < end; n += stride) {
        const double t = double(n) - centre;
        const double e = double(x[n]) - (a * std::cos(w * t) + b * std::sin(w * t) + d);
        r2 += e * e;
        ++count;
    }
    fit.frequency = w * rate / (2.0 * M_PI);
    fit.amplitude = std::hypot(a, b);
    fit.residualRms = std::sqrt(r2 / double(count));
    return fit;
}

inline double cents(double measured, double expected) { return 1200.0 * std::log2(measured / expected); }

}  // namespace tonefit
