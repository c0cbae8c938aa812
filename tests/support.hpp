// Small helpers shared by the solver tests: engine setups for boxes with
// given faces, and field norms.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "backend/engine.hpp"

namespace barracuda::test {

/// A box with every face periodic; callers change faces as needed.
inline backend::EngineSetup periodic_box(lattice::Kind lat, int nx, int ny, int nz, double tau,
                                         storage::Precision prec = storage::Precision::FP64,
                                         physics::CollisionKind col = physics::CollisionKind::BGK) {
    backend::EngineSetup s;
    s.lattice = lat;
    s.collision = col;
    s.precision = prec;
    s.grid = {{nx, ny, nz}, {true, true, true}, lattice::stores_sublattice(lat)};  // D3Q13: one sub-lattice
    for (int f = 0; f < 6; ++f) {
        s.faces.type[f] = boundary::FaceType::Periodic;
        s.faces.method[f] = boundary::Method::ZouHe;
        s.faces.density[f] = 1.0;
    }
    s.node_kind.assign(s.grid.cells(), boundary::Fluid);
    s.tau = tau;
    // The case defaults of each lattice (sim::fill_model_defaults).
    s.mrt = lat == lattice::Kind::D2Q9    ? physics::MrtRateSet{1 / tau, 1.64, 1.54, 1.9, 1, 1}
            : lat == lattice::Kind::D3Q13 ? physics::MrtRateSet{1 / tau, 1, 1, 1, 1, 1}  // s_e = s_h = 1 (seed 000)
            : lat == lattice::Kind::D3Q15 ? physics::MrtRateSet{1 / tau, 1.6, 1.2, 1.6, 1, 1.2}
            : lat == lattice::Kind::D3Q27 ? physics::MrtRateSet{1 / tau, 1, 1, 1, 1, 1}
                                          : physics::MrtRateSet{1 / tau, 1.19, 1.4, 1.2, 1.4, 1.98};
    return s;
}

/// Makes the two faces of `axis` non-periodic with the given type.
inline void set_faces(backend::EngineSetup& s, int axis, boundary::FaceType lo, boundary::FaceType hi) {
    s.grid.periodic[axis] = false;
    s.faces.type[2 * axis] = lo;
    s.faces.type[2 * axis + 1] = hi;
}

/// A channel along x exercising every boundary rule: a velocity inlet
/// (parabolic) and a pressure outlet, a resting wall at y_min and a moving wall
/// at y_max, in 3D a free-slip face at z_min and a wall at z_max, a solid box in
/// the flow and a small body force.
inline backend::EngineSetup every_boundary_channel(lattice::Kind lat, physics::CollisionKind col,
                                                   physics::EquilibriumKind eq, storage::Precision prec,
                                                   boundary::Method method,
                                                   storage::Pattern pattern = storage::Pattern::TwoCopy) {
    using boundary::FaceType;
    const bool three_d = lat != lattice::Kind::D2Q9;
    auto s = periodic_box(lat, 24, 14, three_d ? 6 : 1, 0.7, prec, col);
    s.equilibrium = eq;
    s.pattern = pattern;
    s.grid.periodic[0] = false;
    s.faces.type[boundary::XMin] = FaceType::Velocity;
    s.faces.type[boundary::XMax] = FaceType::Pressure;
    s.faces.method[boundary::XMin] = s.faces.method[boundary::XMax] = method;
    if (method == boundary::Method::BounceBack) s.faces.method[boundary::XMax] = boundary::Method::ZouHe;  // velocity faces only
    s.faces.profile[boundary::XMin] = boundary::Profile::Parabolic;
    s.faces.velocity[boundary::XMin][0] = 0.05;
    s.faces.density[boundary::XMax] = 0.995;
    set_faces(s, 1, FaceType::Wall, FaceType::MovingWall);
    s.faces.velocity[boundary::YMax][0] = 0.03;
    if (three_d) set_faces(s, 2, FaceType::FreeSlip, FaceType::Wall);
    for (int z = 0; z < s.grid.n[2]; ++z)
        for (int y = 5; y < 8; ++y)
            for (int x = 8; x < 11; ++x)
                if (s.grid.holds(x, y, z)) s.node_kind[s.grid.index(x, y, z)] = boundary::Solid;
    s.force[0] = 1e-5;
    s.force[1] = -2e-6;
    // Absorbing layers in front of both open faces (boundary/sponge.hpp).
    s.faces.sponge[boundary::XMin] = {3, 0.05, 1.0, false, {0.05, 0, 0}};
    s.faces.sponge[boundary::XMax] = {6, 0.1, 0.995, true, {0.02, 0.001, 0}};  // keeps its density: 0.995 unused
    s.faces.has_sponge = true;
    return s;
}

/// A non-uniform start so every population and branch is exercised.
inline void initialize_wavy(backend::Engine& e, const backend::EngineSetup& s) {
    const auto n = s.grid.cells();
    std::vector<double> rho(n), u(3 * n);
    for (std::int64_t k = 0; k < n; ++k) {
        rho[k] = 1.0 + 0.01 * std::sin(0.37 * double(k));
        u[3 * k] = 0.04 * std::cos(0.11 * double(k));
        u[3 * k + 1] = 0.02 * std::sin(0.23 * double(k));
        u[3 * k + 2] = s.lattice == lattice::Kind::D2Q9 ? 0.0 : 0.01 * std::cos(0.05 * double(k));
    }
    e.initialize(rho, u);
}

/// max |f_b - f_a| / max |f_a| over all populations of two engines of the same setup
/// (the GPU-vs-CPU oracle's measure; shifted populations).
inline double max_relative_population_difference(backend::Engine& a, backend::Engine& b) {
    std::vector<double> fa, fb;
    a.populations(fa);
    b.populations(fb);
    double diff = 0, scale = 0;
    for (std::size_t i = 0; i < fa.size(); ++i) {
        diff = std::max(diff, std::abs(fb[i] - fa[i]));
        scale = std::max(scale, std::abs(fa[i]));
    }
    return diff / scale;
}

inline void initialize_at_rest(backend::Engine& e, const backend::EngineSetup& s, double rho0 = 1.0) {
    const auto n = s.grid.cells();
    e.initialize(std::vector<double>(n, rho0), std::vector<double>(3 * n, 0.0));
}

/// Seed 004's room in small (tests/test_reflecting_cells.cpp, tests/gpu): an inlet of
/// the bounce-back method with expressions for its velocity and temperature, a pressure
/// outlet with an absorbing layer, walls held at a temperature (one by an expression),
/// a flux wall, a moving wall, a free-slip face, a heater and a cold sphere.
inline constexpr const char* small_room = R"(
[model]
lattice = "D3Q19"
collision = "regularized"
precision = "fp32"
tau = 0.52
smagorinsky = 0.1
[domain]
size = [24, 14, 12]
[thermal]
lattice = "D3Q7"
prandtl = 0.71
expansion = 0.01
gravity = [0, -0.001, 0]
turbulent_prandtl = 0.9
[boundary.x_min]
type = "velocity"
method = "bounce_back"
velocity = ["(y > 8 && z > 3 && z < 9) ? 0.05 : 0", 0, 0]
temperature = "(y > 8 && z > 3 && z < 9) ? 1 : 0.5 * y / 14"
[boundary.x_max]
type = "pressure"
density = 1.0
[boundary.x_max.sponge]
width = 4
strength = 0.05
velocity = [0.02, 0, 0]
[boundary.y_min]
type = "wall"
temperature = "0.1 * x / 24"
[boundary.y_max]
type = "moving_wall"
velocity = [0.02, 0, 0]
heat_flux = 0.001
[boundary.z_min]
type = "wall"
temperature = -0.2
[boundary.z_max]
type = "free_slip"
[[obstacle]]
name = "heater"
shape = "box"
min = [8, 2, 3]
max = [10, 4, 5]
power = 0.05
[[obstacle]]
name = "cold"
shape = "sphere"
center = [15, 7, 6]
radius = 2.5
temperature = -1
)";

}  // namespace barracuda::test
