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
// The force enters through the forcing scheme of the run (Guo or the exact
// difference method, physics/forcing.hpp), with the half-force velocity in the
// equilibrium: u = (j + F/2) / rho.
#pragma once
#include <cmath>

#include "common/hd.hpp"

namespace barracuda::physics {

enum class Pseudopotential { Exponential, CarnahanStarling };

/// The model's constants, in lattice units.
struct ShanChenParameters {
    Pseudopotential psi = Pseudopotential::Exponential;
    double g = -5.0;     // G: the interaction strength (negative attracts)
    double rho0 = 1.0;   // exponential: psi = rho0 (1 - exp(-rho / rho0))
    double a = 1.0;      // Carnahan-Starling: attraction a, repulsion b, gas constant R, temperature T
    double b = 4.0;
    double r = 1.0;
    double temperature = 0.0;

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
    const double radicand = 2 * (p.carnahan_starling(rho) - rho * cs2) / (p.g * cs2);
    return sqrt(radicand > 0 ? radicand : 0.0);
}

/// The bulk pressure p(rho) = rho cs2 + G cs2 psi^2 / 2 (the equation of state the
/// force gives; Carnahan-Starling's p_CS for that pseudopotential, up to the clamp).
inline double shan_chen_pressure(const ShanChenParameters& p, double rho, double cs2) {
    const double psi = pseudopotential(p, rho, cs2);
    return rho * cs2 + p.g * cs2 * psi * psi / 2;
}

}  // namespace barracuda::physics
