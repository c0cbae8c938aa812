// Guo, Zheng & Shi 2002 (Phys. Rev. E 65, 046308) body force, eq. (19)-(20):
//   F~_i = w_i [ (c_i - u)/cs2 + (c_i . u) c_i / cs4 ] . F
// The collision operators scale it by (1 - s/2) per relaxed moment (see each).
#pragma once
#include "common/hd.hpp"

namespace barracuda::physics {

template <class L, class T>
BARRACUDA_HD T guo_source(int i, const T (&u)[3], const T (&force)[3]) {
    constexpr T inv_cs2 = T(1.0 / L::cs2);
    const T c0 = T(L::c(i, 0)), c1 = T(L::c(i, 1)), c2 = T(L::c(i, 2));
    const T cu = c0 * u[0] + c1 * u[1] + c2 * u[2];
    const T t0 = (c0 - u[0]) * inv_cs2 + cu * c0 * inv_cs2 * inv_cs2;
    const T t1 = (c1 - u[1]) * inv_cs2 + cu * c1 * inv_cs2 * inv_cs2;
    const T t2 = (c2 - u[2]) * inv_cs2 + cu * c2 * inv_cs2 * inv_cs2;
    return T(L::w(i)) * (t0 * force[0] + t1 * force[1] + t2 * force[2]);
}

}  // namespace barracuda::physics
