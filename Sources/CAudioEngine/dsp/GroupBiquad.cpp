#include "dsp/GroupBiquad.hpp"

namespace boop {
namespace dsp {

GroupBiquad GroupBiquad::of(float a1, float a2) noexcept {
    // y[n] = x[n] + 2 x[n-1] + x[n-2] - a1 y[n-1] - a2 y[n-2] + u[n], run in double: the
    // response to a unit input x at frame 0 (the impulse response), and to a unit u added to the
    // sum at frame 0 and at frame 1 (how the state enters).
    auto response = [a1, a2](int input, int added, double(&out)[8]) {
        double xm2 = 0, xm1 = 0, ym2 = 0, ym1 = 0;
        for (int k = 0; k < 8; ++k) {
            const double x = k == input ? 1.0 : 0.0;
            const double u = k == added ? 1.0 : 0.0;
            const double y = x + 2.0 * xm1 + xm2 - static_cast<double>(a1) * ym1 - static_cast<double>(a2) * ym2 + u;
            out[k] = y;
            xm2 = xm1;
            xm1 = x;
            ym2 = ym1;
            ym1 = y;
        }
    };
    GroupBiquad g;
    g.a1 = a1;
    g.a2 = a2;
    double r[8];
    response(0, -1, r);
    float h[8];
    for (int k = 0; k < 8; ++k) h[k] = static_cast<float>(r[k]);
    for (int j = 0; j < 8; ++j)
        for (int k = 0; k < 8; ++k) g.column[j][k] = k >= j ? h[k - j] : 0.0f;
    response(-1, 0, r);
    for (int k = 0; k < 8; ++k) g.s1[k] = static_cast<float>(r[k]);
    response(-1, 1, r);
    for (int k = 0; k < 8; ++k) g.s2[k] = static_cast<float>(r[k]);
    for (int k = 0; k < 8; ++k) {
        g.hLanes[k] = simd::splat(h[k]);
        g.s1Lanes[k] = simd::splat(g.s1[k]);
        g.s2Lanes[k] = simd::splat(g.s2[k]);
    }
    return g;
}

}  // namespace dsp
}  // namespace boop
