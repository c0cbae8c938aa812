// BGK (single relaxation time): f* = (1 - omega) f + omega f^eq + (1 - omega/2) F~
// with Guo's source F~ (physics/forcing.hpp). omega = 1/tau, nu = cs2 (tau - 1/2).
// With Smagorinsky LES (physics/les.hpp) omega is the cell's own 1/tau_eff.
#pragma once
#include <type_traits>

#include "physics/equilibrium.hpp"
#include "physics/forcing.hpp"
#include "physics/les.hpp"
#include "physics/moments.hpp"

namespace barracuda::physics {

template <class L, class Eq, class T>
struct Bgk {
    T omega;
    T les_factor = T(0);  // physics::smagorinsky_factor(C); 0: no LES
    T tau0 = T(0);        // 1 / omega, for the LES closure

    /// Returns the rate the stress relaxed with (the LES closure's, physics/les.hpp).
    BARRACUDA_HD T operator()(T (&f)[L::Q], const CellState<T>& s, const T (&force)[3], bool forced) const {
        const T w = les_factor > T(0) ? smagorinsky_omega<L, Eq>(f, s, tau0, les_factor) : omega;
        const T force_weight = T(1) - T(0.5) * w;
        // The state in locals: f may alias s as far as the host compiler knows, and
        // would otherwise reload s after every store to f (seen: BGK at 2/3 of MRT's
        // speed on the CPU).
        const T drho = s.drho, u[3] = {s.u[0], s.u[1], s.u[2]};
        const EquilibriumCell<T> e = equilibrium_cell<L, Eq>(drho, u);
        if constexpr (std::is_same_v<L, lattice::D3Q13>) {
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) f[i] -= w * (f[i] - equilibrium_shifted<L, Eq>(i, drho, u));
        } else {
            // f* = (1 - omega) f + omega f^eq, a pair of opposite velocities at a time with
            // omega w_i folded into the pair's equilibrium (equilibrium_pair): two operations
            // a population after the pair's three or four.
            const T keep = T(1) - w;
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) {
                const int o = L::opposite(i);
                if (o < i) continue;
                const EquilibriumPair<T> p = equilibrium_pair<L>(i, e, w * T(L::w(i)));
                if (o == i) {
                    f[i] = keep * f[i] + p.even;
                } else {
                    f[i] = keep * f[i] + (p.even + p.odd);
                    f[o] = keep * f[o] + (p.even - p.odd);
                }
            }
        }
        // The source in a loop of its own behind one test: tested in the loop above, the
        // GPU took a branch per population (19 on D3Q19) in every unforced cell.
        if (forced) add_guo_source<L>(f, e, u, force, force_weight, force_weight, [](int) { return T(-0.0); });
        return w;
    }
};

}  // namespace barracuda::physics
