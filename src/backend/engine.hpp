// What a backend offers the simulation layer: a lattice of populations it
// initialises, advances and observes. Concrete engines are templates over
// lattice x equilibrium x collision x store, instantiated only for the
// configurations of the table (src/configurations.txt, backend/offered.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "boundary/parameters.hpp"
#include "boundary/scalar_faces.hpp"
#include "kernel/fixed_sum.hpp"
#include "kernel/momentum_exchange.hpp"
#include "kernel/interpolated_wall.hpp"
#include "lattice/lattice.hpp"
#include "lattice/scalar_sets.hpp"
#include "parallel/halo.hpp"
#include "physics/collision_mrt.hpp"
#include "physics/model.hpp"
#include "physics/free_energy.hpp"
#include "physics/shan_chen.hpp"
#include "storage/grid.hpp"
#include "storage/pattern.hpp"
#include "storage/precision.hpp"

namespace barracuda::backend {

/// A coupled scalar (temperature): its lattice's transport and coupling, in lattice
/// units. theta is the scalar's departure from its reference (T - T_0).
struct ScalarSetup {
    double diffusivity = 0.01;  // D = cs2 (tau_T - 1/2)
    double lambda = 0;          // TRT's Lambda (physics/advection_diffusion.hpp); 0: BGK
    double buoyancy[3] = {0, 0, 0};  // the Boussinesq force per unit of theta, -rho_0 beta g
    double initial = 0;         // theta of initialize() and initialize_uniform()
    /// With the flow's LES (EngineSetup::smagorinsky > 0): the turbulent Prandtl number
    /// Pr_t of the eddy diffusivity nu_t / Pr_t (kernel/scalar.hpp); 0: none.
    double turbulent_prandtl = 0;
    boundary::ScalarFaces faces{};
    /// Faces whose fixed temperature is an expression: theta per node of the face
    /// (boundary::ScalarFaces::values); empty: the constant.
    std::array<std::vector<double>, 6> face_values;
};

/// How a GPU engine updates the boundary cells with records: each warp of 32 cells that
/// holds one whole, its bulk cells by the record path too (record_warp_kernel); the
/// records packed 32 to a warp, their warps' bulk cells left to the bulk kernel, in
/// kernels of their own beside it (reflecting_kernel); or the packed records' blocks
/// interleaved with the bulk blocks in one launch (step_kernel); or, where nearly every
/// warp holds a record (a porous medium), no bulk kernel: every warp with a fluid cell
/// whole, by the record path (AllWarps), or every fluid cell packed 32 to a warp, a bulk
/// cell as a record of streamed links (AllPacked). Each gives every cell the same update,
/// bit for bit; which is faster depends on the case (docs/performance.md): Timed runs some
/// of the run's steps in each and keeps the fastest.
/// None: an engine without records or without forms (Engine::record_form_in_use alone).
enum class RecordForm { Timed, WholeWarps, Packed, Interleaved, AllWarps, AllPacked, None };

/// A form's name, as the GPU engine's form times (BARRACUDA_FORM_TIMES) and bench give it.
inline const char* record_form_name(RecordForm f) {
    switch (f) {
        case RecordForm::Timed: return "timed";
        case RecordForm::WholeWarps: return "whole warps";
        case RecordForm::Packed: return "packed";
        case RecordForm::Interleaved: return "interleaved";
        case RecordForm::AllWarps: return "every warp whole";
        case RecordForm::AllPacked: return "every fluid cell packed";
        case RecordForm::None: return "none";
    }
    return "none";
}

struct EngineSetup {
    lattice::Kind lattice = lattice::Kind::D3Q19;
    physics::CollisionKind collision = physics::CollisionKind::BGK;
    physics::EquilibriumKind equilibrium = physics::EquilibriumKind::Compressible;
    physics::ForcingKind forcing = physics::ForcingKind::Guo;
    storage::Precision precision = storage::Precision::FP32;
    storage::Pattern pattern = storage::Pattern::TwoCopy;
    lattice::CoupledKind scalar = lattice::CoupledKind::None;  // a coupled scalar's lattice (ScalarSetup), or shan-chen
    ScalarSetup thermal{};
    /// CoupledKind::ShanChen: the interaction (physics/shan_chen.hpp) and the wetting of
    /// walls and obstacles by the pseudopotential of wall_density (< 0: the mirror image's
    /// psi raised by `adhesion`, below).
    physics::ShanChenParameters shan_chen{};
    double wall_density = -1;
    /// CoupledKind::ShanChenBinary (kernel/binary.hpp): component B's relaxation time (A's
    /// is tau) and its initial density where Engine::initialize_scalar gives none.
    double tau_b = 0.6;
    double density_b = 1;
    /// ... and the wetting of its walls and obstacles: what they add to psi_A and take
    /// from psi_B beyond the mirror image (one component: add to psi, where wall_density
    /// is not given; sim::wetting_adhesion; 0: a symmetry plane).
    double adhesion = 0;
    /// CoupledKind::FreeEnergy (kernel/free_energy.hpp): the free energy's constants, the
    /// order parameter's relaxation time, its initial value where Engine::initialize_scalar
    /// gives none; fluid B's relaxation time is tau_b (A's tau).
    physics::FreeEnergyParameters free_energy{};
    double tau_phi = 1;
    double phi = 1;
    /// The free energy's wetting potential h of walls and obstacles
    /// (physics::wetting_potential; 0: neutral).
    double wetting = 0;
    /// Sparse: the engine stores the 4x4x4 tiles holding a non-solid node
    /// (backend/tiled_engine.hpp); everything else in the setup, and every per-cell
    /// vector the engine takes or gives, stays that of the dense box.
    storage::Storage storage = storage::Storage::Dense;
    storage::Grid grid{};
    boundary::Parameters faces{};
    std::vector<std::uint8_t> node_kind;  // one per cell: boundary::Fluid or boundary::Solid
    double tau = 0.6;
    double trt_magic = 3.0 / 16.0;
    double smagorinsky = 0;  // Smagorinsky constant C (physics/les.hpp, every collision); 0: no LES
    physics::MrtRateSet mrt{};  // shear is set from tau by the engine
    double force[3] = {0, 0, 0};
    /// Faces whose values are expressions (sim/face_values.hpp): the initial values,
    /// (ux, uy, uz, rho) per face node (boundary::Parameters::values); empty: none.
    std::array<std::vector<double>, 6> face_values;
    /// Obstacles whose force is reported: per obstacle, the fluid cells next to it with
    /// the mask of links into it (sim/force_links.hpp builds them from the case).
    std::vector<std::vector<kernel::ForceLink>> force_links;
    /// Links into obstacles with interpolated bounce-back, applied after every step
    /// (kernel/interpolated_wall.hpp); their forces go to the lists of force_links.
    std::vector<kernel::WallLink> wall_links;
    /// A rank's subdomain (parallel/decomposition.hpp): ghost layers (1 on the sides
    /// where a neighbour rank lies) and the populations exchanged with the neighbours
    /// after every step. Empty plan: a single rank, nothing to exchange.
    std::array<int, 3> ghost_lo{0, 0, 0}, ghost_hi{0, 0, 0};
    parallel::HaloPlan halo;
    /// With a multiphase model: its macro fields' exchange after the first pass
    /// (parallel::make_field_plan); empty on one rank.
    parallel::HaloPlan field_halo;
    /// Every boundary cell through the general path, none through the reflecting cells'
    /// records (kernel/reflecting_cells.hpp): for tests that compare the two.
    bool general_boundaries = false;
    /// The GPU's form of the records' update:
    /// timed on the run's first steps, or one form (tests that compare them).
    RecordForm record_form = RecordForm::Timed;
};

/// The running sums of Engine::accumulate, per cell: rho, ux, uy, uz, u.u (for the
/// velocity fluctuation) and theta.
enum MeanComponent { MeanRho, MeanUx, MeanUy, MeanUz, MeanUU, MeanTheta, mean_components };

/// An obstacle's force, per axis, as an order-independent sum (kernel/fixed_sum.hpp).
using ForceSum = std::array<kernel::FixedSum, 3>;

/// Reductions over the macroscopic fields, for the stability watch, steady-state
/// test and progress line.
struct Observation {
    double rho_min = 0, rho_max = 0, u_max = 0;
    std::int64_t bad_cell = -1;  // first cell with NaN/Inf or density outside the sane range
    double bad_density = 0;      // density at bad_cell
    double bad_speed = 0;        // |u| at bad_cell
    double change_l2 = 0;        // sqrt(sum |u - u_prev|^2) since the previous observation (if tracked)
    double norm_l2 = 0;          // sqrt(sum |u|^2)
    double mass = 0;             // sum of rho over the fluid cells (D3Q13: its pressure density 3 p)
    std::int64_t fluid_cells = 0;
    // With a coupled scalar: its range and sum over the fluid cells (NaN or Inf makes the cell bad).
    double theta_min = 0, theta_max = 0, theta_sum = 0;
    double bad_theta = 0;  // theta at bad_cell
    double mean_density() const { return fluid_cells > 0 ? mass / double(fluid_cells) : 0; }
    /// The mean of theta over the fluid (two Shan-Chen components: B's mean density).
    double mean_theta() const { return fluid_cells > 0 ? theta_sum / double(fluid_cells) : 0; }
};

/// What the next step starts from, for a checkpoint (io/checkpoint.hpp): the
/// populations it reads, raw in the storage precision (ghost layers included);
/// the in-place pattern's parity; the step clock of FP16's stochastic rounding;
/// the interpolated walls' momenta of the last step (their force).
struct EngineState {
    std::string engine;  // the saving engine's model, storage and grid (engine_common.hpp state_key)
    std::vector<std::uint8_t> populations;  // the flow's, then a coupled scalar's

    bool odd = false;
    std::uint32_t clock = 0;
    std::vector<double> wall_momenta;
};

class Engine {
public:
    virtual ~Engine() = default;
    /// e.g. "cpu D3Q19 bgk compressible fp32 two-copy pull"
    virtual std::string description() const = 0;
    /// Sets every fluid cell to the equilibrium of (rho, u); u has three values per cell.
    void initialize(const std::vector<double>& rho, const std::vector<double>& u) { initialize(rho, u, {}); }
    /// The same plus the first-order non-equilibrium part of the strain rate
    /// S_ab = (d_a u_b + d_b u_a)/2, six values per cell {xx, yy, zz, xy, xz, yz}
    /// (physics::strain_non_equilibrium_post): a flow with velocity gradients then
    /// starts with its viscous stress in place. Empty: equilibrium only.
    virtual void initialize(const std::vector<double>& rho, const std::vector<double>& u,
                            const std::vector<double>& strain) = 0;
    /// The same for a uniform state, without staging per-cell fields on the host
    /// (the GPU backend fills its memory directly: grids of billions of cells).
    virtual void initialize_uniform(double rho, const std::array<double, 3>& u) {
        const auto n = std::size_t(cells());
        std::vector<double> r(n, rho), v(3 * n);
        for (std::size_t c = 0; c < n; ++c) v[3 * c] = u[0], v[3 * c + 1] = u[1], v[3 * c + 2] = u[2];
        initialize(r, v);
    }
    virtual void step(std::int64_t steps) = 0;
    /// Returns once the steps and passes asked for so far have run (a GPU's queue drained);
    /// an engine that works synchronously has nothing to wait for.
    virtual void finish() {}
    /// New values for a face of EngineSetup::face_values (same size), used from the next step on.
    virtual void set_face_values(int face, const std::vector<double>& values) = 0;
    /// Density and velocity (pre-collision, as the next step sees them) on the host;
    /// solid nodes report rho = 1, u = 0.
    virtual void fields(std::vector<double>& rho, std::vector<double>& u) = 0;
    /// Bytes of the engine's arithmetic type: 4 (float: FP32 and FP16 storage) or 8 (double: FP64).
    virtual int native_bytes() const = 0;
    /// fields() and scalar_field() without conversion or staging: density (one value per
    /// cell), velocity (three per cell, x fastest) and the coupled scalar theta, each in the
    /// engine's arithmetic type (native_bytes) written to host memory where the pointer is
    /// not null (theta: a case with a scalar only). On the GPU one device-to-host copy of
    /// each (the Python module fills numpy arrays with it: docs/python.md).
    virtual void fields_native(void* rho, void* u, void* theta) = 0;
    /// The coupled scalar theta per cell as the next step sees it (0 in solids); empty
    /// without a scalar.
    virtual void scalar_field(std::vector<double>& theta) { theta.clear(); }
    /// Places the scalar's equilibrium of theta (one value per cell) with the velocity u
    /// (three per cell), after initialize(). Throws without a scalar.
    virtual void initialize_scalar(const std::vector<double>&, const std::vector<double>&) {
        throw std::logic_error("initialize_scalar: this engine has no scalar");
    }
    /// Probes: rho, ux, uy, uz and theta (0 without a scalar) at each of `cells`, as
    /// fields() and scalar_field() give them, five values per cell in that order.
    virtual std::vector<double> sample(const std::vector<std::int64_t>& cells) = 0;
    /// Time averages: adds the fields as fields() and scalar_field() give them to running
    /// sums held beside the populations (in GPU memory on the CUDA backend, so that
    /// nothing crosses the bus per sample), in double: mean_components per cell
    /// (mean_component order). The first call allocates them at zero.
    virtual void accumulate() = 0;
    /// The running sums, [k * cells + cell]; empty before the first accumulate().
    virtual void accumulated(std::vector<double>& sums) = 0;
    /// Replaces the running sums (a restart); empty: none (the next accumulate() starts at zero).
    virtual void set_accumulated(const std::vector<double>& sums) = 0;
    /// The heat balance: the scalar entering the fluid in the coming step through the
    /// links of each box face (0-5) and of each obstacle row (6 + m, boundary::ScalarFaces
    /// obstacle rows), kernel::scalar_flow_rows values, lattice units (theta x cells per
    /// step); their sum is the change of the total scalar over the step. Empty without a scalar.
    virtual std::vector<double> scalar_flows() { return {}; }
    /// Shifted post-collision populations f_i - w_i, as [i * cells + cell], in double.
    virtual void populations(std::vector<double>& f) = 0;
    /// Computes the macroscopic fields in place and reduces them. With track_change,
    /// also the change of u since the previous tracked observation.
    virtual Observation observe(double rho_lo, double rho_hi, bool track_change) = 0;
    /// The force on each obstacle of EngineSetup::force_links (in that order) by momentum
    /// exchange over its links in the last completed step (seed 000 §4.2, eq. 10-11;
    /// kernel/momentum_exchange.hpp), in lattice units, as order-independent sums (ranks add them).
    virtual std::vector<ForceSum> obstacle_force_sums() = 0;
    /// The same as doubles.
    std::vector<std::array<double, 3>> obstacle_forces() {
        const auto sums = obstacle_force_sums();
        std::vector<std::array<double, 3>> out(sums.size());
        for (std::size_t k = 0; k < sums.size(); ++k)
            for (std::size_t a = 0; a < 3; ++a) out[k][a] = sums[k][a].value();
        return out;
    }
    /// The state after the last completed step.
    virtual EngineState save_state() = 0;
    /// Continues from a saved state: bit for bit the run that saved it. Throws CaseError
    /// when it comes from another engine (lattice, model, precision, pattern, grid).
    virtual void restore_state(const EngineState& state) = 0;
    /// Bytes moved per cell update by the stream-collide kernel (populations + node kind).
    virtual std::int64_t bytes_per_cell_update() const = 0;
    virtual std::int64_t cells() const = 0;
    /// Bytes the engine holds: populations, node classes and (GPU) the lists of boundary cells
    /// and of force links.
    virtual std::int64_t memory_bytes() const = 0;
    /// The form of the records' update the engine steps with (EngineSetup::record_form):
    /// Timed while a GPU engine still times its candidates; None without records, and
    /// where an engine has no forms (the CPU's).
    virtual RecordForm record_form_in_use() const { return RecordForm::None; }
};

/// The engine of the setup's configuration (backend/offered.cpp). Throws CaseError when
/// the request is not offered (backend::refusal names why, and lists the table).
std::unique_ptr<Engine> make_cpu_engine(const EngineSetup& setup);
/// The same on the GPU; throws ResourceError when built without CUDA, without this
/// configuration's CUDA engine, or when no GPU is present.
std::unique_ptr<Engine> make_cuda_engine(const EngineSetup& setup);

}  // namespace barracuda::backend
