#include "dsp/GroupSvf.hpp"

namespace boop {
namespace dsp {

void GroupSvf::set(const SvfStateSpace& m) BOOP_RT {
    // Powers of A applied to B and C in double, rounded once.
    double a[2][2] = {{1, 0}, {0, 1}};  // A^k
    double h[8], cak[8][2], akb[8][2];
    for (int k = 0; k < 8; ++k) {
        cak[k][0] = m.c1 * a[0][0] + m.c2 * a[1][0];
        cak[k][1] = m.c1 * a[0][1] + m.c2 * a[1][1];
        akb[k][0] = a[0][0] * m.b1 + a[0][1] * m.b2;
        akb[k][1] = a[1][0] * m.b1 + a[1][1] * m.b2;
        const double n00 = m.a11 * a[0][0] + m.a12 * a[1][0], n01 = m.a11 * a[0][1] + m.a12 * a[1][1];
        const double n10 = m.a21 * a[0][0] + m.a22 * a[1][0], n11 = m.a21 * a[0][1] + m.a22 * a[1][1];
        a[0][0] = n00, a[0][1] = n01, a[1][0] = n10, a[1][1] = n11;
    }
    h[0] = m.d;
    for (int k = 1; k < 8; ++k) h[k] = m.c1 * akb[k - 1][0] + m.c2 * akb[k - 1][1];
    for (int j = 0; j < 8; ++j) {
        for (int k = 0; k < 8; ++k) column[j][k] = k >= j ? static_cast<float>(h[k - j]) : 0.0f;
        w1[j] = static_cast<float>(akb[7 - j][0]);
        w2[j] = static_cast<float>(akb[7 - j][1]);
        p1[j] = static_cast<float>(cak[j][0]);
        p2[j] = static_cast<float>(cak[j][1]);
    }
    a8[0] = static_cast<float>(a[0][0]), a8[1] = static_cast<float>(a[0][1]);
    a8[2] = static_cast<float>(a[1][0]), a8[3] = static_cast<float>(a[1][1]);
}

}  // namespace dsp
}  // namespace boop
