// A case as data: everything a run needs, independent of the file format it came
// from. io/case_file.* fills it from TOML; sim/case_check.* checks it before any
// memory is allocated. All quantities are in lattice units (dx = dt = 1).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "geometry/shapes.hpp"
#include "boundary/face.hpp"
#include "boundary/parameters.hpp"
#include "boundary/scalar_faces.hpp"
#include "lattice/scalar_sets.hpp"
#include "lattice/lattice.hpp"
#include "physics/model.hpp"
#include "physics/free_energy.hpp"
#include "physics/shan_chen.hpp"
#include "storage/pattern.hpp"
#include "storage/precision.hpp"
#include "sim/units.hpp"

namespace barracuda::sim {

using Collision = physics::CollisionKind;
using Equilibrium = physics::EquilibriumKind;
using Precision = storage::Precision;
using Pattern = storage::Pattern;
enum class BackendChoice { Auto, Cpu, Cuda };

/// MRT relaxation rates of the non-hydrodynamic moments. Shear rates always
/// follow from the viscosity. Defaults (Lallemand & Luo 2000 for D2Q9,
/// d'Humières et al. 2002 for D3Q19) are filled in when a lattice is chosen.
struct MrtRates {
    double s_e = 0;    // energy (bulk viscosity)
    double s_eps = 0;  // energy square
    double s_q = 0;    // heat flux
    double s_pi = 0;   // D3Q19 only: fourth-order stress-like moments
    double s_m = 0;    // D3Q19 only: third-order antisymmetric moments
    bool operator==(const MrtRates&) const = default;
};

struct ModelSpec {
    lattice::Kind lattice = lattice::Kind::D3Q19;
    Collision collision = Collision::BGK;
    Equilibrium equilibrium = Equilibrium::Compressible;
    physics::ForcingKind forcing = physics::ForcingKind::Guo;  // how force.body enters
    Precision precision = Precision::FP32;
    Pattern streaming = Pattern::TwoCopy;  // two copies (AB) or in place (AA)
    double tau = 0.6;               // relaxation time; nu = cs2 (tau - 1/2)
    double viscosity = 0;           // as given (m^2/s in an SI case, sim/units.hpp); 0: tau was given
    double trt_magic = 3.0 / 16.0;  // TRT magic parameter Lambda
    double smagorinsky = 0;         // Smagorinsky constant C of the LES closure (0: none; physics/les.hpp)
    MrtRates mrt;
    bool operator==(const ModelSpec&) const = default;
};

/// A solid obstacle of the case: a geometric body (geometry/shapes.hpp: box, sphere,
/// cylinder, pipe) with a name, a surface velocity and its bounce-back rule.
/// Rasterising reads the body alone (geometry::mark).
struct Obstacle : geometry::Body {
    using Shape = geometry::Body::Kind;
    std::string name;
    /// Velocity of the obstacle's surface (a translating body or a wall sliding along
    /// itself, e.g. a pipe in a moving sphere's frame); zero: at rest.
    std::array<double, 3> velocity{0, 0, 0};
    /// Links into the obstacle: half-way bounce-back (false: the wall half a spacing
    /// beyond the last fluid node, a staircase), or interpolated bounce-back at the
    /// surface's true position on each link (Bouzidi et al. 2001;
    /// kernel/interpolated_wall.hpp).
    bool interpolated = false;
    /// [thermal]: the obstacle's surface held at a temperature, or releasing a heat flux
    /// (obstacle[].temperature, obstacle[].heat_flux); none: adiabatic.
    std::optional<boundary::ScalarCondition> thermal;
    /// obstacle[].power: the heat it releases (W in an SI case's file; in lattice units the
    /// temperature times cell volumes per step), a Flux condition whose flux per link is
    /// the power over the links from fluid into the obstacle (sim/simulation.cpp).
    std::optional<double> power;
    bool moving() const { return velocity[0] != 0 || velocity[1] != 0 || velocity[2] != 0; }
    /// Whether its solid nodes need a number in the node class (kernel::moving_solid).
    bool numbered() const { return moving() || thermal.has_value(); }
    const geometry::Body& body() const { return *this; }
    bool operator==(const Obstacle&) const = default;
};

/// At most this many obstacles may move (their velocities travel with every kernel
/// launch, in the face table).
inline constexpr int max_moving_obstacles = boundary::Parameters::max_moving_obstacles;

/// A temperature advected by the flow and coupled to it by Boussinesq buoyancy
/// ([thermal]; physics/advection_diffusion.hpp, seed 004). Temperatures in the case's
/// unit (K or degrees C); theta = T - reference inside. Lattice units otherwise.
struct ThermalSpec {
    bool enabled = false;
    lattice::CoupledKind lattice = lattice::CoupledKind::None;  // D3Q7 (3D) or D2Q5 (2D) by default
    double diffusivity = 0;           // D (thermal.diffusivity, or the viscosity over thermal.prandtl)
    double prandtl = 0;               // given instead of the diffusivity (0: not given)
    /// thermal.collision: "bgk" (default, seed 004's) or "trt". TRT with a fixed Lambda puts
    /// walls where they belong for any tau_T, but as tau_T nears 1/2 its symmetric rate
    /// omega+ = 1 / (Lambda / (tau_T - 1/2) + 1/2) goes to 0 and the symmetric non-equilibrium
    /// is no longer damped: seed 004's room (tau_T = 0.50065, omega+ = 0.0035) diverged within
    /// 1000 steps with TRT and ran with BGK (docs/validation.md).
    bool trt = false;
    bool regularized = false;  // thermal.collision = "regularized": omega+ = 1 (physics/advection_diffusion.hpp)
    double trt_magic = 3.0 / 16.0;    // Lambda of the scalar's TRT
    double expansion = 0;             // beta, per unit of temperature
    std::array<double, 3> gravity{0, 0, 0};  // g (lattice units)
    double reference = 0;             // T_0, where buoyancy vanishes
    /// Pr_t of the eddy diffusivity nu_t / Pr_t when model.smagorinsky > 0 (seed 004 eq. 8).
    /// 0.85: the usual value for air in wall-bounded and free shear flows (Kays 1994,
    /// "Turbulent Prandtl number - where are we?", J. Heat Transfer 116, 284).
    double turbulent_prandtl = 0.85;
    double initial = 0;               // initial temperature (T, not theta)
    std::string initial_expression;   // or an expression of x, y, z (sim/expression.hpp)
    /// Per face: its condition (boundary.<face>.temperature / heat_flux); none: the
    /// default of its type (walls adiabatic, velocity faces at the reference
    /// temperature, pressure and outflow faces zero gradient).
    std::array<std::optional<boundary::ScalarCondition>, 6> faces{};
    /// A face's fixed temperature given as an expression of x, y, z (a heated patch, an
    /// inlet in a wall): non-empty text replaces faces[f]'s value node by node.
    std::array<std::string, 6> face_expressions{};
    /// The initial temperature where it is one number (the reference where it is an expression).
    double expression_free_initial() const;
    bool operator==(const ThermalSpec&) const = default;
};

/// [multiphase]: the Shan-Chen models (physics/shan_chen.hpp, seed 003 §2.2.1), lattice
/// units: one component (liquid and vapour) or two (binary, kernel/binary.hpp); or the
/// free-energy binary fluid (physics/free_energy.hpp, seed 003 §2.2.2).
struct MultiphaseSpec {
    bool enabled = false;
    bool binary = false;       // two fluids, a second distribution: shan-chen-binary or free-energy
    bool free_energy = false;  // multiphase.model = "free-energy"
    physics::ShanChenParameters shan_chen{};
    /// Free energy: a, kappa, Gamma; the order parameter's relaxation time tau_phi; its
    /// initial value, one number or an expression of x, y, z (initial.phi: +1 fluid A, -1 B).
    physics::FreeEnergyParameters free_energy_parameters{};
    double tau_phi = 1;
    double phi = 1;
    std::string phi_expression;
    /// The contact angle of walls and obstacles in degrees, measured in fluid A (phi = +1,
    /// free energy): 90 is a neutral wall.
    double contact_angle = 90;
    /// Binary: fluid B's kinematic viscosity (A's is model.viscosity / tau); Shan-Chen's
    /// component B's initial density, one number or an expression of x, y, z
    /// (initial.density is A's).
    double viscosity_b = 1.0 / 6;
    double density_b = 0;
    std::string density_b_expression;
    lattice::CoupledKind kind() const {
        return free_energy ? lattice::CoupledKind::FreeEnergy
               : binary    ? lattice::CoupledKind::ShanChenBinary
                           : lattice::CoupledKind::ShanChen;
    }
    /// multiphase.wall_density: the density whose pseudopotential walls and obstacles
    /// present to the fluid (wetting); not given (< 0): neutral walls (the node's own psi).
    double wall_density = -1;
    bool operator==(const MultiphaseSpec&) const = default;
};

struct RunSpec {
    std::int64_t steps = 1000;
    double time = 0;  // an SI case's run.time (s), made steps by sim::to_lattice_units; 0: steps given
    double steady_tolerance = 0;  // > 0: stop when the relative change of u over check_interval is below it
    std::int64_t check_interval = 100;  // steps between stability / steady-state checks
    double density_min = 0.1, density_max = 10.0;  // stability watch: sane density range
    BackendChoice backend = BackendChoice::Auto;
    bool operator==(const RunSpec&) const = default;
};

struct OutputSpec {
    std::string directory = "barracuda-out";
    std::int64_t interval = 0;  // 0: only the final state
    double period = 0;          // an SI case's output.period (s), made the interval; 0: none
    bool density = true, velocity = true, node_kind = true;
    bool temperature = true;  // written when the case has [thermal]
    bool vti = true, png = true;
    bool zlib = false;   // compress VTK appended data
    int slice_axis = 2;  // PNG slice normal (0 x, 1 y, 2 z); 2D lattices always use z
    double slice_position = 0.5;  // fraction of the domain along slice_axis
    bool operator==(const OutputSpec&) const = default;
};

/// Forces on named obstacles by momentum exchange, written to forces.csv
/// (seed 000 §4.2). Coefficients C = F / (1/2 rho0 U^2 A) with rho0 = 1.
struct ForceReportSpec {
    std::vector<std::string> obstacles;  // names of [[obstacle]] tables; empty: no force report
    double reference_velocity = 0;       // U (lattice units)
    double reference_area = 0;           // A (cells^2; a length in cells on a 2D lattice)
    int flow_axis = 0;                   // drag along it (0 = x, 1 = y, 2 = z)
    int lift_axis = 1;                   // lift along it
    std::int64_t interval = 0;           // steps between samples; 0: output.interval if > 0, else run.check_interval
    bool operator==(const ForceReportSpec&) const = default;
};

/// Probes: the fields at points, every `interval` steps, written to probes.csv
/// ([probes]; sim/monitors.hpp). Points in lattice node coordinates (metres in an SI
/// case's file), each taken at its nearest node.
struct ProbeSpec {
    std::vector<std::string> names;               // one per point ("p0", "p1", ... when not given)
    std::vector<std::array<double, 3>> points;
    std::int64_t interval = 0;  // steps between samples; 0: output.interval if > 0, else run.check_interval
    double period = 0;          // an SI case's probes.period (s), made the interval
    bool operator==(const ProbeSpec&) const = default;
};

/// Time-averaged fields over a window of steps ([average]; sim/monitors.hpp): the mean
/// density (pressure), velocity, velocity fluctuation and temperature, written as
/// mean.vti when the window closes, with an optional section (CSV and PNG) and
/// profiles across it (PNG), seed 004 Fig. 10.
struct AverageSpec {
    bool enabled = false;
    std::int64_t from = 0, to = 0;  // the window [from, to] in steps (average.steps); to = 0: run.steps
    std::array<double, 2> time{0, 0};  // an SI case's average.time (s), made the window
    std::int64_t interval = 0;      // steps between samples; 0: about a thousand over the window
    double period = 0;              // an SI case's average.period (s), made the interval
    int section_axis = -1;          // the section's normal (0 x, 1 y, 2 z); -1: no section
    double section_at = 0;          // its position along that axis (node coordinate)
    /// Lines across the section, along its second in-plane axis (the first in-plane axis
    /// is the lowest axis that is not the normal), at these coordinates of its first
    /// in-plane axis (node coordinates): profiles of the mean speed and temperature.
    std::vector<double> profiles;
    bool operator==(const AverageSpec&) const = default;
};

enum class StorageChoice { Dense, Sparse, Auto };

struct CaseSpec {
    std::string title = "untitled";
    ModelSpec model;
    std::array<int, 3> size{64, 64, 64};
    std::array<bool, 3> periodic{false, false, false};
    /// Subdomains along each axis, one per MPI rank (parallel/decomposition.hpp);
    /// all zero: chosen from the rank count.
    std::array<int, 3> decomposition{0, 0, 0};
    /// domain.storage: every node of the box, only the 4x4x4 tiles holding fluid
    /// (seed 001; backend/tiled_engine.hpp), or sparse when that needs less memory.
    StorageChoice storage = StorageChoice::Dense;
    double initial_density = 1.0;
    /// initial.density as an expression of x, y, z (drops, layers: sim/expression.hpp);
    /// empty: the number.
    std::string initial_density_expression;
    /// initial.density_noise: each node's density times 1 + a U(-1, 1), U drawn from a hash
    /// of the node's whole-box position and initial.seed (the same field on any number of
    /// ranks): the seed of a spinodal decomposition. 0: none.
    double initial_noise = 0;
    std::uint64_t initial_seed = 1;
    std::array<double, 3> initial_velocity{0, 0, 0};
    std::array<boundary::FaceSpec, 6> faces{};  // x_min, x_max, y_min, y_max, z_min, z_max
    std::vector<Obstacle> obstacles;
    std::array<double, 3> body_force{0, 0, 0};
    ThermalSpec thermal;
    MultiphaseSpec multiphase;
    UnitsSpec units;  // [units]: the case was written in SI and converted (sim/units.hpp)
    RunSpec run;
    OutputSpec output;
    ForceReportSpec forces;
    ProbeSpec probes;
    AverageSpec average;
    /// What a checkpoint of this case must match (barracuda run --restart): a hash of
    /// `canonical`. Empty for a case built in code.
    std::string fingerprint;
    /// The case as a restart compares it (io/case_file.cpp): as read, overrides
    /// included, keys sorted, without the title, run.steps, run.backend and [output]
    /// (what a restart may change), with the relaxation time as model.tau whether the
    /// case gave tau or the viscosity. One "key = value" per line under [table] lines.
    std::string canonical;
    /// Where the case was read from (io::parse_case_file: the file, beside which relative
    /// obstacle files are found), for reading its canonical text again (io::same_case).
    std::string source;

    std::int64_t cells() const { return std::int64_t(size[0]) * size[1] * size[2]; }
    /// Whether the lattice stores one sub-lattice only (D3Q13, storage::Grid::sublattice).
    bool stores_sublattice() const { return lattice::stores_sublattice(model.lattice); }
    /// Nodes the lattice stores and updates: every cell, or half of them on D3Q13.
    std::int64_t stored_nodes() const { return stores_sublattice() ? cells() / 2 : cells(); }
    bool operator==(const CaseSpec&) const = default;
};

/// Two Shan-Chen components (multiphase.model = "shan-chen-binary"): the observed rho is
/// A's density, theta B's; both are densities (the free energy's theta is phi).
inline bool two_components(const CaseSpec& spec) {
    return spec.multiphase.enabled && spec.multiphase.binary && !spec.multiphase.free_energy;
}

/// The free-energy binary fluid (multiphase.model = "free-energy"): the second set of
/// populations carries the order parameter phi, which the observed theta is.
inline bool order_parameter(const CaseSpec& spec) {
    return spec.multiphase.enabled && spec.multiphase.binary && spec.multiphase.free_energy;
}

/// Steps between force samples: forces.interval, or its default.
inline std::int64_t force_interval(const CaseSpec& spec) {
    if (spec.forces.interval > 0) return spec.forces.interval;
    return spec.output.interval > 0 ? spec.output.interval : spec.run.check_interval;
}

/// Steps between probe samples: probes.interval, or its default.
inline std::int64_t probe_interval(const CaseSpec& spec) {
    if (spec.probes.interval > 0) return spec.probes.interval;
    return spec.output.interval > 0 ? spec.output.interval : spec.run.check_interval;
}

/// The largest lattice velocity accepted anywhere in a case (initial field,
/// boundary values). Above it the second-order equilibrium loses positivity
/// and BGK runs blow up; Ma = 0.4 / sqrt(1/3) ~ 0.69.
inline constexpr double max_lattice_velocity = 0.4;
/// The largest relaxation time a case may have (sim/case_check.cpp says why).
inline constexpr double max_tau = 100.0;

}  // namespace barracuda::sim
