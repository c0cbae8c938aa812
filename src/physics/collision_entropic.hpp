// Entropic LBM (ELBM; Ansumali, Karlin & Oettinger 2003; seed 003 §2.1.3,
// eqs. 5-7). With the discrete H-function H(f) = sum_i f_i ln(f_i / w_i):
//  - the equilibrium is H's minimum under mass and momentum, in closed form on
//    the tensor-product lattices D2Q9 and D3Q27 (cs2 = 1/3):
//      f_i^eq = rho w_i prod_a (2 - s_a) ((2 u_a + s_a) / (1 - u_a))^{c_ia},  s_a = sqrt(1 + 3 u_a^2)
//    (seed 003 eq. 5 prints sqrt(1 + u_a^2) in the first factor, a misprint:
//    with it the equilibrium would not carry the density);
//  - the collision is f* = f + alpha beta (f^eq - f), beta = 1 / (2 tau), where
//    alpha is the non-trivial root of H(f + alpha (f^eq - f)) = H(f) (eq. 7):
//    the largest step that does not create entropy, so H never grows. Close
//    to equilibrium alpha = 2 and ELBM is BGK with the entropic equilibrium;
//    where under-resolved gradients push f far from it, alpha departs from 2
//    and adds or removes viscosity locally.
//
// Numerics. Populations are stored as f - w (storage/), so ln(f_i / w_i) =
// log1p((f_i - w_i) / w_i) and f^eq - w = w expm1(ln rho + sum_a (ln A_a + c_ia ln B_a))
// keep the small part's digits. With d = f^eq - f and x_i = alpha d_i / f_i,
//   g(alpha) = H(f + alpha d) - H(f) = alpha sum_i d_i ln(f_i/w_i) + sum_i f_i (1 + x_i) log1p(x_i),
//   g'(alpha) = sum_i d_i (ln(f_i/w_i) + log1p(x_i))       (sum_i d_i = 0),
// evaluated in double whatever the storage, has no cancellation between large
// H values. Newton from alpha = 2 (g is convex, g(0) = 0, g'(0) < 0); when
// max |d_i / f_i| < 1e-6 alpha = 2 to that order and no iteration is done;
// when Newton does not converge in 20 steps or would make a population
// negative, alpha = 2 (plain BGK step), which is what the literature does too.
// Guo's force enters as in BGK with omega = alpha beta.
#pragma once
#include <cmath>

#include "physics/forcing.hpp"
#include "physics/moments.hpp"

namespace barracuda::physics {

/// Lattices whose entropic equilibrium has the closed form above.
template <class L>
concept HasEntropic = (L::D == 2 && L::Q == 9) || (L::D == 3 && L::Q == 27);

template <class L, class T>
    requires HasEntropic<L>
struct Entropic {
    T beta;  // 1 / (2 tau)

    /// f_i^eq - w_i of the entropic equilibrium.
    BARRACUDA_HD static void equilibrium(T drho, const T (&u)[3], T (&feq)[L::Q]) {
        using std::log1p, std::sqrt, std::expm1;
        T ln_a[3], ln_b[3];
        BARRACUDA_UNROLL
        for (int a = 0; a < 3; ++a) {
            const T v = u[a], s = sqrt(T(1) + T(3) * v * v), s1 = T(3) * v * v / (T(1) + s);  // s - 1
            ln_a[a] = log1p(-s1);                                  // ln(2 - s)
            ln_b[a] = log1p((T(3) * v + s1) / (T(1) - v));         // ln((2u + s) / (1 - u))
        }
        const T ln_rho = log1p(drho);
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) {
            T e = ln_rho;
            BARRACUDA_UNROLL
            for (int a = 0; a < L::D; ++a) e += ln_a[a] + T(L::c(i, a)) * ln_b[a];
            feq[i] = T(L::w(i)) * expm1(e);
        }
    }

    /// The root alpha of H(f + alpha d) = H(f) (see the top of the file); f shifted, d = f^eq - f.
    BARRACUDA_HD static double solve_alpha(const T (&f)[L::Q], const T (&d)[L::Q]) {
        using std::log1p, std::abs;
        double full[L::Q], ln_f[L::Q], dd[L::Q], deviation = 0, alpha_max = 1e300;
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) {
            const double w = L::w(i);
            full[i] = w + double(f[i]);
            dd[i] = double(d[i]);
            if (!(full[i] > 0)) return 2.0;  // not a distribution; leave it to the divergence check
            ln_f[i] = log1p(double(f[i]) / w);
            deviation = deviation > abs(dd[i] / full[i]) ? deviation : abs(dd[i] / full[i]);
            if (dd[i] < 0) alpha_max = alpha_max < -full[i] / dd[i] ? alpha_max : -full[i] / dd[i];
        }
        if (deviation < 1e-6) return 2.0;
        double alpha = 2.0;
        for (int it = 0; it < 20; ++it) {
            if (!(alpha < alpha_max)) return 2.0;
            double g = 0, dg = 0;
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) {
                const double x = alpha * dd[i] / full[i], l = log1p(x);
                g += alpha * dd[i] * ln_f[i] + full[i] * (1 + x) * l;
                dg += dd[i] * (ln_f[i] + l);
            }
            if (!(dg > 0)) return 2.0;  // left of the minimum: no root to the right here
            const double step = g / dg;
            alpha -= step;
            if (abs(step) < 1e-12 * alpha) return alpha > 0 && alpha < alpha_max ? alpha : 2.0;
        }
        return 2.0;
    }

    BARRACUDA_HD void operator()(T (&f)[L::Q], const CellState<T>& s, const T (&force)[3], bool forced) const {
        T d[L::Q];
        equilibrium(s.drho, s.u, d);
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) d[i] -= f[i];
        const T omega = T(solve_alpha(f, d)) * beta;
        const T force_weight = T(1) - T(0.5) * omega;
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) {
            T fi = f[i] + omega * d[i];
            if (forced) fi += force_weight * guo_source<L>(i, s.u, force);
            f[i] = fi;
        }
    }
};

}  // namespace barracuda::physics
