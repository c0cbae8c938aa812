// Smagorinsky LES as a local eddy viscosity (seed 004 §2.3; Hou, Sterling, Chen
// & Doolen 1996), shared by every collision that offers it (BGK, TRT, MRT,
// regularized). With les_factor = 2 sqrt(2) C^2 / cs4 > 0 the relaxation time
// of a cell is
//   tau_eff = (tau0 + sqrt(tau0^2 + les_factor |Pi^neq| / rho)) / 2,  |Pi| = sqrt(Pi:Pi),
// the root of tau_eff = tau0 + nu_t / cs2 with nu_t = (C Delta)^2 |S|, Delta = 1,
// and the strain rate read from the cell's own non-equilibrium stress,
// |S| = |Pi^neq| / (sqrt 2 rho cs2 tau_eff): no neighbours and no extra memory.
#pragma once
#include <cmath>

#include "physics/equilibrium.hpp"
#include "physics/moments.hpp"

namespace barracuda::physics {

/// les_factor for the Smagorinsky constant C on lattice L (0: no LES).
template <class L>
constexpr double smagorinsky_factor(double C) {
    return 2 * 1.4142135623730951 * C * C / (L::cs2 * L::cs2);
}

/// omega_eff = 1 / tau_eff from the non-equilibrium stress {xx, yy, zz, xy, xz, yz}.
template <class T>
BARRACUDA_HD T smagorinsky_omega(const T (&pi)[6], T rho, T tau0, T les_factor) {
    using std::sqrt;
    // Each sum with one product left to fuse (common/hd.hpp, unfused_product).
    const T diagonal = (pi[0] * pi[0] + unfused_product(pi[1], pi[1])) + pi[2] * pi[2];
    const T off = (pi[3] * pi[3] + unfused_product(pi[4], pi[4])) + pi[5] * pi[5];
    const T norm2 = diagonal + T(2) * off;
    return T(2) / (tau0 + sqrt(tau0 * tau0 + les_factor * sqrt(norm2) / rho));
}

/// Pi^neq = sum_i c_i c_i f_i - Pi^eq from the (shifted) populations, without evaluating
/// the equilibria: the second-order equilibrium's second moment is exact on these
/// lattices, sum_i c_i c_i (f_i^eq - w_i) = cs2 drho I + rho_u u u (physics/equilibrium.hpp),
/// so one pass with constant coefficients gives the stress.
template <class L, class Eq, class T>
BARRACUDA_HD void non_equilibrium_stress(const T (&f)[L::Q], const CellState<T>& s, T (&pi)[6]) {
    BARRACUDA_UNROLL
    for (int a = 0; a < 6; ++a) pi[a] = T(0);
    // The terms of zero coefficient left out: IEEE arithmetic does not fold 0 * f[i] away
    // (an infinite f[i] gives NaN), and the GPU compiler kept them, 58 multiply-adds with a
    // zero operand a cell (D3Q19, sm_90 SASS). Adding them changed no finite sum (pi starts
    // at +0 and never becomes -0), so the stress is the same to the bit.
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) {
        const int c0 = L::c(i, 0), c1 = L::c(i, 1), c2 = L::c(i, 2);
        if (c0) pi[0] += T(c0 * c0) * f[i];
        if (c1) pi[1] += T(c1 * c1) * f[i];
        if (c2) pi[2] += T(c2 * c2) * f[i];
        if (c0 && c1) pi[3] += T(c0 * c1) * f[i];
        if (c0 && c2) pi[4] += T(c0 * c2) * f[i];
        if (c1 && c2) pi[5] += T(c1 * c2) * f[i];
    }
    const T rho_u = Eq::velocity_weight(T(1) + s.drho), p = unfused_product(T(L::cs2), s.drho);  // p + rho_u u u: one way to fuse
    pi[0] -= p + rho_u * s.u[0] * s.u[0];
    pi[1] -= p + rho_u * s.u[1] * s.u[1];
    if constexpr (L::D == 3) pi[2] -= p + rho_u * s.u[2] * s.u[2];
    pi[3] -= rho_u * s.u[0] * s.u[1];
    pi[4] -= rho_u * s.u[0] * s.u[2];
    pi[5] -= rho_u * s.u[1] * s.u[2];
}

/// The same from the populations.
template <class L, class Eq, class T>
BARRACUDA_HD T smagorinsky_omega(const T (&f)[L::Q], const CellState<T>& s, T tau0, T les_factor) {
    T pi[6];
    non_equilibrium_stress<L, Eq>(f, s, pi);
    return smagorinsky_omega(pi, T(1) + s.drho, tau0, les_factor);
}

}  // namespace barracuda::physics
