// The single-component Shan-Chen (pseudopotential) model of a liquid and its
// vapour: a non-local interaction force between neighbouring nodes
//
//   F(x) = -G psi(x) sum_i w_i psi(x + c_i) c_i                   (Shan & Chen 1993,
//                                                                  Phys. Rev. E 47, 1815)
//
// with the lattice weights w_i (sum_i w_i c_i c_i = cs2 I), which gives the
// bulk equation of state
//
//   p(rho) = rho cs2 + G cs2 psi(rho)^2 / 2                       (Shan & Chen 1994,
//                                                                  Phys. Rev. E 49, 2941)
//
// Two pseudopotentials (physics::Pseudopotential):
//  - exponential: psi = rho0 (1 - exp(-rho / rho0)), the original; G < 0
//    attracts, the critical coupling is G_c = -4 (rho0 = 1, with these weights),
//    liquid and vapour coexist below it (G = -5: densities about 1.93 and 0.16);
//  - carnahan-starling: psi = sqrt(2 (p_CS(rho) - rho cs2) / (G cs2)) with
//    Carnahan & Starling's equation of state
//      p_CS = rho R T (1 + eta + eta^2 - eta^3) / (1 - eta)^3 - a rho^2,  eta = b rho / 4
//    (Yuan & Schaefer 2006, Phys. Fluids 18, 042101, eq. 13-16), so that the bulk
//    pressure above is p_CS; G only fixes psi's sign convention (G = -1), the
//    temperature T sets the coexistence (T_c = 0.3773 a / (b R)). Larger density
//    ratios than the exponential form at the same stability.
// Carnahan-Starling's coexistence is not Maxwell's with the force above: a flat
// interface's mechanical equilibrium, integral (p0 - p) psi'/psi drho = 0 (Shan & Chen
// 1994), is Maxwell's integral (p0 - p)/rho^2 drho = 0 only for psi = exp(-rho0/rho)
// (the inverse exponential), and Carnahan-Starling's psi is fixed by its pressure (vapour
// 41% below Maxwell's at 0.7 T_c, 85% at 0.6 T_c, with the exact difference method). The
// mixed force (Kupershtokh, Medvedev & Karpov 2009, Comput. Math. Appl. 58, 965; in this
// form Gong & Cheng 2012, Comput. Fluids 53, 93)
//   F(x) = -G [beta psi(x) sum_i w_i psi(x + c_i) c_i + (1 - beta)/2 sum_i w_i psi(x + c_i)^2 c_i]
// has the same bulk pressure (both terms tend to psi grad psi) and moves the interface's
// equilibrium with beta (`mixing`): beta = 1.2215 with the exact difference method puts
// Carnahan-Starling's vapour within 1.5% of Maxwell's from 0.5 to 0.9 T_c, the liquid
// within 0.01% (calibrated here on flat interfaces, tests/test_shan_chen.cpp; the same at
// tau = 0.7 and 1.5, as the exact difference method adds no tau-dependent pressure; 10%
// off at 0.45 T_c), the default for it. Guo's forcing adds a pressure of its own: with it
// the same beta leaves the vapour 44% low at 0.8 T_c.
// The force enters through the forcing scheme of the run (Guo or the exact
// difference method, physics/forcing.hpp), with the half-force velocity in the
// equilibrium: u = (j + F/2) / rho.
//
// Two components A and B (seed 003 §2.2.1; Shan & Chen 1993), each its own
// populations on the flow's lattice with its own relaxation time, coupled by
//
//   F_A(x) = -G psi_A(x) sum_i w_i psi_B(x + c_i) c_i,   F_B likewise with A and B swapped,
//
// psi = rho (linear, the default) or rho0 (1 - exp(-rho / rho0)); G > 0 repels the
// components (seed 003 eq. 10
// prints the sum without the minus sign: with it, as here, the single-component and
// binary models share one sign convention, G > 0 repulsive). Both relax towards
// equilibria at the common velocity
//
//   u' = (rho_A u_A / tau_A + rho_B u_B / tau_B) / (rho_A / tau_A + rho_B / tau_B),
//
// u_s = j_s / rho_s each component's velocity from its moments, which makes the
// collision conserve the total momentum whatever the two tau, and the force acts on
// each by the exact difference method (Kupershtokh 2004; seed 003 eq. 18, §5.3):
// f_i += f_i^eq(rho_s, u' + F_s / rho_s) - f_i^eq(rho_s, u') (binary_collide: what this
// choice of u_s does at an interface). The
// fluid's velocity is v = (rho_A u_A + rho_B u_B + (F_A + F_B) / 2) / (rho_A + rho_B),
// the bulk pressure p = cs2 (rho_A + rho_B) + G cs2 psi_A psi_B.
#pragma once
#include <cmath>

#include "common/hd.hpp"
#include "physics/equilibrium.hpp"
#include "physics/forcing.hpp"

namespace barracuda::physics {

/// Linear (psi = rho): the two-component model's usual choice (Martys & Chen 1996, Phys.
/// Rev. E 53, 743; Sailfish's default), not the single component's (no stable liquid).
/// InverseExponential (psi = exp(-rho0 / rho)): the one whose coexistence is Maxwell's. A
/// flat interface of the Shan-Chen force is in mechanical equilibrium where
/// integral (p0 - p) psi'/psi drho = 0 between the phases (Shan & Chen 1994, Phys. Rev. E
/// 49, 2941, with a forcing that adds no pressure of its own: Guo's), and Maxwell's
/// equal-area rule is integral (p0 - p) / rho^2 drho = 0; the two are one where psi'/psi
/// is proportional to 1/rho^2, i.e. psi = exp(-rho0 / rho) (as Lycett-Brown & Luo 2015,
/// Phys. Rev. E 91, 023305, use it). Measured within 0.3% of Maxwell with Guo's forcing,
/// 9% off with the exact difference method (tests/test_shan_chen.cpp).
enum class Pseudopotential { Exponential, CarnahanStarling, Linear, InverseExponential };

/// The mixed force's beta that makes Carnahan-Starling's coexistence Maxwell's with the
/// exact difference method (the header; a case's default for that pseudopotential).
inline constexpr double carnahan_starling_mixing = 1.2215;

/// The model's constants, in lattice units.
struct ShanChenParameters {
    Pseudopotential psi = Pseudopotential::Exponential;
    double g = -5.0;     // G: the interaction strength (negative attracts)
    double rho0 = 1.0;   // exponential: psi = rho0 (1 - exp(-rho / rho0)); inverse: exp(-rho0 / rho)
    double a = 1.0;      // Carnahan-Starling: attraction a, repulsion b, gas constant R, temperature T
    double b = 4.0;
    double r = 1.0;
    double temperature = 0.0;
    double mixing = 1.0;  // beta of the mixed force (the header): 1 is Shan & Chen's

    /// Carnahan-Starling's pressure at density rho.
    BARRACUDA_HD double carnahan_starling(double rho) const {
        const double eta = b * rho / 4;
        const double e = 1 - eta;
        return rho * r * temperature * (1 + eta + eta * eta - eta * eta * eta) / (e * e * e) - a * rho * rho;
    }
    /// The critical temperature of Carnahan-Starling's equation (Yuan & Schaefer 2006).
    double critical_temperature() const { return 0.3773 * a / (b * r); }
    bool operator==(const ShanChenParameters&) const = default;
};

/// psi(rho). cs2: the lattice's. Carnahan-Starling's radicand is clamped at zero:
/// where p_CS exceeds rho cs2 (dense liquid far above its saturation density, not a
/// state a run reaches at the temperatures offered) psi has no real value.
/// In double whatever the storage: the macro-field pass evaluates it once per cell.
BARRACUDA_HD double pseudopotential(const ShanChenParameters& p, double rho, double cs2) {
    using std::exp, std::sqrt;
    if (p.psi == Pseudopotential::Exponential) return p.rho0 * (1 - exp(-rho / p.rho0));
    if (p.psi == Pseudopotential::Linear) return rho;
    if (p.psi == Pseudopotential::InverseExponential) return rho > 0 ? exp(-p.rho0 / rho) : 0.0;
    const double radicand = 2 * (p.carnahan_starling(rho) - rho * cs2) / (p.g * cs2);
    return sqrt(radicand > 0 ? radicand : 0.0);
}

/// The bulk pressure p(rho) = rho cs2 + G cs2 psi^2 / 2 (the equation of state the
/// force gives; Carnahan-Starling's p_CS for that pseudopotential, up to the clamp).
inline double shan_chen_pressure(const ShanChenParameters& p, double rho, double cs2) {
    const double psi = pseudopotential(p, rho, cs2);
    return rho * cs2 + p.g * cs2 * psi * psi / 2;
}

/// The two-component bulk pressure p = cs2 (rho_A + rho_B) + G cs2 psi_A psi_B.
inline double binary_pressure(const ShanChenParameters& p, double rho_a, double rho_b, double cs2) {
    return cs2 * (rho_a + rho_b) + p.g * cs2 * pseudopotential(p, rho_a, cs2) * pseudopotential(p, rho_b, cs2);
}

/// Density and momentum of one component's populations (stored as f_i - w_i).
template <class L, class T>
BARRACUDA_HD void component_moments(const T (&f)[L::Q], T& rho, T (&j)[3]) {
    T drho = T(0);
    j[0] = j[1] = j[2] = T(0);
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) {
        drho += f[i];
        BARRACUDA_UNROLL
        for (int a = 0; a < L::D; ++a)
            if (L::c(i, a)) j[a] += T(L::c(i, a)) * f[i];
    }
    rho = T(1) + drho;
}

/// The forces on A and B at a cell: the interaction's (interaction_a, _b) and a body force
/// density shared by mass fraction (each component accelerated alike).
template <class T>
BARRACUDA_HD void component_forces(T rho_a, T rho_b, const T (&interaction_a)[3], const T (&interaction_b)[3],
                                   const T (&body)[3], T (&force_a)[3], T (&force_b)[3]) {
    const T share_a = rho_a / (rho_a + rho_b), share_b = T(1) - share_a;
    BARRACUDA_UNROLL
    for (int a = 0; a < 3; ++a) {
        force_a[a] = interaction_a[a] + share_a * body[a];
        force_b[a] = interaction_b[a] + share_b * body[a];
    }
}

/// One step's collision of both components at a cell (BGK, rates omega_a = 1 / tau_A and
/// omega_b), each with its force (component_forces) by the exact difference method,
/// towards the common velocity (the header). f: A's populations, g: B's, both f_i - w_i,
/// in and out.
///
/// The components' velocities in the common one are their moments j_s / rho_s (seed 003
/// §2.2.1 with its eq. 1; Shan & Chen 1993), the equilibria at u' before each force's
/// shift. At a static interface, where the two forces per unit mass differ, the collision
/// then exchanges the momentum (omega_s / 2) (F_s - rho_s F / rho) between the components:
/// it adds to the separation, and with it the coexisting densities depend on tau
/// (measured at G = 1.5, psi = rho: minor density 0.059 at tau = 1, 0.008 at tau = 0.8).
/// With the actual velocities (j_s + F_s / 2) / rho_s in u' instead, the exchange vanishes
/// there and the coexistence no longer depends on tau, but the components stay mixed at
/// seed 003's G = 1.5 (its binary Poiseuille flow, §5.3) as the free energy of
/// psi = rho says (a critical G rho of 2): the seed's model is this one.
template <class L, class Eq, class T>
BARRACUDA_HD void binary_collide(T (&f)[L::Q], T (&g)[L::Q], const T (&interaction_a)[3], const T (&interaction_b)[3],
                                 const T (&body)[3], T omega_a, T omega_b) {
    T rho_a, rho_b, ja[3], jb[3], fa[3], fb[3];
    component_moments<L>(f, rho_a, ja);
    component_moments<L>(g, rho_b, jb);
    component_forces(rho_a, rho_b, interaction_a, interaction_b, body, fa, fb);
    const T inv = T(1) / (omega_a * rho_a + omega_b * rho_b);
    T u[3], du_a[3], du_b[3];
    BARRACUDA_UNROLL
    for (int a = 0; a < 3; ++a) {
        u[a] = (omega_a * ja[a] + omega_b * jb[a]) * inv;
        du_a[a] = fa[a] / rho_a;
        du_b[a] = fb[a] / rho_b;
    }
    const T da = rho_a - T(1), db = rho_b - T(1);
    T before_a = T(0), before_b = T(0), moving_a = T(0), moving_b = T(0);
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) before_a += f[i], before_b += g[i];  // rho - 1 without the 1's rounding
    BARRACUDA_UNROLL
    for (int i = 1; i < L::Q; ++i) {
        f[i] += omega_a * (equilibrium_shifted<L, Eq>(i, da, u) - f[i]) + edm_source<L, Eq>(i, da, u, du_a);
        g[i] += omega_b * (equilibrium_shifted<L, Eq>(i, db, u) - g[i]) + edm_source<L, Eq>(i, db, u, du_b);
        moving_a += f[i], moving_b += g[i];
    }
    // The rest velocity takes what conserves each component's mass (the collision and the
    // forcing move none). Its own update's rounding, the same in every bulk cell of a
    // phase, drifted the masses systematically in FP32 (a 3D sessile drop, 40 x 40 x 20,
    // 4000 steps: A's mass by -4.7e-4 with it, -4.0e-5 with this; B's -4.5e-6 and
    // -7.6e-7), as the free energy's sum of phi did (physics::free_energy_collide).
    f[0] = before_a - moving_a;
    g[0] = before_b - moving_b;
}

/// The fluid's velocity v = (j_A + j_B + (F_A + F_B) / 2) / (rho_A + rho_B) and the two
/// densities at a cell (what output and observers report).
template <class L, class T>
BARRACUDA_HD void binary_state(const T (&f)[L::Q], const T (&g)[L::Q], const T (&interaction_a)[3],
                               const T (&interaction_b)[3], const T (&body)[3], T& rho_a, T& rho_b, T (&v)[3]) {
    T ja[3], jb[3];
    component_moments<L>(f, rho_a, ja);
    component_moments<L>(g, rho_b, jb);
    const T inv = T(1) / (rho_a + rho_b);
    BARRACUDA_UNROLL
    for (int a = 0; a < 3; ++a)
        v[a] = (ja[a] + jb[a] + T(0.5) * (interaction_a[a] + interaction_b[a] + body[a])) * inv;
}

}  // namespace barracuda::physics
