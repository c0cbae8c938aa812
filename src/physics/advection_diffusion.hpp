// A scalar (temperature) advected by the flow and diffusing: its equilibrium,
// its collision and the Boussinesq buoyancy it exerts on the flow, per cell.
//
// Equilibrium (Guo, Shi & Zheng 2002, eq. 9 for D2Q4; the same form on every
// scalar set of lattice/scalar_sets.hpp):
//     g_i^eq = w_i theta (1 + c_i.u / cs2),
// whose zeroth moment is theta and first moment theta u: the advection-diffusion
// equation d_t theta + u.grad theta = D lap theta with D = cs2 (tau_T - 1/2)
// follows by the Chapman-Enskog expansion. Seed 004 (§2.2) prints the D3Q6
// equilibrium as T/6 (1 + 2 e_i.u / c): the factor 2 is 1/cs2 of Guo's D2Q4
// and would advect the temperature at 2/3 of u on D3Q6 (sum_i (1/6) 2 c_i c_i
// = 2/3); its own diffusivity D = (2 tau_T - 1)/6 is cs2 = 1/3's, so the factor
// here is 1/cs2 = 3.
//
// Collision: two relaxation times (Ginzburg 2005, "Equilibrium-type and link-type
// lattice Boltzmann models for generic advection and anisotropic-dispersion
// equation", Adv. Water Resour. 28): the antisymmetric part of each link pair,
// which carries the flux, relaxes at omega_minus and sets D = cs2 (1/omega_minus
// - 1/2); the symmetric part relaxes at omega_plus, chosen through
// Lambda = (1/omega_plus - 1/2)(1/omega_minus - 1/2). BGK is omega_plus =
// omega_minus. With Lambda fixed, where a wall lies (bounce-back, anti-bounce-back)
// no longer depends on tau_T. On these sets the antisymmetric part of the link
// pairs is exactly the first moment, so omega_plus = 1 (the symmetric part set to
// its equilibrium each step) is the regularized scheme: only the diffusive flux
// carries non-equilibrium (Latt & Chopard's regularization applied to the scalar).
// It is the robust choice at tau_T near 1/2, where BGK (omega_plus near 2) leaves
// the symmetric non-equilibrium undamped and TRT with a fixed Lambda lets omega_plus
// go to 0.
//
// Buoyancy (Boussinesq): F = -rho_0 beta (T - T_0) g (seed 004 eq. 3-4) enters the
// flow through Guo's forcing (Guo, Zheng & Shi 2002, Phys. Rev. E 65, 046308,
// eq. 20), F_i = (1 - 1/(2 tau)) w_i [(c_i - u)/cs2 + (c_i.u) c_i / cs2^2] . F,
// with u = (sum_i c_i f_i + F/2) / rho (physics/forcing.hpp). Seed 004 prints it
// with 1 in place of Guo's 1/cs2 = 3 and 1/cs2^2 = 9: as printed the force would
// be a ninth to a third of F. Both equilibria (the flow's and the scalar's) use
// the half-force velocity.
#pragma once
#include <cmath>

#include "common/hd.hpp"
#include "lattice/lattice.hpp"

namespace barracuda::physics {

/// g_i^eq = w_i theta (1 + c_i.u / cs2).
template <class Ls, class T>
BARRACUDA_HD T scalar_equilibrium(int i, T theta, const T (&u)[3]) {
    T cu = T(0);
    BARRACUDA_UNROLL
    for (int a = 0; a < 3; ++a)
        if (Ls::c(i, a)) cu += T(Ls::c(i, a)) * u[a];
    return T(Ls::w(i)) * theta * (T(1) + cu * T(1.0 / Ls::cs2));
}

/// theta = sum_i g_i.
template <class Ls, class T>
BARRACUDA_HD T scalar_density(const T (&g)[Ls::Q]) {
    T s = T(0);
    BARRACUDA_UNROLL
    for (int i = 0; i < Ls::Q; ++i) s += g[i];
    return s;
}

/// Lambda's value that asks for omega_plus = 1 (the regularized scalar collision).
inline constexpr double regularized_lambda = -1;

/// omega_plus of relaxation time tau_T with Lambda: 1 / (Lambda / (tau_T - 1/2) + 1/2);
/// Lambda 0: BGK (1 / tau_T); regularized_lambda: 1.
template <class R>
BARRACUDA_HD R scalar_omega_plus(R tau, R lambda) {
    return lambda > R(0) ? R(1) / (lambda / (tau - R(0.5)) + R(0.5)) : lambda < R(0) ? R(1) : R(1) / tau;
}

/// Relaxation rates of the scalar's collision from its diffusivity (lattice units)
/// and Lambda (0: BGK, one rate; regularized_lambda: omega_plus = 1).
struct ScalarRates {
    double omega_plus = 1, omega_minus = 1;
    static ScalarRates from(double diffusivity, double cs2, double lambda) {
        const double tau = diffusivity / cs2 + 0.5;
        ScalarRates r;
        r.omega_minus = 1.0 / tau;
        r.omega_plus = scalar_omega_plus(tau, lambda);
        return r;
    }
};

/// The scalar's TRT collision (BGK when the two rates are equal), in place.
template <class Ls, class T>
struct ScalarTrt {
    T omega_plus, omega_minus;

    /// The rates of relaxation time tau_T with Lambda (0: BGK), for a cell whose
    /// diffusivity an eddy diffusivity raises (LES, physics/les.hpp).
    BARRACUDA_HD static ScalarTrt of_tau(T tau, T lambda) {
        return {scalar_omega_plus(tau, lambda), T(1) / tau};
    }

    /// A pair of opposite velocities at a time, as the flow's TRT (collision_trt.hpp):
    ///   g*_i = a g_i + b g_o + omega+ w_i theta + omega- w_i theta c_i.u / cs2,
    ///   g*_o = a g_o + b g_i + omega+ w_i theta - omega- w_i theta c_i.u / cs2,
    /// a = 1 - (omega+ + omega-)/2, b = (omega- - omega+)/2: the even and odd parts of g_i
    /// relaxed towards those of g_i^eq = w_i theta (1 + c_i.u / cs2).
    BARRACUDA_HD void operator()(T (&g)[Ls::Q], T theta, const T (&u)[3]) const {
        const T a = T(1) - T(0.5) * (omega_plus + omega_minus), b = T(0.5) * (omega_minus - omega_plus);
        BARRACUDA_UNROLL
        for (int i = 0; i < Ls::Q; ++i) {
            const int o = Ls::opposite(i);
            if (o < i) continue;
            const T even = unfused_product(omega_plus * T(Ls::w(i)), theta);  // one way to fuse (common/hd.hpp)
            if (o == i) {
                g[i] = (T(1) - omega_plus) * g[i] + even;
            } else {
                // Unfused: added in one output and subtracted in the other (forcing.hpp, guo_pair).
                const T odd = unfused_product((omega_minus * T(Ls::w(i) / Ls::cs2)) * theta, lattice::c_dot<Ls>(i, u));
                const T gi = g[i], go = g[o];
                g[i] = a * gi + (b * go + (even + odd));
                g[o] = a * go + (b * gi + (even - odd));
            }
        }
    }
};

}  // namespace barracuda::physics
