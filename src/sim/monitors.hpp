// What a run watches beside its output instants: probes (the fields at a few
// points every few steps, probes.csv) and time averages over a window of steps
// ([average], seed 004's 460-560 s means). The running sums live where the
// populations do (backend::Engine::accumulate: GPU memory on the CUDA backend,
// so a sample costs one pass over the cells and nothing crosses the bus); this
// layer decides when to sample and turns the sums into means.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/engine.hpp"
#include "parallel/decomposition.hpp"
#include "sim/case_spec.hpp"

namespace barracuda::sim {

/// The probes of a case on one rank's subdomain.
class Probes {
public:
    Probes() = default;
    Probes(const CaseSpec& spec, const parallel::Subdomain& sub);
    bool empty() const { return nodes_.empty(); }
    /// The node each probe is taken at (global coordinates): the node nearest its point.
    const std::vector<std::array<int, 3>>& nodes() const { return nodes_; }
    /// Collective: every probe's rho, ux, uy, uz, theta (lattice units; Engine::sample),
    /// on every rank; each probe is sampled by the rank that owns its node.
    std::vector<double> sample(backend::Engine& engine) const;

private:
    std::vector<std::array<int, 3>> nodes_;
    std::vector<std::int64_t> cells_;  // this rank's probes' cells (local indices)
    std::vector<std::size_t> which_;   // and the probe each is
};

/// Means over a window, over the owned cells of a rank (x-fastest), lattice units.
struct MeanFields {
    std::int64_t from = 0, to = 0;  // the window's first and last sampled steps
    std::int64_t samples = 0;
    std::vector<double> rho, u;   // mean density, mean velocity (three per cell)
    std::vector<double> fluctuation;  // sqrt(<u.u> - <u>.<u>): the velocity's fluctuation (rms)
    std::vector<double> theta;    // mean theta = T - T_0; empty without a scalar
    /// With a scalar, the heat balance over the window (lattice units, theta x cells per
    /// step): the mean of Engine::scalar_flows at the samples (what enters through each
    /// face and obstacle row), and the storage, the change of the total scalar between
    /// the first and the last sample per step. Summed, the flows equal the storage but
    /// for the sampling (every step: exactly).
    std::vector<double> flows;
    double storage = 0;
};

/// The names of Engine::scalar_flows's rows for a case: the faces, then each obstacle
/// row's obstacle (numbered in the order of the file, sim/simulation.cpp); "" where none.
std::vector<std::string> scalar_flow_names(const CaseSpec& spec);

/// The axis along which a case measures Darcy's permeability, or -1: one with
/// obstacles, driven by a body force along a periodic axis (its largest component), and
/// one fluid (no [multiphase]).
/// The permeability k = nu U / g, U the superficial velocity (the flow's mean over
/// every node of the box, solid ones at rest), g the force per unit mass.
int darcy_axis(const CaseSpec& spec);

/// What a [multiphase] case logs at each field output (multiphase.csv), over the whole
/// box (the Shan-Chen models run on one rank), lattice units.
struct MultiphaseIntegrals {
    double mass_a = 0, mass_b = 0;  // each component's mass; one component: its mass in mass_a;
                                    // free energy: the fluid's mass and sum phi (both conserved)
    double kinetic_energy = 0;      // (1/2) sum rho |u|^2, rho the fluid's (both components)
    double max_speed = 0;           // the largest |u|: in a static case, the spurious currents
    /// (1/2) sum |grad phi|: across an interface phi goes from -1 to 1, so this is the
    /// interfaces' length (2D) or area (3D) in cells, whatever their width. phi is the free
    /// energy's order parameter, (rho_A - rho_B) / (rho_A + rho_B) with two Shan-Chen
    /// components, with one the density scaled
    /// to [-1, 1] between the box's least and largest (vapour and liquid).
    double interface = 0;
};

/// The integrals of the fields of a whole box (x-fastest; `second`: rho_B, or phi of the
/// free-energy model (spec.multiphase.free_energy), empty with one component; `kinds`: boundary::NodeKind per cell, solids left out). The gradient
/// is central between fluid neighbours, one-sided beside a solid or a non-periodic face.
MultiphaseIntegrals multiphase_integrals(const CaseSpec& spec, const std::vector<std::uint8_t>& kinds,
                                         const std::vector<double>& rho, const std::vector<double>& u,
                                         const std::vector<double>& second);

/// The sampling schedule of [average]: the steps from, from + interval, ... up to `to`.
class TimeAverage {
public:
    TimeAverage() = default;
    explicit TimeAverage(const CaseSpec& spec);
    bool enabled() const { return enabled_; }
    bool due(std::int64_t step) const {
        return enabled_ && step >= from_ && step <= to_ && (step - from_) % interval_ == 0;
    }
    /// The first sampling step after `step`; run.steps (never earlier than `step` + 1) when none.
    std::int64_t next_after(std::int64_t step, std::int64_t last) const;
    /// The step at which the window closes and the means are written: its last sampling step.
    std::int64_t closing_step() const { return from_ + (to_ - from_) / interval_ * interval_; }
    std::int64_t samples() const { return samples_; }
    /// A sample at `step`; with a scalar, `theta_total` is the total scalar of every rank
    /// (Observation::theta_sum) and the heat flows are sampled too.
    void add(backend::Engine& engine, std::int64_t step, double theta_total);
    /// The total scalar at `step`, the end of a window that the run leaves before it
    /// closes (a steady stop, run.steps inside it): the heat balance's storage term then
    /// spans the first sample to `step`.
    void mark_end(std::int64_t step, double theta_total) { theta_last_ = theta_total, theta_last_step_ = step; }
    /// Whether the last sample closed the window (the means were due then).
    bool closed() const { return samples_ > 0 && last_ >= closing_step(); }
    /// The means over the owned cells of `sub` from the engine's sums (the sums on a
    /// D3Q13 engine are refused by check_case).
    MeanFields means(backend::Engine& engine, const parallel::Subdomain& sub, bool scalar) const;
    /// For a checkpoint: the sample count, the last sample's step and the engine's sums.
    std::vector<double> state(backend::Engine& engine) const;
    /// Restores what state() gave (empty: nothing sampled yet).
    void restore(backend::Engine& engine, const std::vector<double>& state);

private:
    bool enabled_ = false;
    std::int64_t from_ = 0, to_ = 0, interval_ = 1;
    std::int64_t samples_ = 0;
    std::int64_t last_ = -1;  // the step of the last sample
    bool scalar_ = false;
    std::vector<double> flow_sums_;            // of Engine::scalar_flows, over every rank
    double theta_first_ = 0, theta_last_ = 0;  // the total scalar at the first and last sample
    std::int64_t first_ = -1;                  // the step of the first sample
    std::int64_t theta_last_step_ = -1;        // where theta_last_ was taken
};

}  // namespace barracuda::sim
