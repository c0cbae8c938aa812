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

    BARRACUDA_HD void operator()(T (&f)[L::Q], const CellState<T>& s, const T (&force)[3], bool forced) const {
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
        constexpr T inv_cs2 = T(1.0 / L::cs2);
        BARRACUDA_UNROLL
        for (int a = 0; a < 3; ++a) j[a] *= keep * inv_cs2;
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) f[i] = feq[i] + hermite2_non_equilibrium<L>(i, pi);
        if (forced) {
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) {
                f[i] += T(L::w(i)) * (T(L::c(i, 0)) * j[0] + T(L::c(i, 1)) * j[1] + T(L::c(i, 2)) * j[2]);
                f[i] += force_weight * guo_source<L>(i, u, force);
            }
        }
    }
};

}  // namespace barracuda::physics
