// The free-energy model of a binary fluid (seed 003 §2.2.2; Swift, Osborn & Yeomans
// 1995, Phys. Rev. Lett. 75, 830; the equilibria of Kusumaatmaja & Yeomans 2006,
// Math. Comput. Simul. 72, 160, seed 003's ref. 16): the flow's populations f carry
// the density rho of both fluids and their momentum, a second set g on the same
// lattice the order parameter phi = sum_i g_i (+1: fluid A, -1: fluid B). From the
// Landau free energy  psi = a (-phi^2/2 + phi^4/4) + kappa/2 |grad phi|^2,
//
//   mu  = a (-phi + phi^3) - kappa lap phi                      (chemical potential)
//   p0  = rho cs2 + a (-phi^2/2 + 3 phi^4/4)                     (bulk pressure)
//   P   = (p0 - kappa phi lap phi - kappa/2 |grad phi|^2) I + kappa grad phi grad phi
//
// (seed 003 eq. 13 prints p0 with +phi^2/2: with it the normal pressure across a flat
// interface at rest would not be constant; p0 = phi mu - psi_bulk as here makes it so,
// P_nn = rho cs2 + a/4 on both sides). The equilibria have the moments of seed 003
// eqs. 14-15,
//
//   sum f^eq = rho, sum f^eq c = rho u, sum f^eq c c = P + rho u u,
//   sum g^eq = phi, sum g^eq c = phi u, sum g^eq c c = Gamma mu I + phi u u,
//
// which recover the Navier-Stokes equations with the pressure tensor P and the
// Cahn-Hilliard equation d_t phi + div(phi u) = M lap mu, M = Gamma (tau_phi - 1/2)
// (seed 003 eq. 12). How the moments are shared out over the velocities is written
// once for every lattice with a rest velocity:
//  - the velocity terms are the flow's own second-order equilibrium (of rho, and of
//    phi in place of rho for g);
//  - an isotropic pressure-like term P_iso goes to the moving velocities as
//    w_i P_iso / cs2, the rest velocity taking what keeps the zeroth moment
//    (Kusumaatmaja & Yeomans' form: in a pure fluid at rest g is phi at the rest
//    velocity alone, f the flow's plain equilibrium);
//  - the term kappa (d_a phi d_b phi - |grad phi|^2 / 2 delta_ab) as Kusumaatmaja &
//    Yeomans' w_i^{ab} do on D2Q9, written for any lattice (gradient_share: the
//    choice of its fourth moments sets the spurious currents, measured there).
// The gradient and Laplacian of phi are the lattice's isotropic stencils
// (kernel/free_energy.hpp), d_a phi = sum_i w_i c_ia phi(x + c_i) / cs2 and
// lap phi = 2 sum_i w_i (phi(x + c_i) - phi(x)) / cs2, which on D2Q9 are the 9-point
// stencils Pooley & Furtado 2008 (Phys. Rev. E 77, 046702, seed 003's ref. 17) show
// to reduce the spurious currents; they read the first ring of neighbours only.
//
// Both sets relax by BGK, f with tau_rho = tau_B + (phi + 1)/2 (tau_A - tau_B) (seed
// 003 §2.2.2: fluid A's tau at phi = +1, the convention seed 003's tau formula uses;
// its text names phi = -1 the first component), g with tau_phi. A body force enters
// f by the exact difference method (seed 003 uses it for the binary Poiseuille flow,
// §5.3), and g is advected with the fluid's velocity v = (j + F/2) / rho.
//
// Interface: phi = tanh(x / w), w = sqrt(2 kappa / a) (seed 003's width
// xi = 2 sqrt(2 kappa / a) = 2 w), surface tension gamma = sqrt(8 kappa a / 9).
#pragma once
#include <cmath>
#include <numbers>

#include "common/hd.hpp"
#include "physics/equilibrium.hpp"
#include "physics/forcing.hpp"

namespace barracuda::physics {

/// The free energy's constants (seed 003 §2.2.2): a (the bulk term's strength), kappa
/// (the gradient term's) and Gamma (the mobility's, M = Gamma (tau_phi - 1/2)).
struct FreeEnergyParameters {
    double a = 0.02;
    double kappa = 0.04;
    double gamma = 1.0;
    bool operator==(const FreeEnergyParameters&) const = default;
};

/// Gamma (2 a + 16 kappa / 3): the order parameter's equilibrium second moment Gamma mu
/// changes by this much per unit of phi at the lattice's shortest wave (the isotropic
/// Laplacian's largest eigenvalue, 16/3 on D2Q9 and D3Q19). Measured on D2Q9 (a drop,
/// tau_phi 0.75 to 2.6): stable up to 0.63 and 0.73 (a = 0.02 and 0.04), diverging from
/// 0.76 and 1.07; tau_phi does not move the bound. sim/case_check.cpp refuses above 0.6.
inline double mobility_stiffness(const FreeEnergyParameters& p) { return p.gamma * (2 * p.a + 16.0 / 3 * p.kappa); }

/// gamma = sqrt(8 kappa a / 9): the integral of kappa phi'^2 over the tanh profile.
inline double surface_tension(const FreeEnergyParameters& p) { return std::sqrt(8 * p.kappa * p.a / 9); }

/// w = sqrt(2 kappa / a): phi = tanh(x / w) across a flat interface.
inline double interface_width(const FreeEnergyParameters& p) { return std::sqrt(2 * p.kappa / p.a); }

/// The bulk pressure p0 = rho cs2 + a (-phi^2/2 + 3 phi^4/4) (the pressure of the
/// header's P away from interfaces; rho cs2 + a/4 in either pure fluid).
inline double free_energy_pressure(const FreeEnergyParameters& p, double rho, double phi, double cs2) {
    const double phi2 = phi * phi;
    return rho * cs2 + p.a * (-0.5 * phi2 + 0.75 * phi2 * phi2);
}

// Wetting (Briant & Yeomans 2004, Phys. Rev. E 69, 031603; Cahn 1977): a surface free
// energy -h phi_s at the wall adds the boundary condition kappa d_n phi = -h (d_n the
// derivative along the wall's normal into the fluid): h > 0 raises phi at the wall,
// fluid A (+1) wets. Each pure phase against the wall then has the profile of the bulk
// free energy's first integral, kappa |phi'| = sqrt(kappa a / 2) |1 - phi^2|, which sets
// phi_s and the wall tensions gamma_SA, gamma_SB; Young's law cos theta = (gamma_SB -
// gamma_SA) / gamma gives
//   cos theta = ((1 + w)^(3/2) - (1 - w)^(3/2)) / 2,   w = h / sqrt(kappa a / 2),
// theta measured in fluid A. Its inverse, with alpha = arccos(sin^2 theta):
//   h = sqrt(2 kappa a) sign(pi/2 - theta) sqrt(cos(alpha/3) (1 - cos(alpha/3)))
// (Briant & Yeomans' eq. 16; their Omega is w / 2). tests/test_free_energy.cpp checks both
// against each other and a sessile drop against theta.

/// The wetting potential h of a contact angle theta (radians, in fluid A: phi = +1).
inline double wetting_potential(const FreeEnergyParameters& p, double theta) {
    const double alpha = std::acos(std::sin(theta) * std::sin(theta));
    const double c = std::cos(alpha / 3);
    const double sign = theta < std::numbers::pi / 2 ? 1.0 : theta > std::numbers::pi / 2 ? -1.0 : 0.0;
    return std::sqrt(2 * p.kappa * p.a) * sign * std::sqrt(c * (1 - c));
}

/// Young's contact angle (radians, in fluid A) of a wetting potential h.
inline double contact_angle(const FreeEnergyParameters& p, double h) {
    const double w = h / std::sqrt(p.kappa * p.a / 2);
    return std::acos((std::pow(1 + w, 1.5) - std::pow(1 - w, 1.5)) / 2);
}

/// The share of an isotropic second moment s I at velocity i: w_i s / cs2 for a moving
/// velocity, minus the moving ones' sum at rest (zero zeroth moment).
template <class L, class T>
BARRACUDA_HD T isotropic_share(int i, T s) {
    constexpr T inv_cs2 = T(1.0 / L::cs2);
    return i == 0 ? -T(1.0 - L::w(0)) * inv_cs2 * s : T(L::w(i)) * inv_cs2 * s;
}

/// sum_i w_i |c_i|^4 (c_i)_x^2 and sum_i w_i |c_i|^4 over a lattice: the moments that size
/// gradient_share's isotropic term.
template <class L>
constexpr double quartic_moment(bool with_cx2) {
    double sum = 0;
    for (int i = 0; i < L::Q; ++i) {
        const double c2 = L::c(i, 0) * L::c(i, 0) + L::c(i, 1) * L::c(i, 1) + L::c(i, 2) * L::c(i, 2);
        sum += L::w(i) * c2 * c2 * (with_cx2 ? L::c(i, 0) * L::c(i, 0) : 1);
    }
    return sum;
}

/// What the order parameter's gradient adds to f_i^eq besides the isotropic pressure: the
/// second moment kappa (grad phi grad phi - |grad phi|^2 / 2 I) as
///   w_i kappa [(c.g)^2 / (2 cs4) - |c|^4 g^2 / N],  N = sum_j w_j |c_j|^4 c_jx^2,
/// on the moving velocities, the rest velocity taking what keeps the zeroth moment. On
/// D2Q9 these are Kusumaatmaja & Yeomans' w_i^{ab} (axis 1/3 and -1/6, diagonal -1/24 and
/// +-1/4, rest -1/6). The second-order Hermite projection of the same tensor has the same
/// moments up to the second but another fourth: measured on a drop (D2Q9, R = 16, a = 0.02,
/// kappa = 0.04, tau = 1), spurious currents of 6.1e-4 with it against 9.0e-5 with these
/// (3.1e-4 and 3.2e-4 with half and 1.5 times the |c|^4 term: these weights are the
/// optimum of that family). The fourth moments enter the lattice's divergence of the
/// pressure tensor at third order, where they meet phi grad mu's discretisation.
template <class L, class T>
BARRACUDA_HD T gradient_share(int i, T kappa, const T (&grad)[3]) {
    constexpr T half_inv_cs4 = T(1.0 / (2 * L::cs2 * L::cs2));
    constexpr T inv_n = T(1.0 / quartic_moment<L>(true));
    const T g2 = grad[0] * grad[0] + grad[1] * grad[1] + grad[2] * grad[2];
    if (i == 0) {
        // minus the moving velocities' sum: g^2 / (2 cs2) - g^2 sum_j w_j |c_j|^4 / N
        constexpr T rest = T(1.0 / (2 * L::cs2) - quartic_moment<L>(false) / quartic_moment<L>(true));
        return -kappa * rest * g2;
    }
    const T cg = T(L::c(i, 0)) * grad[0] + T(L::c(i, 1)) * grad[1] + T(L::c(i, 2)) * grad[2];
    const T c2 = T(L::c(i, 0) * L::c(i, 0) + L::c(i, 1) * L::c(i, 1) + L::c(i, 2) * L::c(i, 2));
    return T(L::w(i)) * kappa * (half_inv_cs4 * cg * cg - inv_n * c2 * c2 * g2);
}

/// The local state of the free-energy model at a cell: the moments and what the
/// equilibria need. f and g are stored shifted (f_i - w_i, g_i - w_i).
template <class T>
struct FreeEnergyState {
    T rho, phi, mu;
    T drho, dphi;  // rho - 1 and phi - 1 as the populations' sums (not rounded through 1 + x)
    T u[3];  // the equilibrium's velocity j / rho (the exact difference method adds the force after)
    T v[3];  // the fluid's velocity (j + F/2) / rho: g's advection and what output reports
};

template <class L, class T>
BARRACUDA_HD FreeEnergyState<T> free_energy_state(const T (&f)[L::Q], const T (&g)[L::Q], T lap,
                                                  const T (&body)[3], const FreeEnergyParameters& p) {
    FreeEnergyState<T> s;
    T drho = T(0), dphi = T(0), j[3] = {T(0), T(0), T(0)};
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) {
        drho += f[i], dphi += g[i];
        BARRACUDA_UNROLL
        for (int a = 0; a < L::D; ++a)
            if (L::c(i, a)) j[a] += T(L::c(i, a)) * f[i];
    }
    s.rho = T(1) + drho, s.phi = T(1) + dphi;
    s.drho = drho, s.dphi = dphi;
    const T inv = T(1) / s.rho;
    BARRACUDA_UNROLL
    for (int a = 0; a < 3; ++a) s.u[a] = j[a] * inv, s.v[a] = (j[a] + T(0.5) * body[a]) * inv;
    s.mu = T(p.a) * s.phi * (s.phi * s.phi - T(1)) - T(p.kappa) * lap;
    return s;
}

/// One step's collision of both sets at a cell (the header): grad and lap the order
/// parameter's at the cell (the stencils of kernel/free_energy.hpp), body the body force
/// density, tau_a and tau_b the two fluids' relaxation times, omega_phi = 1 / tau_phi.
template <class L, class Eq, class T>
BARRACUDA_HD void free_energy_collide(T (&f)[L::Q], T (&g)[L::Q], const T (&grad)[3], T lap, const T (&body)[3],
                                      const FreeEnergyParameters& p, T tau_a, T tau_b, T omega_phi) {
    const FreeEnergyState<T> s = free_energy_state<L>(f, g, lap, body, p);
    const T phi = s.phi, phi2 = phi * phi;
    // P_iso - rho cs2 less the gradient term's isotropic part (in gradient_share), gauged
    // by a/4 so that a pure fluid's f^eq is the flow's own.
    const T kappa = T(p.kappa);
    const T pressure = T(p.a) * (T(-0.5) * phi2 + T(0.75) * phi2 * phi2 - T(0.25)) - kappa * phi * lap;
    const T mobility = T(p.gamma) * s.mu - T(L::cs2) * phi;  // g's isotropic second moment less phi cs2
    // tau_rho from phi clamped to [-1, 1]: a few per cent of overshoot at an interface
    // must not give a tau outside the two fluids'.
    const T share = (phi > T(1) ? T(1) : phi < T(-1) ? T(-1) : phi) * T(0.5) + T(0.5);
    const T omega_rho = T(1) / (tau_b + share * (tau_a - tau_b));
    const T drho = s.drho, dphi = s.dphi;
    T du[3];
    BARRACUDA_UNROLL
    for (int a = 0; a < 3; ++a) du[a] = body[a] / s.rho;
    T moving = T(0);  // sum of g over the moving velocities after the collision
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) {
        const T feq = equilibrium_shifted<L, Eq>(i, drho, s.u) + isotropic_share<L>(i, pressure) +
                      gradient_share<L>(i, kappa, grad);
        const T geq = equilibrium_shifted<L, Compressible>(i, dphi, s.v) + isotropic_share<L>(i, mobility);
        f[i] += omega_rho * (feq - f[i]) + edm_source<L, Eq>(i, drho, s.u, du);
        g[i] += omega_phi * (geq - g[i]);
        if (i != 0) moving += g[i];
    }
    // The rest velocity takes what conserves sum g: it holds phi itself (magnitude 1, where
    // the moving ones hold ~1e-2), and its own update's rounding, the same in every bulk cell
    // of a phase, drifted sum phi systematically in FP32 (a flat interface, 4000 steps: 6.6e-5
    // a cell with it, 5.1e-6 with this; tests/test_free_energy.cpp).
    g[0] = dphi - moving;
}

/// g_i^eq - w_i of (phi, u) at mu = 0: the initial order parameter (where an initial
/// interface is the equilibrium profile, mu = 0 is its chemical potential; elsewhere the
/// first steps relax g towards Gamma mu).
template <class L, class T>
BARRACUDA_HD T order_parameter_initial(int i, T phi, const T (&u)[3]) {
    return equilibrium_shifted<L, Compressible>(i, phi - T(1), u) + isotropic_share<L>(i, -T(L::cs2) * phi);
}

}  // namespace barracuda::physics
