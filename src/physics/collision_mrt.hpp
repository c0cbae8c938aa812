// MRT: relaxation in an orthogonal moment space (physics/mrt_basis.hpp),
//   f* = f - M^-1 S (m - m^eq) + M^-1 (I - S/2) M F~      (Guo's force in moment space)
// M has orthogonal rows, so M^-1 = M^T diag(1/|M_k|^2).
//
// Cost. Three dense Q x Q products (m, M F~, M^T) made the D3Q19 kernel
// compute-bound (~1100 FMAs a cell). What is done instead, all of it exact
// algebra, so the result is the dense one to rounding:
// - M is a compile-time table (evaluated by the C++ front end, once per
//   lattice), so zero entries cost nothing and +-1 entries are adds. Folding the
//   polynomial rows inside unrolled loops instead (as an earlier version tried)
//   left the evaluation to nvcc's optimiser and took minutes per instantiation;
//   here the optimiser only ever sees literal constants.
// - Velocities come in opposite pairs (i, i+1) and every basis row is even or
//   odd in c, so even moments need only the pair sums f_i + f_opp (and f_0), odd
//   moments only the differences f_i - f_opp; M^T likewise builds an even part E
//   and an odd part O per pair: f_i += E + O, f_opp += E - O.
// - m^eq and M F~ are not transforms of Q populations: f^eq is quadratic in u
//   and F~ is bilinear in (u, F), so their moments are a few compile-time
//   coefficients (sum_i M_ki w_i c_ia c_ib ...) times u_a, u_a u_b, F_a, u_a F_b.
//   This holds for both equilibria: they differ only in Eq::velocity_weight.
// - Conserved moments: the mass has m - m^eq = 0 and (M F~)_rho = 0; the momentum
//   has m - m^eq = -F/2 exactly (u = (j + F/2)/rho) and (M F~)_j = F, so with
//   any rate their correction is (M F~)_k / |M_k|^2, and none without a force.
//   Computing the difference would only add round-off, and work.
// - The rates and 1/|M_k|^2 are folded into two per-moment factors, the only
//   run-time data (kernel parameters, read from the constant bank).
// - Without a force (a run-time flag, uniform over the grid) M F~ is skipped.
// Result (sm_90 SASS, D3Q19 FP32, collision alone): ~200 FP instructions a cell
// without force, ~270 with, as many as BGK; the dense version took ~1400.
#pragma once
#include <type_traits>
#include <utility>

#include "physics/equilibrium.hpp"
#include "physics/forcing.hpp"
#include "physics/les.hpp"
#include "physics/moments.hpp"
#include "physics/mrt_basis.hpp"

namespace barracuda::physics {

struct MrtRateSet {
    double shear, energy, energy_square, heat_flux, pi, m;
};

namespace mrt_detail {

/// f(integral_constant<int, 0>) ... f(integral_constant<int, N - 1>): a loop whose
/// index is a constant expression in the body, so that table entries can be
/// tested with `if constexpr` and zero terms never reach the compiler's back end.
template <int N, class F>
BARRACUDA_HD constexpr void static_for(F&& f) {
    [&]<int... I>(std::integer_sequence<int, I...>) {
        (f(std::integral_constant<int, I>{}), ...);
    }(std::make_integer_sequence<int, N>{});
}

/// One row of compile-time coefficients (a template argument of grouped_dot).
template <int N>
struct Coeffs {
    double v[N];
};

/// sum_j C_j x_j over the nonzero C_j. The x_j sharing one coefficient value are
/// added first, in index order, then multiplied once: rows with the same groups
/// (e and eps; 3pxx and 3pixx; ...) then compute the same sums, which the
/// compiler computes once. A coefficient +-1 is an add; a row of zeros is -0.
template <auto C, class T, int N>
BARRACUDA_HD T grouped_dot(const T (&x)[N]) {
    T acc = T(-0.0);  // -0 + y folds to y: no add for the first term
    static_for<N>([&](auto jc) {
        constexpr int j = decltype(jc)::value;
        constexpr bool leads = [] {
            if (C.v[j] == 0) return false;
            for (int l = 0; l < j; ++l)
                if (C.v[l] == C.v[j]) return false;
            return true;
        }();
        if constexpr (leads) {
            T group = x[j];
            static_for<N>([&](auto lc) {
                constexpr int l = decltype(lc)::value;
                if constexpr (l > j && C.v[l] == C.v[j]) group += x[l];
            });
            constexpr T c = T(C.v[j]);  // a constant, not a read of a host table
            acc += c * group;
        }
    });
    return acc;
}

/// Upper-triangle index of the symmetric pair (a, b), a <= b: xx xy xz yy yz zz.
constexpr int sym(int a, int b) { return a <= b ? a * 3 - a * (a - 1) / 2 + (b - a) : sym(b, a); }

/// What the per-cell code needs of the basis on lattice L, computed at compile time.
template <class L>
struct Tables {
    static constexpr int Q = L::Q;
    static constexpr int P = (Q - 1) / 2;  // opposite pairs (2p - 1, 2p), p = 1..P; "pair" 0 is f_0
    // M_k restricted to pair representatives: col[k].v[0] = M_k0, col[k].v[p] = M_k,2p-1
    // (= M_k,2p for even rows, -M_k,2p for odd ones).
    Coeffs<P + 1> col[Q];
    bool odd[Q];
    bool conserved[Q];
    double inv_norm2[Q];  // 1 / sum_i M_ki^2
    // Moments of the shifted equilibrium and of Guo's source, with w_i, c_i from L:
    //   (M (f^eq - w))_k = drho z_k + sum_a a_ka rho_u u_a + sum_{a<=b} b_kab rho_u u_a u_b
    //   (M F~)_k         = sum_a a_ka F_a + sum_{a<=b} b_kab (u_a F_b + u_b F_a)
    // (the source is the derivative of the equilibrium's velocity part along F);
    // b2 is b with its diagonal doubled, the coefficient of u_a F_a.
    double z[Q];
    Coeffs<3> a[Q];
    Coeffs<6> b[Q];  // by sym(a, b)
    Coeffs<6> b2[Q];
    bool valid;  // the lattice has the pair layout and every row a parity
};

constexpr double nearest_integer(double x) {
    return x < 0 ? -static_cast<double>(static_cast<long long>(-x + 0.5))
                 : static_cast<double>(static_cast<long long>(x + 0.5));
}

/// Row k of D3Q13's tables. Its equilibrium is not the weighted polynomial
/// (physics/equilibrium.hpp, d3q13_equilibrium_shifted): per velocity,
///   f_i^eq - w_i = w_i drho + rho_u (sum_a A_ia u_a + sum_ab B_iab u_a u_b)
/// with A_i = c_i / 8 and B_i = (c_i c_i - diag(1 - c_ia^2)) / 8 (rest: B_0 = -I / 2).
/// Every coefficient is a multiple of 1/48: the sums are exact in double.
template <class L>
constexpr void add_d3q13_rows(Tables<L>& t, int k) {
    using B = MrtBasis<L>;
    double n2 = 0, z = 0, a[3]{}, b[3][3]{};
    bool even = true, odd = true;
    for (int i = 0; i < L::Q; ++i) {
        const int c[3] = {L::c(i, 0), L::c(i, 1), L::c(i, 2)};
        const double m = B::row(k, c[0], c[1], c[2]);
        const double mo = B::row(k, -c[0], -c[1], -c[2]);
        even = even && mo == m;
        odd = odd && mo == -m;
        n2 += m * m;
        z += m * L::w(i);
        for (int p = 0; p < 3; ++p) {
            a[p] += m * (i == 0 ? 0.0 : c[p] / 8.0);
            for (int q = 0; q < 3; ++q) {
                const double diag = p == q ? (i == 0 ? -0.5 : -(1 - c[p] * c[p]) / 8.0) : 0.0;
                b[p][q] += m * ((i == 0 ? 0.0 : c[p] * c[q] / 8.0) + diag);
            }
        }
    }
    t.valid = t.valid && (even || odd) && n2 > 0;
    t.odd[k] = !even;
    t.col[k].v[0] = B::row(k, 0, 0, 0);
    for (int p = 1; p <= Tables<L>::P; ++p) t.col[k].v[p] = B::row(k, L::c(2 * p - 1, 0), L::c(2 * p - 1, 1), L::c(2 * p - 1, 2));
    t.conserved[k] = B::rate_class(k) == RateClass::Conserved;
    t.inv_norm2[k] = 1.0 / n2;
    t.z[k] = z;
    for (int p = 0; p < 3; ++p) {
        t.a[k].v[p] = a[p];
        t.b[k].v[sym(p, p)] = b[p][p];
        t.b2[k].v[sym(p, p)] = 2 * b[p][p];
        for (int q = p + 1; q < 3; ++q) t.b[k].v[sym(p, q)] = t.b2[k].v[sym(p, q)] = 2 * b[p][q];
    }
}

template <class L>
constexpr Tables<L> make_tables() {
    using B = MrtBasis<L>;
    constexpr int Q = L::Q;
    Tables<L> t{};
    t.valid = Q % 2 == 1 && L::opposite(0) == 0;
    for (int i = 1; i + 1 < Q; i += 2) {
        t.valid = t.valid && L::opposite(i) == i + 1 && L::opposite(i + 1) == i;
        for (int a = 0; a < 3; ++a) t.valid = t.valid && L::c(i + 1, a) == -L::c(i, a);
    }
    // Exact sums: the weights are rationals with a small common denominator and
    // the basis entries integers or halves, so den * w_i are integers and every
    // sum below is exact in double; one division at the end rounds once.
    double den = 1;
    for (bool whole = false; !whole && den < 1e6;) {
        whole = true;
        for (int i = 0; i < Q; ++i) {
            const double x = L::w(i) * den;
            const double d = x - nearest_integer(x);
            whole = whole && d < 1e-9 && d > -1e-9;
        }
        if (!whole) den += 1;
    }
    t.valid = t.valid && den < 1e6;
    const double inv_cs2 = 1.0 / L::cs2;  // as in equilibrium.hpp and forcing.hpp
    for (int k = 0; k < Q; ++k) {
        if constexpr (std::is_same_v<L, lattice::D3Q13>) {
            add_d3q13_rows<L>(t, k);
            continue;
        }
        double m[Q]{};
        double n2 = 0, s0 = 0, s1[3]{}, s2[3][3]{};
        for (int i = 0; i < Q; ++i) {
            const int c[3] = {L::c(i, 0), L::c(i, 1), L::c(i, 2)};
            m[i] = B::row(k, c[0], c[1], c[2]);
            n2 += m[i] * m[i];
            const double mw = m[i] * nearest_integer(L::w(i) * den);
            s0 += mw;
            for (int a = 0; a < 3; ++a) {
                s1[a] += mw * c[a];
                for (int b = 0; b < 3; ++b) s2[a][b] += mw * c[a] * c[b];
            }
        }
        bool even = true, odd = m[0] == 0;
        for (int i = 1; i + 1 < Q; i += 2) {
            even = even && m[i + 1] == m[i];
            odd = odd && m[i + 1] == -m[i];
        }
        t.valid = t.valid && (even || odd) && n2 > 0;
        t.odd[k] = !even;
        t.col[k].v[0] = m[0];
        for (int p = 1; p <= Tables<L>::P; ++p) t.col[k].v[p] = m[2 * p - 1];
        t.conserved[k] = B::rate_class(k) == RateClass::Conserved;
        t.inv_norm2[k] = 1.0 / n2;
        // From f^eq_i - w_i = w_i [drho + rho_u (c.u / cs2 + (c.u)^2 / (2 cs2^2) - u.u / (2 cs2))].
        t.z[k] = s0 / den;
        for (int a = 0; a < 3; ++a) {
            t.a[k].v[a] = inv_cs2 * s1[a] / den;
            const double diag = 0.5 * (inv_cs2 * inv_cs2 * s2[a][a] - inv_cs2 * s0) / den;
            t.b[k].v[sym(a, a)] = diag;
            t.b2[k].v[sym(a, a)] = 2 * diag;
            for (int b = a + 1; b < 3; ++b)
                t.b[k].v[sym(a, b)] = t.b2[k].v[sym(a, b)] = inv_cs2 * inv_cs2 * s2[a][b] / den;
        }
    }
    return t;
}

template <class L>
struct Table {
    static constexpr Tables<L> value = make_tables<L>();
    static_assert(value.valid, "MRT needs rest first, then opposite pairs (i, i+1), and rows even or odd in c");
};

}  // namespace mrt_detail

template <class L, class Eq, class T>
    requires HasMrt<L>
struct Mrt {
    using Basis = MrtBasis<L>;
    static constexpr int Q = L::Q;
    static constexpr int P = mrt_detail::Tables<L>::P;
    static constexpr mrt_detail::Tables<L> t = mrt_detail::Table<L>::value;

    // Per moment k (conserved ones unused): relax = s_k / |M_k|^2,
    // source = (1 - s_k / 2) / |M_k|^2.
    T relax[Q];
    T source[Q];
    // Smagorinsky LES (physics/les.hpp): the shear moments relax at the cell's own
    // 1/tau_eff; the other rates stay. 0: no LES.
    T les_factor = T(0);
    T tau0 = T(0);  // 1 / s_shear

    static Mrt from_rates(const MrtRateSet& r, double les_factor = 0) {
        Mrt m{};
        m.les_factor = T(les_factor);
        m.tau0 = T(1.0 / r.shear);
        for (int k = 0; k < Q; ++k) {
            double s = 1.0;
            if constexpr (requires { Basis::diagonal_rate(1.0); }) {  // D3Q13: two stress rates (eq. 7)
                if (Basis::rate_class(k) == RateClass::ShearDiagonal) s = Basis::diagonal_rate(1.0 / r.shear);
                if (Basis::rate_class(k) == RateClass::ShearOffDiagonal) s = Basis::off_diagonal_rate(1.0 / r.shear);
            }
            switch (Basis::rate_class(k)) {
                case RateClass::Conserved: s = 1.0; break;
                case RateClass::Shear: s = r.shear; break;
                case RateClass::Energy: s = r.energy; break;
                case RateClass::EnergySquare: s = r.energy_square; break;
                case RateClass::HeatFlux: s = r.heat_flux; break;
                case RateClass::Pi: s = r.pi; break;
                case RateClass::M: s = r.m; break;
                case RateClass::ShearDiagonal:
                case RateClass::ShearOffDiagonal: break;  // set above
            }
            m.relax[k] = T(s * t.inv_norm2[k]);
            m.source[k] = T((1.0 - 0.5 * s) * t.inv_norm2[k]);
        }
        return m;
    }

    /// Returns the rate the shear stress relaxed with (the LES closure's, physics/les.hpp).
    BARRACUDA_HD T operator()(T (&f)[L::Q], const CellState<T>& s, const T (&force)[3], bool forced) const {
        using mrt_detail::grouped_dot;
        using mrt_detail::static_for;
        using mrt_detail::sym;
        // Pair sums feed the even moments, pair differences the odd ones.
        T even[P + 1], odd[P + 1];
        even[0] = f[0];
        odd[0] = T(0);  // no odd row has a rest entry
        static_for<P>([&](auto q) {
            constexpr int p = decltype(q)::value + 1;
            even[p] = f[2 * p - 1] + f[2 * p];
            odd[p] = f[2 * p - 1] - f[2 * p];
        });
        // rho_u u_a and rho_u u_a u_b: the equilibrium moments are combinations of these.
        const T rho_u = Eq::velocity_weight(T(1) + s.drho);
        T ru[3], ruu[6];
        static_for<3>([&](auto ac) {
            constexpr int a = decltype(ac)::value;
            ru[a] = rho_u * s.u[a];
        });
        static_for<3>([&](auto ac) {
            constexpr int a = decltype(ac)::value;
            static_for<3>([&](auto bc) {
                constexpr int b = decltype(bc)::value;
                if constexpr (a <= b) ruu[sym(a, b)] = ru[a] * s.u[b];
            });
        });

        // LES: the shear rows' rate s_eff = scale * s_shear, their source weight
        // (1 - s_eff/2)/|M_k|^2 = source_k - (scale - 1) relax_k / 2. Without LES scale = 1
        // and both are exactly the precomputed ones.
        T scale = T(1), shear = T(1) / tau0;
        if (les_factor > T(0)) shear = smagorinsky_omega<L, Eq>(f, s, tau0, les_factor), scale = shear * tau0;
        // coef_k = -s_k (m - m^eq)_k / |M_k|^2 for the relaxed moments.
        T coef[Q], src_weight[Q];
        static_for<Q>([&](auto kc) {
            constexpr int k = decltype(kc)::value;
            if constexpr (!t.conserved[k]) {
                const T m = t.odd[k] ? grouped_dot<t.col[k]>(odd) : grouped_dot<t.col[k]>(even);
                T meq = grouped_dot<t.a[k]>(ru) + grouped_dot<t.b[k]>(ruu);  // -0 + -0 if none
                constexpr T z = T(t.z[k]);
                if constexpr (z != 0) meq += z * s.drho;
                if constexpr (Basis::rate_class(k) == RateClass::Shear) {
                    coef[k] = relax[k] * scale * (meq - m);
                    src_weight[k] = source[k] - (scale - T(1)) * relax[k] * T(0.5);
                } else {
                    coef[k] = relax[k] * (meq - m);
                    src_weight[k] = source[k];
                }
            }
        });

        if (forced) {
            T uf[6];  // u_a F_a, and u_a F_b + u_b F_a for a < b
            static_for<3>([&](auto ac) {
                constexpr int a = decltype(ac)::value;
                static_for<3>([&](auto bc) {
                    constexpr int b = decltype(bc)::value;
                    if constexpr (a == b) uf[sym(a, b)] = s.u[a] * force[a];
                    else if constexpr (a < b) uf[sym(a, b)] = s.u[a] * force[b] + s.u[b] * force[a];
                });
            });
            // Conserved rows: (M F~)_k / |M_k|^2, added to f through M^T here.
            T cons[Q];
            static_for<Q>([&](auto kc) {
                constexpr int k = decltype(kc)::value;
                const T src = grouped_dot<t.a[k]>(force) + grouped_dot<t.b2[k]>(uf);
                constexpr T inv_n2 = T(t.inv_norm2[k]);
                if constexpr (t.conserved[k]) cons[k] = inv_n2 * src;
                else coef[k] += src_weight[k] * src;
            });
            add_transpose<true>(f, cons);
        }
        add_transpose<false>(f, coef);
        return shear;
    }

private:
    /// f += M^T c over the conserved rows (Conserved) or the relaxed ones, by pairs.
    template <bool Conserved>
    BARRACUDA_HD static void add_transpose(T (&f)[L::Q], const T (&c)[Q]) {
        using mrt_detail::static_for;
        static_for<P + 1>([&](auto pc) {
            constexpr int p = decltype(pc)::value;
            T e = T(-0.0), o = T(-0.0);
            // Rows in basis order: the isotropic ones (e, eps) come first, so
            // pairs of one shell share their first partial sums.
            static_for<Q>([&](auto kc) {
                constexpr int k = decltype(kc)::value;
                constexpr T v = T(t.col[k].v[p]);
                if constexpr (t.conserved[k] == Conserved && v != 0) {
                    if constexpr (t.odd[k]) o += v * c[k];
                    else e += v * c[k];
                }
            });
            if constexpr (p == 0) {
                f[0] += e;
            } else {
                f[2 * p - 1] += e + o;
                f[2 * p] += e - o;
            }
        });
    }
};

}  // namespace barracuda::physics
