// Body forces, two ways.
//
// Guo, Zheng & Shi 2002 (Phys. Rev. E 65, 046308), eq. (19)-(20): a source
//   F~_i = w_i [ (c_i - u)/cs2 + (c_i . u) c_i / cs4 ] . F
// with u = (j + F/2)/rho; the collision operators scale it by (1 - s/2) per
// relaxed moment (see each).
//
// Exact difference method (EDM; Kupershtokh, Medvedev & Karpov 2009, Comput.
// Math. Appl. 58, 965, eq. 8-10): the collision relaxes towards f^eq(rho, u)
// with the velocity before the force, u = j/rho, and the force then shifts the
// equilibrium by du = F dt / rho:
//   f*_i = Omega(f)_i + f_i^eq(rho, u + du) - f_i^eq(rho, u).
// Mass is unchanged, the momentum gains exactly F, independently of the
// relaxation rates (so of tau, and of every MRT rate); the fluid velocity is
// u + du/2 = (j + F/2)/rho, as with Guo. The two differ at O(F^2) and in how
// the force enters the non-hydrodynamic moments.
#pragma once
#include "common/hd.hpp"
#include "physics/equilibrium.hpp"

namespace barracuda::physics {

template <class L, class T>
BARRACUDA_HD_HOT T guo_source(int i, const T (&u)[3], const T (&force)[3]) {
    constexpr T inv_cs2 = T(1.0 / L::cs2);
    const T c0 = T(L::c(i, 0)), c1 = T(L::c(i, 1)), c2 = T(L::c(i, 2));
    const T cu = lattice::c_dot<L>(i, u);
    const T t0 = (c0 - u[0]) * inv_cs2 + cu * c0 * inv_cs2 * inv_cs2;
    const T t1 = (c1 - u[1]) * inv_cs2 + cu * c1 * inv_cs2 * inv_cs2;
    const T t2 = (c2 - u[2]) * inv_cs2 + cu * c2 * inv_cs2 * inv_cs2;
    return T(L::w(i)) * (t0 * force[0] + t1 * force[1] + t2 * force[2]);
}

/// EDM's source: f_i^eq(rho, u + du) - f_i^eq(rho, u) (shifted equilibria; the shift cancels).
template <class L, class Eq, class T>
BARRACUDA_HD T edm_source(int i, T drho, const T (&u)[3], const T (&du)[3]) {
    const T shifted[3] = {u[0] + du[0], u[1] + du[1], u[2] + du[2]};
    return equilibrium_shifted<L, Eq>(i, drho, shifted) - equilibrium_shifted<L, Eq>(i, drho, u);
}

}  // namespace barracuda::physics
