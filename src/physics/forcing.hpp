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

/// u.F, one way to fuse (common/hd.hpp).
template <class T>
BARRACUDA_HD_HOT T velocity_dot_force(const T (&u)[3], const T (&force)[3]) {
    return (u[0] * force[0] + unfused_product(u[1], force[1])) + u[2] * force[2];
}

/// Guo's source for a pair of opposite velocities, i and o = opposite(i), split like the
/// equilibrium (equilibrium_pair, whose cell terms e it shares): F~_i = even + odd,
/// F~_o = even - odd, both times `scale`,
///   even = w_i [(c_i.u)(c_i.F)/cs2 - u.F] / cs2 = w_i [t (c_i.F) - u.F] / cs2,   odd = w_i (c_i.F) / cs2,
/// with t = c_i.u / cs2 = c_i.v and uf = u.F of the cell (velocity_dot_force).
/// guo_source's formula per population is about thirteen operations (its zero
/// components of c_i are not folded away under IEEE rules; counted from the source), in
/// every cell of a case with a body force or buoyancy (seed 004's room, issue 27); a
/// pair's is under ten for both. The room's bulk box in FP16 went from 18,564 to 21,093
/// MLUPS on the H200 with this and the scalar's pairs (docs/performance.md).
template <class L, class T>
BARRACUDA_HD_HOT EquilibriumPair<T> guo_pair(int i, const EquilibriumCell<T>& e, const T (&force)[3], T uf, T scale) {
    const T s = scale * T(L::w(i) / L::cs2);
    if (L::c(i, 0) == 0 && L::c(i, 1) == 0 && L::c(i, 2) == 0) return {-(s * uf), T(-0.0)};
    const T t = lattice::c_dot_unfused<L>(i, e.v), cf = lattice::c_dot_unfused<L>(i, force);
    // Both unfused: each is added to, or subtracted from, more than one sum, and a product
    // with several such uses may be fused into some of them and not others, per kernel.
    return {unfused_product(s, t * cf - uf), unfused_product(s, cf)};
}

/// f_i += F~_i for every population, a pair at a time (guo_pair): the pair's even part
/// times even_scale, its odd part times odd_scale (TRT relaxes them with omega+ and
/// omega-; BGK and the regularized collision pass one scale twice, and the two pairs
/// computed are then one), with odd_extra(i) added to the odd part: the regularized
/// collision's relaxed w_i c_i.j^neq, or -0 for nothing (folded away).
template <class L, class T, class Extra>
BARRACUDA_HD_HOT void add_guo_source(T (&f)[L::Q], const EquilibriumCell<T>& e, const T (&u)[3], const T (&force)[3],
                                     T even_scale, T odd_scale, Extra odd_extra) {
    const T uf = velocity_dot_force(u, force);
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) {
        const int o = L::opposite(i);
        if (o < i) continue;
        const T even = guo_pair<L>(i, e, force, uf, even_scale).even;
        if (o == i) {
            f[i] += even;
        } else {
            const T odd = guo_pair<L>(i, e, force, uf, odd_scale).odd + odd_extra(i);
            f[i] += even + odd;
            f[o] += even - odd;
        }
    }
}

/// EDM's source: f_i^eq(rho, u + du) - f_i^eq(rho, u) (shifted equilibria; the shift cancels).
template <class L, class Eq, class T>
BARRACUDA_HD T edm_source(int i, T drho, const T (&u)[3], const T (&du)[3]) {
    const T shifted[3] = {u[0] + du[0], u[1] + du[1], u[2] + du[2]};
    return equilibrium_shifted<L, Eq>(i, drho, shifted) - equilibrium_shifted<L, Eq>(i, drho, u);
}

}  // namespace barracuda::physics
