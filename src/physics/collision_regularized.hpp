// Regularized BGK (Latt & Chopard 2006, Math. Comput. Simul. 72, 165; seed 003
// §2.2): before relaxing, the non-equilibrium part is replaced by its projection
// on the second-order Hermite polynomials, which keeps the viscous stress and
// drops the higher-order (ghost) content that BGK relaxes at the same rate and
// that destabilises it at tau -> 1/2:
//   j^neq = sum_i c_i (f_i - f_i^eq),  Pi^neq = sum_i c_i c_i (f_i - f_i^eq),
//   f*_i  = f_i^eq + (1 - omega) [w_i c_i.j^neq / cs2 + w_i/(2 cs4) Q_i : Pi^neq] + (1 - omega/2) F~_i
// j^neq is -F/2 (the velocity carries half the force) and zero without a force;
// keeping it relaxes the momentum as BGK does, so the force is added exactly
// (dropped, the momentum gained F (3 - omega)/2 per step instead of F).
// with Guo's source F~ (physics/forcing.hpp). Mass, momentum and the stress
// relax exactly as in BGK (nu = cs2 (tau - 1/2)), so the Navier-Stokes limit is
// BGK's; at omega = 1 both give f* = f^eq + F~/2.
//
// Smagorinsky LES (physics/les.hpp): the closure reads the Pi^neq the
// regularization computes anyway, so it costs a square root.
#pragma once
#include <cmath>
#include <type_traits>

#include "physics/equilibrium.hpp"
#include "physics/forcing.hpp"
#include "physics/les.hpp"
#include "physics/moments.hpp"

namespace barracuda::physics {

template <class L, class Eq, class T>
struct Regularized {
    T omega;
    T les_factor = T(0);  // 2 sqrt(2) C^2 / cs4 (Smagorinsky constant C), 0: no LES
    T tau0 = T(0);        // 1 / omega, for the LES closure

    /// Returns the rate the stress relaxed with (the LES closure's, physics/les.hpp).
    BARRACUDA_HD T operator()(T (&f)[L::Q], const CellState<T>& s, const T (&force)[3], bool forced) const {
        if constexpr (std::is_same_v<L, lattice::D3Q13>) {
            return by_populations(f, s, force, forced);
        } else {
            return by_pairs(f, s, force, forced);
        }
    }

    /// Pi^neq from the second moment of f minus the equilibrium's, cs2 drho I + rho_u u u
    /// (exact for the second-order equilibrium on D2Q9, D3Q15, D3Q19 and D3Q27:
    /// physics/les.hpp), and the new populations a pair of opposite velocities at a time:
    /// the Hermite term is even in c, so f*_i,o = w_i (even +- odd) + w_i q_i with
    /// q_i = (1 - omega)/(2 cs4) Q_i : Pi^neq, computed once for the pair. The equilibria,
    /// differences and projections per population (by_populations) bound seed 004's room
    /// in FP16 storage (issue 27): its box without faces went from 14,976 to 18,564 MLUPS
    /// on the H200 with this and equilibrium_pair alone (docs/performance.md).
    BARRACUDA_HD T by_pairs(T (&f)[L::Q], const CellState<T>& s, const T (&force)[3], bool forced) const {
        const T drho = s.drho, u[3] = {s.u[0], s.u[1], s.u[2]};  // locals: see Bgk
        T pi[6];
        non_equilibrium_stress<L, Eq>(f, s, pi);
        T j[3] = {T(0), T(0), T(0)};
        const T rho_u = Eq::velocity_weight(T(1) + drho);
        if (forced) {  // j^neq = sum_i c_i f_i - rho_u u (the equilibrium's momentum is rho_u u)
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) {
                if (L::c(i, 0)) j[0] += T(L::c(i, 0)) * f[i];
                if (L::c(i, 1)) j[1] += T(L::c(i, 1)) * f[i];
                if (L::c(i, 2)) j[2] += T(L::c(i, 2)) * f[i];
            }
            BARRACUDA_UNROLL
            for (int a = 0; a < 3; ++a) j[a] -= unfused_product(rho_u, u[a]);  // shared with the stress's products
        }
        const T w = les_factor > T(0) ? smagorinsky_omega(pi, T(1) + drho, tau0, les_factor) : omega;
        const T keep = T(1) - w, force_weight = T(1) - T(0.5) * w;
        const T h = keep * T(1.0 / (2 * L::cs2 * L::cs2));
        // Unfused: the sums below add two of them (common/hd.hpp).
        BARRACUDA_UNROLL
        for (int a = 0; a < 6; ++a) pi[a] = unfused_product(pi[a], h);
        const T minus_trace = unfused_product(-T(L::cs2), pi[0] + pi[1] + pi[2]);  // + pi_aa: one way to fuse
        const EquilibriumCell<T> e = equilibrium_cell<L, Eq>(drho, u);
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) {
            const int o = L::opposite(i);
            if (o < i) continue;
            // Q_i : Pi = sum_a c_ia^2 Pi_aa + 2 sum_a<b c_ia c_ib Pi_ab - cs2 tr Pi, the terms of
            // zero c left out (lattice::c_dot says why); pairs sharing axes share sums.
            T q = minus_trace;
            BARRACUDA_UNROLL
            for (int a = 0; a < 3; ++a)
                if (L::c(i, a)) q += T(L::c(i, a) * L::c(i, a)) * pi[a];
            BARRACUDA_UNROLL
            for (int k = 0; k < 3; ++k) {  // pi[3 + k]: xy, xz, yz
                const int ca = L::c(i, k == 2 ? 1 : 0), cb = L::c(i, k == 0 ? 1 : 2);
                if (ca && cb) q += T(2 * ca * cb) * pi[3 + k];
            }
            const EquilibriumPair<T> p = equilibrium_pair<L>(i, e, T(L::w(i)));
            const T even = T(L::w(i)) * q + p.even;
            f[i] = even + p.odd;
            if (o != i) f[o] = even - p.odd;
        }
        if (forced) add_force(f, u, e, force, j, keep, force_weight);
        return w;
    }

    /// The same from every population's equilibrium and difference (D3Q13, whose
    /// equilibrium is not w_i (even +- odd)).
    BARRACUDA_HD T by_populations(T (&f)[L::Q], const CellState<T>& s, const T (&force)[3], bool forced) const {
        T feq[L::Q];
        const T drho = s.drho, u[3] = {s.u[0], s.u[1], s.u[2]};  // locals: see Bgk
        T pi[6] = {T(0), T(0), T(0), T(0), T(0), T(0)}, j[3] = {T(0), T(0), T(0)};
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) {
            feq[i] = equilibrium_shifted<L, Eq>(i, drho, u);
            const T d = f[i] - feq[i];
            const T c0 = T(L::c(i, 0)), c1 = T(L::c(i, 1)), c2 = T(L::c(i, 2));
            pi[0] += c0 * c0 * d, pi[1] += c1 * c1 * d, pi[2] += c2 * c2 * d;
            pi[3] += c0 * c1 * d, pi[4] += c0 * c2 * d, pi[5] += c1 * c2 * d;
        }
        if (forced) {  // behind one test, not one per population (collision_bgk.hpp)
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) {
                const T d = f[i] - feq[i];
                j[0] += T(L::c(i, 0)) * d, j[1] += T(L::c(i, 1)) * d, j[2] += T(L::c(i, 2)) * d;
            }
        }
        const T w = les_factor > T(0) ? smagorinsky_omega(pi, T(1) + drho, tau0, les_factor) : omega;
        const T keep = T(1) - w, force_weight = T(1) - T(0.5) * w;
        BARRACUDA_UNROLL
        for (int a = 0; a < 6; ++a) pi[a] *= keep;
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) f[i] = feq[i] + hermite2_non_equilibrium<L>(i, pi);
        if (forced) add_force(f, u, equilibrium_cell<L, Eq>(drho, u), force, j, keep, force_weight);
        return w;
    }

    /// The relaxed j^neq and Guo's source (both zero without a force).
    BARRACUDA_HD static void add_force(T (&f)[L::Q], const T (&u)[3], const EquilibriumCell<T>& e, const T (&force)[3], T (&j)[3],
                                      T keep, T force_weight) {
        constexpr T inv_cs2 = T(1.0 / L::cs2);
        BARRACUDA_UNROLL
        for (int a = 0; a < 3; ++a) j[a] *= keep * inv_cs2;
        // w_i c_i.j^neq is odd; unfused: one way to fuse the sum (common/hd.hpp).
        add_guo_source<L>(f, e, u, force, force_weight, force_weight,
                          [&](int i) { return unfused_product(T(L::w(i)), lattice::c_dot_unfused<L>(i, j)); });
    }
};

}  // namespace barracuda::physics
