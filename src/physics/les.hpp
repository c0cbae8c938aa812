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
    const T norm2 = pi[0] * pi[0] + pi[1] * pi[1] + pi[2] * pi[2] + T(2) * (pi[3] * pi[3] + pi[4] * pi[4] + pi[5] * pi[5]);
    return T(2) / (tau0 + sqrt(tau0 * tau0 + les_factor * sqrt(norm2) / rho));
}

/// The same from the populations: Pi^neq = sum_i c_i c_i (f_i - f_i^eq) first.
template <class L, class Eq, class T>
BARRACUDA_HD T smagorinsky_omega(const T (&f)[L::Q], const CellState<T>& s, T tau0, T les_factor) {
    T pi[6] = {T(0), T(0), T(0), T(0), T(0), T(0)};
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) {
        const T d = f[i] - equilibrium_shifted<L, Eq>(i, s.drho, s.u);
        const T c0 = T(L::c(i, 0)), c1 = T(L::c(i, 1)), c2 = T(L::c(i, 2));
        pi[0] += c0 * c0 * d, pi[1] += c1 * c1 * d, pi[2] += c2 * c2 * d;
        pi[3] += c0 * c1 * d, pi[4] += c0 * c2 * d, pi[5] += c1 * c2 * d;
    }
    return smagorinsky_omega(pi, T(1) + s.drho, tau0, les_factor);
}

}  // namespace barracuda::physics
