// Second-order equilibria, written for shifted populations f~_i = f_i - w_i
// (round-off control: seed 003 §3.7, needed for low-precision storage).
//
// Compressible:   f_i^eq = w_i rho [1 + c.u/cs2 + (c.u)^2/(2 cs4) - u^2/(2 cs2)]
// Incompressible: f_i^eq = w_i {rho + rho0 [c.u/cs2 + (c.u)^2/(2 cs4) - u^2/(2 cs2)]}
//   (He & Luo 1997, used in seeds 000 and 001), rho0 = 1, and u = j / rho0.
#pragma once
#include <type_traits>

#include "common/hd.hpp"
#include "lattice/d3q13.hpp"
#include "lattice/lattice.hpp"

namespace barracuda::physics {

struct Compressible {
    static constexpr const char* name = "compressible";
    static constexpr bool compressible = true;
    /// Factor in front of the velocity terms: rho.
    template <class T>
    BARRACUDA_HD static T velocity_weight(T rho) { return rho; }
};

struct Incompressible {
    static constexpr const char* name = "incompressible";
    static constexpr bool compressible = false;
    /// Factor in front of the velocity terms: rho0 = 1.
    template <class T>
    BARRACUDA_HD static T velocity_weight(T) { return T(1); }
};

/// D3Q13's equilibrium (lattice/d3q13.hpp), f_i^eq - w_i: the populations of the
/// moment equilibria of seed 000 eq. 6 (rho, j, e = -11/2 rho + 13/2 rho_u u^2,
/// 3 pxx = rho_u (3 ux^2 - u^2), pww = rho_u (uy^2 - uz^2), pxy = rho_u ux uy, ...,
/// h = 0) through M^-1 = M^T diag(1/|M_k|^2) (d'Humières, Bouzidi & Lallemand 2001):
///   rest:             w_0 drho - rho_u u^2 / 2
///   c_i in plane a-b: w_i drho + rho_u [c.u + (c.u)^2 - u_t^2] / 8,  t the third axis,
/// which gives sum f^eq c c = rho / 3 I + rho_u u u, as the other lattices' equilibria.
template <class T>
BARRACUDA_HD_HOT T d3q13_equilibrium_shifted(int i, T drho, const T (&u)[3], T rho_u) {
    using L = lattice::D3Q13;
    const T uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    if (i == 0) return T(L::w(0)) * drho - T(0.5) * rho_u * uu;
    const T cu = lattice::c_dot<L>(i, u);
    // u_t^2 = u^2 - sum over the two axes of c_i of u_a^2
    T ut2 = uu;
    BARRACUDA_UNROLL
    for (int a = 0; a < 3; ++a)
        if (L::c(i, a)) ut2 -= u[a] * u[a];
    return T(L::w(i)) * drho + T(0.125) * rho_u * (cu + cu * cu - ut2);
}

/// D3Q13's hydrodynamic pressure as a density, 3 p, from seed 000 eq. 8:
///   p = 13/33 rho_u u^2 - 2/33 e,   e = sum_i (13/2 c_i^2 - 12) f_i,
/// which is rho / 3 at equilibrium and carries the energy moment's non-equilibrium
/// part otherwise. Shifted populations: sum_i w_i (13/2 c_i^2 - 12) = -11/2.
template <class T>
BARRACUDA_HD T d3q13_pressure_density(const T (&f)[13], const T (&u)[3], T rho_u) {
    using L = lattice::D3Q13;
    T moving = T(0);
    BARRACUDA_UNROLL
    for (int i = 1; i < L::Q; ++i) moving += f[i];
    const T e = moving - T(12) * f[0] - T(5.5);  // 13/2 * 2 - 12 = 1 for every moving c_i
    const T uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    return (T(13) * rho_u * uu - T(2) * e) / T(11);
}

/// What the equilibria of one cell share: rho_u (rho, or rho0 = 1 for the incompressible
/// equilibrium), base = drho - rho_u u.u / (2 cs2) and v = u / cs2.
template <class T>
struct EquilibriumCell {
    T rho_u, base, v[3];
};

template <class L, class Eq, class T>
BARRACUDA_HD_HOT EquilibriumCell<T> equilibrium_cell(T drho, const T (&u)[3]) {
    constexpr T inv_cs2 = T(1.0 / L::cs2);
    const T uu = (u[0] * u[0] + unfused_product(u[1], u[1])) + u[2] * u[2];  // one way to fuse
    const T rho_u = Eq::velocity_weight(T(1) + drho);
    return {rho_u, drho - rho_u * (T(0.5) * inv_cs2) * uu, {u[0] * inv_cs2, u[1] * inv_cs2, u[2] * inv_cs2}};
}

/// The equilibrium of a pair of opposite velocities, i and o = opposite(i) (c_o = -c_i),
/// split into its even and odd parts, both times `scale`:
///   f_i^eq - w_i = w_i (even + odd),   f_o^eq - w_o = w_i (even - odd),
///   even = base + rho_u t^2 / 2,   odd = rho_u t,   t = c_i.u / cs2 = c_i.v.
/// A collision that updates both members of a pair computes t, t^2 and the pair's
/// weight once, and folds its own factors (BGK's omega w_i) into `scale`, which the
/// compiler then multiplies per cell, not per population: the FP16 two-copy bulk kernel's
/// path through an unforced D3Q19 BGK cell, loads to stores, went from 509 to 454 SASS
/// instructions (cuobjdump; FP16 storage is bound by instruction issue, issue 20) and
/// 256^3 from 37,989 to 40,631 MLUPS on the H200 (docs/performance.md). For the rest velocity
/// (c = 0) odd = 0 and even = base (times scale).
template <class T>
struct EquilibriumPair {
    T even, odd;
};

template <class L, class T>
BARRACUDA_HD_HOT EquilibriumPair<T> equilibrium_pair(int i, const EquilibriumCell<T>& e, T scale) {
    if (L::c(i, 0) == 0 && L::c(i, 1) == 0 && L::c(i, 2) == 0) return {unfused_product(scale, e.base), T(-0.0)};  // -0: even + odd is even
    const T t = lattice::c_dot_unfused<L>(i, e.v);  // v's components are products
    const T k = (scale * (T(0.5) * e.rho_u)) * t;  // scale rho_u t / 2: odd is twice it, exactly
    // 2 k, not k + k: a compiler may fuse one product of k + k (a multiply-add of the exact
    // product and the rounded one), and the GPU's did so in some kernels and not in others
    // (the record forms parted); 2 k is exact, fused into a sum or not.
    return {k * t + unfused_product(scale, e.base), T(2) * k};
}

/// The member of its pair that equilibrium_pair is asked for: the one listed first.
template <class L>
BARRACUDA_HD constexpr int pair_lead(int i) {
    return L::opposite(i) < i ? L::opposite(i) : i;
}

/// f_i^eq - w_i for density rho = 1 + drho and velocity u.
template <class L, class Eq, class T>
BARRACUDA_HD_HOT T equilibrium_shifted(int i, T drho, const T (&u)[3]) {
    if constexpr (std::is_same_v<L, lattice::D3Q13>) return d3q13_equilibrium_shifted(i, drho, u, Eq::velocity_weight(T(1) + drho));
    const int lead = pair_lead<L>(i);
    const EquilibriumPair<T> p = equilibrium_pair<L>(lead, equilibrium_cell<L, Eq>(drho, u), T(L::w(i)));
    return lead == i ? p.even + p.odd : p.even - p.odd;
}

/// The velocity-dependent part only, odd in c: f_i^eq - f_opp(i)^eq (on D3Q13 too:
/// 2 w_i / cs2 = 1/4 there).
template <class L, class Eq, class T>
BARRACUDA_HD_HOT T equilibrium_odd_difference(int i, T drho, const T (&u)[3]) {
    constexpr T inv_cs2 = T(1.0 / L::cs2);
    const T cu = lattice::c_dot<L>(i, u);
    return T(2) * T(L::w(i)) * Eq::velocity_weight(T(1) + drho) * cu * inv_cs2;
}

}  // namespace barracuda::physics

namespace barracuda::physics {

/// The second-order Hermite projection of a non-equilibrium stress Pi^neq_ab =
/// sum_i c_ia c_ib (f_i - f_i^eq), given as {xx, yy, zz, xy, xz, yz}:
///   f_i^neq,(1) = w_i / (2 cs4) Q_iab Pi_ab,   Q_iab = c_ia c_ib - cs2 delta_ab
/// (Latt & Chopard 2006, Math. Comput. Simul. 72, 165, eq. 11). It carries the
/// stress Pi and no other moment up to second order.
template <class L, class T>
BARRACUDA_HD T hermite2_non_equilibrium(int i, const T (&pi)[6]) {
    constexpr T cs2 = T(L::cs2), scale = T(1.0 / (2 * L::cs2 * L::cs2));
    const T c0 = T(L::c(i, 0)), c1 = T(L::c(i, 1)), c2 = T(L::c(i, 2));
    const T q = (c0 * c0 - cs2) * pi[0] + (c1 * c1 - cs2) * pi[1] + (c2 * c2 - cs2) * pi[2] +
                T(2) * (c0 * c1 * pi[3] + c0 * c2 * pi[4] + c1 * c2 * pi[5]);
    return scale * T(L::w(i)) * q;
}

/// The first-order (Chapman-Enskog) non-equilibrium part of a BGK-like
/// population after collision, for a velocity field with strain rate
/// S_ab = (d_a u_b + d_b u_a) / 2 given as {S_xx, S_yy, S_zz, S_xy, S_xz, S_yz}:
///   before collision  f_i^neq = -tau (w_i rho / cs2) Q_iab S_ab,
///   after collision   (1 - 1/tau) f_i^neq = -(tau - 1) (w_i rho / cs2) Q_iab S_ab,
/// the Hermite projection of the stress Pi = -2 rho cs2 (tau - 1) S
/// (Skordos 1993, Phys. Rev. E 48, 4823; Mei, Luo, Lallemand & d'Humieres 2006,
/// Comput. Fluids 35, 855, §2). After the next streaming its stress is the
/// viscous stress, so a flow with gradients starts without the period-two
/// oscillation that f = f^eq excites near tau = 1/2. The stress relaxes at 1/tau
/// in every collision offered (BGK, TRT's omega+, MRT's s_nu, regularized); on
/// D3Q19 MRT the Hermite term also carries some ghost content (relaxed at s_pi),
/// a small start-up transient there. rho: rho0 = 1 for the incompressible equilibrium.
template <class L, class T>
BARRACUDA_HD T strain_non_equilibrium_post(int i, T rho, T tau, const T (&strain)[6]) {
    const T k = T(-2) * T(L::cs2) * rho * (tau - T(1));
    const T pi[6] = {k * strain[0], k * strain[1], k * strain[2], k * strain[3], k * strain[4], k * strain[5]};
    return hermite2_non_equilibrium<L>(i, pi);
}

}  // namespace barracuda::physics
