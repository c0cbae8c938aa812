// TRT (two relaxation times; Ginzburg, Verhaeghe & d'Humières 2008): the even
// and odd parts of f relax with omega+ (viscosity) and omega- (free), tied by
// the magic parameter Lambda = (1/omega+ - 1/2)(1/omega- - 1/2).
// Lambda = 3/16 puts half-way bounce-back walls exactly half-way for Poiseuille flow.
// Guo's source is split the same way: (1 - omega+/2) F~+ + (1 - omega-/2) F~-.
// With Smagorinsky LES (physics/les.hpp) omega+ is the cell's own 1/tau_eff and
// omega- follows from the same Lambda, so walls stay where TRT puts them.
#pragma once
#include <type_traits>

#include "physics/equilibrium.hpp"
#include "physics/forcing.hpp"
#include "physics/les.hpp"
#include "physics/moments.hpp"

namespace barracuda::physics {

/// omega- = 1/tau- for the magic parameter Lambda = (tau+ - 1/2)(tau- - 1/2). Also the
/// default rate of MRT's odd moments (sim::mrt_rates), so that they relax as TRT's do.
template <class T>
BARRACUDA_HD T trt_omega_minus(T tau_plus, T magic) {
    return T(1) / (T(0.5) + magic / (tau_plus - T(0.5)));
}

template <class L, class Eq, class T>
struct Trt {
    T omega_plus, omega_minus;
    T les_factor = T(0);  // physics::smagorinsky_factor(C); 0: no LES
    T tau0 = T(0);        // 1 / omega+, for the LES closure
    T magic = T(0);       // Lambda, for the LES closure

    static Trt from_tau(double tau, double magic, double les_factor = 0) {
        return Trt{T(1.0 / tau), T(trt_omega_minus(tau, magic)), T(les_factor), T(tau), T(magic)};
    }

    /// Returns the rate the stress relaxed with, omega+ (the LES closure's, physics/les.hpp).
    BARRACUDA_HD T operator()(T (&f)[L::Q], const CellState<T>& s, const T (&force)[3], bool forced) const {
        T omega_p = omega_plus, omega_m = omega_minus;
        if (les_factor > T(0)) {
            omega_p = smagorinsky_omega<L, Eq>(f, s, tau0, les_factor);
            omega_m = trt_omega_minus(T(1) / omega_p, magic);
        }
        T out[L::Q];
        const T wp = T(1) - T(0.5) * omega_p, wm = T(1) - T(0.5) * omega_m;
        const T drho = s.drho, u[3] = {s.u[0], s.u[1], s.u[2]};  // locals: see Bgk
        const EquilibriumCell<T> e = equilibrium_cell<L, Eq>(drho, u);
        if constexpr (std::is_same_v<L, lattice::D3Q13>) {
            T feq[L::Q];
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) feq[i] = equilibrium_shifted<L, Eq>(i, drho, u);
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) {
                const int o = L::opposite(i);
                const T feq_i = feq[i], feq_o = feq[o];
                const T neq_plus = T(0.5) * ((f[i] + f[o]) - (feq_i + feq_o));
                const T neq_minus = T(0.5) * ((f[i] - f[o]) - (feq_i - feq_o));
                out[i] = f[i] - omega_p * neq_plus - omega_m * neq_minus;
            }
        } else {
            // A pair (i, o) at a time: with f^eq = w_i (even +- odd) (equilibrium_pair),
            //   f*_i = a f_i + b f_o + omega+ w_i even + omega- w_i odd,
            //   f*_o = a f_o + b f_i + omega+ w_i even - omega- w_i odd,
            // a = 1 - (omega+ + omega-)/2, b = (omega- - omega+)/2: the rates folded into
            // the pair's terms and two per-cell factors.
            const T a = T(1) - T(0.5) * (omega_p + omega_m), b = T(0.5) * (omega_m - omega_p);
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) {
                const int o = L::opposite(i);
                if (o < i) continue;
                const T even = equilibrium_pair<L>(i, e, omega_p * T(L::w(i))).even;
                if (o == i) {
                    out[i] = (T(1) - omega_p) * f[i] + even;
                } else {
                    const T odd = equilibrium_pair<L>(i, e, omega_m * T(L::w(i))).odd;
                    out[i] = a * f[i] + (b * f[o] + (even + odd));
                    out[o] = a * f[o] + (b * f[i] + (even - odd));
                }
            }
        }
        // The source's even part relaxes with omega+, its odd part with omega-; behind one
        // test, not one per population (collision_bgk.hpp).
        if (forced) add_guo_source<L>(out, e, u, force, wp, wm, [](int) { return T(-0.0); });
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) f[i] = out[i];
        return omega_p;
    }
};

}  // namespace barracuda::physics
