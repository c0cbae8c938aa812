// The contact angle of the two-component Shan-Chen model (kernel/binary.hpp): the
// adhesion that walls and obstacles add to psi_A (and take from psi_B) for a set
// angle, found on the case's own model: a small sessile drop run at setup, the
// adhesion adjusted until its cap takes the angle (docs/validation.md, "Contact angle").
#pragma once

#include <vector>

#include "backend/engine.hpp"

namespace barracuda::sim {

struct BinaryWetting {
    double adhesion = 0;  // what walls add to psi_A and take from psi_B
    double gamma = 0;     // the A-B interface's tension (a flat interface's pressure-tensor integral)
    double phase_a[2] = {0, 0}, phase_b[2] = {0, 0};  // (rho_A, rho_B) of each coexisting phase
    double angle = 90;    // the calibration drop's angle at that adhesion (degrees)
    int drops = 0;        // calibration drops it took
    std::int64_t steps = 0;  // their steps in all
};

/// The adhesion that gives the contact angle theta (radians, measured in A). `model` gives
/// G, the pseudopotential, tau of each component and the forcing; the calibration runs
/// D2Q9 in FP64 on the CPU (a state uniform along one axis of D3Q19 is a D2Q9 state: the
/// two lattices project onto each other, and so do their wall links). The phases start
/// from (a_major, b_minor) and (a_minor, b_major): the case's initial densities. Throws
/// CaseError when the components do not separate or no adhesion reaches theta.
BinaryWetting binary_wetting(const backend::EngineSetup& model, double theta, double a_major, double a_minor,
                             double b_major, double b_minor);

/// The contact angle of a sessile cap in a 2D field phi (nx x ny, x fastest; phi > 0 in
/// the drop) on a wall at y = wall below it, in degrees inside the drop: a circle fitted
/// (Kasa's algebraic least squares) to phi = 0, found by linear interpolation along rows
/// and columns (the cap's side is steep near the wall, its top flat) from row `first` up,
/// away from the contact line's diffuse zone; cos theta = (wall - y_centre) / R. NaN when
/// fewer than three points are found.
double cap_angle(const std::vector<double>& phi, int nx, int ny, int first, double wall);

}  // namespace barracuda::sim
