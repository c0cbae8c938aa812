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
// Numerics. Populations are stored as f - w (storage/), so f^eq - w =
// w expm1(ln rho + sum_a (ln A_a + c_ia ln B_a)) keeps the small part's digits.
// With d = f^eq - f, y_i = d_i / f_i and phi(x) = (1 + x) log1p(x) - x,
//   g(alpha) = H(f + alpha d) - H(f) = sum_i f_i phi(alpha y_i) - alpha S,   S = sum_i d_i log1p(y_i),
//   g'(alpha) = sum_i d_i log1p(alpha y_i) - S,
// because ln(f_i / w_i) = ln(f^eq_i / w_i) - log1p(y_i) and ln(f^eq_i / w_i) is
// a sum of collision invariants, which d (carrying no mass and no momentum)
// does not see. Every term is O(y^2): unlike the direct difference of two
// H-sums it has no cancellation, so the root is found to rounding even very
// close to equilibrium (phi by its series below |x| = 0.1). g is convex with
// g(0) = 0 and its minimum at alpha = 1 (f^eq minimises H on the line), so the
// root lies in (1, alpha_max), alpha_max keeping every population positive.
// Newton from the root's near-equilibrium expansion to third order in y
// (S_n = sum_i f_i y_i^n; error O(y^4), so one Newton step usually lands on the
// root to rounding), steps kept below alpha_max, stopping when Newton's own
// error estimate for the step just taken is below rounding, so the result is
// the root to rounding whichever iteration stopped; therefore alpha is a
// continuous function of f, and the CPU and CUDA backends, whose last bits
// differ (FMA contraction, the math libraries' log1p), agree to rounding.
// With max |y_i| < 1e-5 the expansion itself is the root to rounding. Only where no root exists below alpha_max (a
// population would have to turn negative) or f is not a distribution does
// alpha fall back to 2 (the BGK step), as in the literature. Guo's force
// enters as in BGK with omega = alpha beta; with a force, d carries F/2 of
// momentum, which g leaves out (O(F u) of the entropy change).
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

    /// phi(x) = (1 + x) log1p(x) - x: by its series sum_{n>=2} (-x)^n / (n (n - 1)) for
    /// |x| < 0.1 (17 terms: the first left out is below 1e-17 of the sum), where
    /// the direct form would lose digits to cancellation.
    BARRACUDA_HD static double phi(double x, double log1p_x) {
        if (!(x < 0.1 && x > -0.1)) return (1 + x) * log1p_x - x;
        double p = 0;
        BARRACUDA_UNROLL
        for (int n = 18; n >= 2; --n) p = p * -x + 1.0 / (n * (n - 1));
        return p * x * x;
    }

    /// The root alpha of H(f + alpha d) = H(f) (see the top of the file); f shifted, d = f^eq - f.
    /// Outlined: inlined into each kernel variant it made the D3Q27 CUDA unit compile 3x longer.
    BARRACUDA_HD_OUTLINED static double solve_alpha(const T (&f)[L::Q], const T (&d)[L::Q]) {
        using std::log1p, std::abs;
        double y[L::Q], s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, y_max = 0, alpha_max = 1e300;
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) {
            const double full = L::w(i) + double(f[i]), di = double(d[i]);
            if (!(full > 0)) return 2.0;  // not a distribution; leave it to the divergence check
            const double yi = di / full, dy2 = di * yi * yi;
            y[i] = yi;
            s1 += di * log1p(yi);
            s2 += di * yi;
            s3 += dy2;
            s4 += dy2 * yi;
            s5 += dy2 * yi * yi;
            y_max = y_max > abs(yi) ? y_max : abs(yi);
            if (yi < 0) alpha_max = alpha_max < -1 / yi ? alpha_max : -1 / yi;
        }
        if (!(s2 > 0)) return 2.0;  // f = f^eq: alpha does not matter
        // The root's expansion in powers of y (S_n = sum_i f_i y_i^n = sum_i d_i y_i^(n-1);
        // from g(alpha) / alpha = sum_n (-1)^n S_n / (n - 1) (alpha^(n-1) / n - 1) = 0 with
        // alpha = 2 + delta, solved order by order):
        //   alpha = 2 + S3 / (3 S2) + [4/9 (S3/S2)^2 - 2/3 S4/S2]
        //             + [11/10 S5/S2 - 14/9 S3 S4 / S2^2 + 17/27 (S3/S2)^3] + O(y^4).
        const double r3 = s3 / s2, r4 = s4 / s2, r5 = s5 / s2;
        double alpha = 2 + r3 / 3 + (4.0 / 9 * r3 * r3 - 2.0 / 3 * r4) +
                       (11.0 / 10 * r5 - 14.0 / 9 * r3 * r4 + 17.0 / 27 * r3 * r3 * r3);
        if (y_max < 1e-5) return alpha;  // the O(y^4) remainder is below rounding
        if (!(alpha < alpha_max)) alpha = 0.5 * (1 + alpha_max);
#if defined(__CUDACC__)
#pragma unroll 1  // one copy of the body (compile time)
#endif
        for (int it = 0; it < 40; ++it) {
            double g = -alpha * s1, dg = -s1, ddg = 0;
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) {
                const double x = alpha * y[i], l = log1p(x), full = L::w(i) + double(f[i]);
                g += full * phi(x, l);
                dg += double(d[i]) * l;
                ddg += double(d[i]) * y[i] / (1 + x);
            }
            if (!(dg > 0)) return 2.0;  // only left of alpha = 1, where no root lies: rounding trouble
            const double step = g / dg;
            double next = alpha - step;
            if (!(next < alpha_max)) next = 0.5 * (alpha + alpha_max);  // stay where populations are positive
            // Newton's error after this step is (g'' / 2 g') step^2 to leading order (g is convex:
            // g'' > 0): once that is below a tenth of alpha's rounding, next is the root to rounding,
            // whichever iteration got there, so alpha is a continuous function of f and the two
            // backends agree to rounding.
            if (ddg / (2 * dg) * step * step < 2e-17 * next) return next;
            alpha = next;
        }
        return 2.0;  // g < 0 up to alpha_max: no admissible root
    }

    BARRACUDA_HD void operator()(T (&f)[L::Q], const CellState<T>& s, const T (&force)[3], bool forced) const {
        T d[L::Q];
        equilibrium(s.drho, s.u, d);
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) d[i] -= f[i];
        const T omega = T(solve_alpha(f, d)) * beta;
        const T force_weight = T(1) - T(0.5) * omega;
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) f[i] += omega * d[i];
        if (forced) {  // behind one test, not one per population (collision_bgk.hpp)
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) f[i] += force_weight * guo_source<L>(i, s.u, force);
        }
    }
};

}  // namespace barracuda::physics
