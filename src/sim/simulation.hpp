// A run composed from a case: engine creation (after the memory check), initial
// state, time stepping, stability watch, steady-state stop and output schedule.
#pragma once
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/engine.hpp"
#include "parallel/comm.hpp"
#include "parallel/decomposition.hpp"
#include "sim/case_spec.hpp"
#include "sim/face_values.hpp"
#include "sim/monitors.hpp"
#include "sim/sublattice_output.hpp"
#include "sim/wetting.hpp"

namespace barracuda::sim {

struct Progress {
    std::int64_t step = 0, total = 0;
    double mlups = 0, eta_seconds = 0, u_max = 0, mean_density = 0;
    /// An SI case (sim/units.hpp): the simulated time and simulated seconds per wall second.
    double simulated_seconds = 0, realtime_factor = 0;
};

using backend::Observation;

struct RunResult {
    std::int64_t steps = 0;
    double wall_seconds = 0, mlups = 0;
    bool steady = false;   // stopped by the steady-state test
    bool stopped = false;  // stopped on request (stop_requested) before run.steps
    Observation last{};
    /// The last force sample (one per name in forces.obstacles) and its step; empty without [forces].
    std::vector<std::array<double, 3>> forces;
    std::int64_t forces_step = -1;
    std::int64_t force_samples = 0;
    std::int64_t probe_samples = 0;
    /// The [average] window's samples when the means were written (0: not written).
    std::int64_t mean_samples = 0;
};

/// Checkpoints of a run (barracuda run --checkpoint-every, io/checkpoint.hpp).
struct CheckpointSchedule {
    /// Steps between checkpoints; 0: none. With a schedule, one is also saved at the end,
    /// so that a finished run can be taken further. With `save` and every = 0, a
    /// checkpoint is saved only where the run is stopped on request.
    std::int64_t every = 0;
    /// Saves the state at the simulation's time (the sink has flushed everything up to
    /// it), with the run's force samples so far.
    std::function<void(std::int64_t force_samples)> save;
    /// Force samples of the sittings before this one (a restart).
    std::int64_t earlier_force_samples = 0;
};

/// Receives the fields at each output instant (io::RunWriter writes them as files).
class OutputSink {
public:
    virtual ~OutputSink() = default;
    /// rho and u over the owned cells of the run's subdomain (the whole box on one rank),
    /// and the temperature of a [thermal] case (empty otherwise); the sink's to keep (a
    /// writer moves them into the instant it writes behind the run, no copy).
    virtual void write(std::int64_t step, std::vector<double> rho, std::vector<double> u,
                       std::vector<double> temperature) = 0;
    /// The forces on the obstacles named in forces.obstacles (in that order) after `step`.
    virtual void write_forces(std::int64_t /*step*/, const std::vector<std::array<double, 3>>& /*forces*/) {}
    /// The probes' values after `step` ([probes]; sim::Probes::sample: rho, ux, uy, uz,
    /// theta per probe, lattice units), on every rank.
    virtual void write_probes(std::int64_t /*step*/, const std::vector<double>& /*values*/) {}
    /// The time averages of [average] over the owned cells, when the window closes.
    virtual void write_mean(const MeanFields& /*mean*/) {}
    /// Something that happened to the run at `step` (a change steered from the live view,
    /// live/session.hpp), for the run's log; on rank 0 only.
    virtual void write_event(std::int64_t /*step*/, const std::string& /*text*/) {}
    /// The running case after Simulation::steer (new face values, body force, heat), on
    /// every rank: what the sink derives from the case follows it (Darcy's permeability).
    virtual void steered(const CaseSpec& /*spec*/) {}
    /// Makes everything handed over so far durable (at the end, and before a divergence is reported).
    virtual void flush() {}
};

/// What a run's controller asks for between two chunks of steps (ChunkControl).
struct ChunkVerdict {
    std::int64_t max_steps = 0;  // the next chunk's most steps (0: the pace alone decides)
    bool snapshot = false;       // write the fields now (OutputSink::write), then ask again
};

/// A controller of a running case (barracuda run --serve: live/session.hpp). Simulation::run
/// calls `between` on every rank once before the first step and after each chunk of
/// steps, with the step reached. It may steer the simulation (Simulation::steer, on every
/// rank alike) and may block there (a paused run); what it returns bounds the next chunk
/// or asks for the fields to be written. The chunks are sized to take `chunk_seconds`.
struct ChunkControl {
    double chunk_seconds = 0.2;
    std::function<ChunkVerdict(std::int64_t step)> between;
};

/// The subdomain of `rank` among `ranks` (domain.decomposition, or automatic when
/// it is not given); throws CaseError when the decomposition does not fit.
parallel::Subdomain subdomain_of(const CaseSpec& spec, int rank, int ranks);

/// Node kinds (fluid/solid) of a case's obstacles over a subdomain's local box
/// (ghost layers included; default: the whole box). With `owner`, also the index of
/// the obstacle that made each solid node solid (-1 elsewhere), for force link lists.
std::vector<std::uint8_t> node_kinds(const CaseSpec& spec, std::vector<std::int32_t>* owner = nullptr,
                                     const parallel::Subdomain* sub = nullptr);
/// The grid of a subdomain's local box as the lattice stores it (one sub-lattice on D3Q13).
storage::Grid local_grid(const CaseSpec& spec, const parallel::Subdomain& sub);
/// The same over the owned cells only, with face nodes marked by their boundary
/// (boundary::NodeKind), for output.
std::vector<std::uint8_t> output_node_kinds(const CaseSpec& spec, const parallel::Subdomain* sub = nullptr);
/// The backend-facing description of a case (with the force link lists of
/// sim/force_links.hpp) for a subdomain (default: the whole box, one rank).
backend::EngineSetup engine_setup(const CaseSpec& spec, const parallel::Subdomain* sub = nullptr);
/// The model's part of engine_setup: lattice, collision, equilibrium, forcing, precision,
/// pattern, relaxation and MRT rates, body force and the multiphase models' constants;
/// no grid, faces or geometry (sim::wetting_adhesion's calibration boxes add their own).
backend::EngineSetup model_setup(const CaseSpec& spec);
/// theta = T - T_0 at every node of face `face` of the subdomain's local box where the
/// face's temperature is an expression (boundary::ScalarFaces::values order); empty:
/// none. Throws CaseError where the value is NaN/Inf.
std::vector<double> face_temperatures(const CaseSpec& spec, const parallel::Subdomain& sub, int face);
/// Which backend "auto" means on this machine, or the one asked for; throws
/// ResourceError for cuda without a GPU.
BackendChoice resolve_backend(BackendChoice asked);
/// Bytes available to a backend (free GPU memory, or the host's available memory).
std::int64_t available_memory(BackendChoice backend);

/// A state the stability watch refuses: where, what, and the message barracuda run prints.
struct Divergence {
    std::int64_t step = 0;
    std::array<int, 3> cell{0, 0, 0};  // whole-box coordinates
    std::string field;                 // "density", "velocity", "temperature" or "density_b" (two components)
    double value = 0;                  // the value found there (NaN/Inf, |u| or rho)
    std::string message;
};
/// The divergence an observation over all ranks reports (Observation::bad_cell >= 0,
/// as Simulation::observe_all gives it), at `step`; none when the state passed.
std::optional<Divergence> divergence_in(const CaseSpec& spec, const Observation& o, std::int64_t step);

class Simulation {
public:
    /// Validates the case, checks memory, then allocates the engine and sets the initial
    /// state. `before_allocation`, when given, runs between the checks and the allocation
    /// on every rank (barracuda run claims its output directory there: a bad case writes
    /// nothing, and an unwritable directory is found before gigabytes are allocated).
    Simulation(const CaseSpec& spec, BackendChoice backend, const std::function<void()>& before_allocation = {});
    ~Simulation();

    /// A Shan-Chen case with a contact angle other than 90: the adhesion its walls take and
    /// how it was found (sim::wetting_adhesion); null otherwise.
    const Wetting* wetting() const { return wetting_ ? &*wetting_ : nullptr; }

    /// Runs the case from the current time (0, or a restored checkpoint's) to
    /// run.steps, handing the fields to `sink` (may be null) at each output instant
    /// and at the end; a restored run does not write its first instant again. Throws
    /// DivergenceError naming the step, cell and field; nothing is written for the
    /// bad state, so the last good output stays, and no checkpoint is saved of it.
    /// `stop_requested`, when given, is asked between chunks of steps (about 0.2 s each);
    /// once it answers true on any rank, the run stops after the chunk on every rank:
    /// the state is checked, the outputs made durable, a checkpoint saved through
    /// `checkpoints.save` when there is one (also with checkpoints.every = 0), and the
    /// result has stopped = true. `control`, when given, is asked between the chunks as
    /// ChunkControl says.
    RunResult run(OutputSink* sink, const std::function<void(const Progress&)>& progress,
                  const CheckpointSchedule& checkpoints = {}, const std::function<bool()>& stop_requested = {},
                  const ChunkControl* control = nullptr);

    /// Advances `steps` time steps, first giving the engine the faces' expression values
    /// of each step when they depend on time (FaceValues). Validation cases step through
    /// it; Engine::step alone leaves such values where they were.
    void advance(std::int64_t steps);
    /// Goes on with the case `next`, which may differ from the running one only in values
    /// that can change while it runs: the faces' velocities, densities and temperatures
    /// (constants or expressions), force.body, the obstacles' temperatures, heat fluxes and
    /// powers, and what does not reach the engine (title, [run], [output], [forces],
    /// [probes], [average]). The state is kept bit for bit: the engine is made again for
    /// the new values and restored (Engine::save_state), and the next steps impose them.
    /// Throws CaseError, before anything changes, naming what else differs or a value the
    /// case checks refuse. Time averages start again. When the new engine cannot be made,
    /// the old one is made again from the saved state and the error thrown; should that
    /// fail too, usable() is false.
    void steer(CaseSpec next);
    /// The case as it runs (defaults filled in).
    const CaseSpec& spec() const { return spec_; }
    /// False only after a steer() whose new engine failed and whose old one could not be
    /// made again either (the memory taken meanwhile): nothing may be called on it then.
    bool usable() const { return engine_ != nullptr; }
    /// Steps advanced since the simulation was created.
    std::int64_t time() const { return time_; }
    /// Goes on from a state saved at `time` by engine().save_state() (io/checkpoint.hpp);
    /// time-dependent faces take their values at the next steps' times.
    void restore(std::int64_t time, const backend::EngineState& state);

    backend::Engine& engine() { return *engine_; }
    BackendChoice backend() const { return backend_; }
    /// This rank's part of the box (the whole box on one rank).
    const parallel::Subdomain& subdomain() const { return sub_; }
    /// The engine's fields over the owned cells, x-fastest.
    void owned_fields(std::vector<double>& rho, std::vector<double>& u);
    /// The temperature T = theta + T_0 of a [thermal] case over the owned cells (empty
    /// without one; solid nodes hold T_0).
    void owned_temperature(std::vector<double>& temperature);
    /// The second distribution's field on the owned cells: a two-component case's rho_B
    /// (kernel/binary.hpp), else owned_temperature's.
    void owned_second(std::vector<double>& values);
    /// Observation and obstacle forces over all ranks.
    Observation observe_all(bool track_change);
    std::vector<std::array<double, 3>> forces_all();
    /// What a checkpoint keeps of the [average] window (its sample count and sums).
    std::vector<double> average_state() { return average_.state(*engine_); }
    void restore_average_state(const std::vector<double>& state) { average_.restore(*engine_, state); }
    const Probes& probes() const { return probes_; }

private:
    void prepare(BackendChoice backend);  // checks spec_ and the memory it needs
    void allocate();
    /// initial.density as an expression and/or with noise, at every cell of the local box
    /// (empty: uniform); computed with the checks, before the output directory and the
    /// engine, so that a bad value is refused before anything is written or allocated.
    void calibrate_wetting();
    std::vector<double> initial_densities(bool component_b = false) const;
    std::vector<double> initial_order_parameter() const;
    /// The memory check of a sparse (or auto) case, with the tiles it stores (prepare()
    /// checks a dense case's box before the geometry is marked).
    void check_sparse_memory(const backend::EngineSetup& setup) const;                      // the engine and its initial state
    /// Runs one phase of the construction on every rank; a CaseError or ResourceError
    /// on any rank is thrown on all of them.
    static void shared_verdict(const std::function<void()>& phase);
    /// The expression faces' values at time t, handed to the engine for its next step.
    void impose_face_values(double t);
    CaseSpec spec_;
    parallel::Subdomain sub_;
    BackendChoice backend_;
    std::unique_ptr<backend::Engine> engine_;
    std::vector<double> initial_rho_;  // initial_densities(), until allocate() places them
    std::vector<double> initial_rho_b_;  // ... of a binary case's component B, or its phi (free energy)
    std::optional<Wetting> wetting_;  // a Shan-Chen case's calibrated contact angle
    std::unique_ptr<FaceValues> face_values_;  // faces given by expressions
    Probes probes_;
    TimeAverage average_;
    std::vector<std::uint8_t> output_kind_;     // the owned nodes' kinds (output_node_kinds): D3Q13's expand_sublattice, two components' watch
    std::vector<double> face_buffer_;  // impose_face_values's, kept between steps
    std::int64_t time_ = 0;
};

}  // namespace barracuda::sim
