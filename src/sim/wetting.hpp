// The contact angle of the Shan-Chen models (kernel/binary.hpp, kernel/pseudopotential.hpp):
// the adhesion that walls and obstacles add to psi (two components: to psi_A, and take
// from psi_B) beyond the mirror image for a set angle, found on the case's own model: a
// small sessile drop run at setup, the adhesion adjusted until its cap takes the angle
// (docs/validation.md, "Contact angle").
#pragma once

#include <vector>

#include "backend/engine.hpp"

namespace barracuda::sim {

struct Wetting {
    double adhesion = 0;  // what walls add to psi (psi_A), and take from psi_B
    double gamma = 0;     // the interface's tension (a flat interface's pressure-tensor integral)
    /// Each coexisting phase: (rho_A, rho_B) of A's and of B's; one component: the
    /// liquid's and the vapour's density in [0], 0 in [1].
    double phase_a[2] = {0, 0}, phase_b[2] = {0, 0};
    double angle = 90;    // the calibration drop's angle at that adhesion (degrees)
    int drops = 0;        // calibration drops it took
    std::int64_t steps = 0;  // their steps in all
};

/// The adhesion that gives the contact angle theta (radians, measured in A, or in the
/// liquid) on the model of `model` (its coupled kind, G, the pseudopotential, the
/// relaxation times, the forcing): the calibration runs D2Q9 in FP64 on the CPU (a state
/// uniform along one axis of D3Q19 is a D2Q9 state: the two lattices project onto each
/// other, and so do their wall links; MRT on D3Q19 is calibrated with BGK). The phases
/// start from (a_major, b_minor) and (a_minor, b_major), the case's initial densities
/// (one component: the liquid from a_major, the vapour from a_minor). Throws CaseError
/// when the fluid does not separate into two phases or no adhesion reaches theta.
Wetting wetting_adhesion(const backend::EngineSetup& model, double theta, double a_major, double a_minor,
                         double b_major = 0, double b_minor = 0);

/// The contact angle of a sessile cap in a 2D field phi (nx x ny, x fastest; phi > 0 in
/// the drop) on a wall at y = wall below it, in degrees inside the drop: a circle fitted
/// (Kasa's algebraic least squares) to phi = 0, found by linear interpolation along rows
/// and columns (the cap's side is steep near the wall, its top flat) from row `first` up,
/// away from the contact line's diffuse zone; cos theta = (wall - y_centre) / R. NaN when
/// fewer than three points are found.
double cap_angle(const std::vector<double>& phi, int nx, int ny, int first, double wall);

}  // namespace barracuda::sim
