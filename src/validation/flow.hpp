// Helpers shared by the validation cases: case specs for boxes, running a
// sim::Simulation to a steady state, centre-line profiles, interpolation.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/case_spec.hpp"
#include "sim/simulation.hpp"
#include "validation/case.hpp"

namespace barracuda::validation {

/// A box with every axis periodic, FP64 two-copy, the model's defaults filled in.
sim::CaseSpec periodic_box(lattice::Kind lattice, std::array<int, 3> size, double tau,
                           sim::Collision collision = sim::Collision::BGK);

/// A lid-driven cavity: resting half-way walls, the y_max face moving at U along x
/// (2D: size[2] == 1 and z periodic).
sim::CaseSpec lid_driven_cavity(lattice::Kind lattice, int n, double reynolds, double lid_speed,
                                sim::Collision collision);

struct SteadyRun {
    std::int64_t steps = 0;
    bool steady = false;
};

/// Steps until the relative change of u over `interval` steps falls below
/// `tolerance` (the `run.steady_tolerance` test of `barracuda run`), or
/// `max_steps`. Throws DivergenceError as a run does.
SteadyRun run_to_steady(sim::Simulation& s, double tolerance, std::int64_t interval, std::int64_t max_steps);

/// A long run's checkpoint in ctx.checkpoints (none when that is empty), named
/// `name`: the simulation's state and the caller's values (running sums, a series).
struct RunCheckpoint {
    std::filesystem::path path;  // empty: checkpoints off
    std::string tag;             // the run's parameters: a checkpoint of other ones is refused
    /// Throws CaseError under more than one rank (one file per run, not per rank).
    RunCheckpoint(const Context& ctx, const std::string& name, std::string tag);
    /// Restores s and values from the file if there is one; returns whether it did.
    bool resume(sim::Simulation& s, std::vector<double>& values) const;
    void save(sim::Simulation& s, const std::vector<double>& values) const;
};

/// Whether an observation shows a diverged state: NaN/Inf or a density outside [lo, hi]
/// ([0.5, 2] for one fluid; a Shan-Chen phase may be far lighter).
bool diverged(const sim::Observation& o, double lo = 0.5, double hi = 2.0);
/// Throws DivergenceError when the state has diverged (diverged()).
void check_state(sim::Simulation& s, const std::string& what, double lo = 0.5, double hi = 2.0);

/// Centre-line profiles of a cubic (3D) or square (2D, nz = 1) box of edge n, the
/// velocity field with three values per cell: u_x along y at x = (z =) 1/2 and
/// u_y along x at y = (z =) 1/2, averaged over the 2 (2D) or 4 (3D) nodes around
/// the centre line for even n; divided by `scale`.
void centre_lines(const std::vector<double>& u, int n, bool three_d, double scale, std::vector<double>& ux_of_y,
                  std::vector<double>& uy_of_x);

/// Linear interpolation of a nodal profile f(i), node i at s = (i + 1/2)/N (half-way
/// walls at s = 0 and 1), with the wall values at0, at1.
double sample(const std::vector<double>& f, double s, double at0, double at1);

/// The nodal positions (i + 1/2)/N of a profile of N values.
std::vector<double> node_positions(std::size_t n);

std::string format(const char* fmt, double v);

/// "BGK", "TRT", "MRT": the collision as the report names it.
std::string model_name(sim::Collision c);

}  // namespace barracuda::validation
