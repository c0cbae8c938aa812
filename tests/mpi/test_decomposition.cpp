// Decomposition independence (issue 5): the same case on 1 rank and on the
// ranks of this MPI job, split in every way the rank count allows, gives
// bit-identical fields and obstacle forces. Run under mpirun with 1, 2 and 4
// ranks (tests/CMakeLists.txt); on each rank the decomposed engine takes its
// subdomain, rank 0 also runs the whole box alone (no halo, so no MPI) and
// compares every owned cell gathered from the ranks with it, bit for bit.
// Tolerance: none. Each cell's update reads the same values in the same order
// whatever the decomposition, and forces are order-independent integer sums
// (kernel/fixed_sum.hpp), so any difference is a bug.
// BARRACUDA_TEST_BACKEND=cuda runs every engine on the GPUs instead (rank k on the
// node's GPU k, its halos by CUDA IPC; rank 0's whole box on its GPU too):
// tools/device.sh scaling, one rank per GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "backend/device_info.hpp"
#include "backend/engine.hpp"
#include "io/case_file.hpp"
#include "parallel/comm.hpp"
#include "parallel/decomposition.hpp"
#include "sim/simulation.hpp"
#include "sim/case_check.hpp"

namespace {

using namespace barracuda;

bool on_gpus() {
    const char* b = std::getenv("BARRACUDA_TEST_BACKEND");
    return b && std::string(b) == "cuda";
}

std::unique_ptr<backend::Engine> make_engine(const backend::EngineSetup& setup) {
    return on_gpus() ? backend::make_cuda_engine(setup) : backend::make_cpu_engine(setup);
}

struct Outcome {
    std::vector<double> rho, u;  // whole box, x-fastest (rank 0)
    std::vector<double> theta;   // a coupled scalar's, likewise (empty without)
    std::vector<std::array<double, 3>> forces;
};

// The fields of the owned cells of every rank placed into the whole box on rank 0.
void gather_whole(const sim::CaseSpec& spec, const parallel::Subdomain& sub, const std::vector<double>& rho,
                  const std::vector<double>& u, const std::vector<double>& theta, Outcome& out) {
    const auto& comm = parallel::Comm::world();
    const auto g = sub.local_grid();
    std::vector<double> mine;
    for (int z = 0; z < sub.owned_size[2]; ++z)
        for (int y = 0; y < sub.owned_size[1]; ++y)
            for (int x = 0; x < sub.owned_size[0]; ++x) {
                const auto c = std::size_t(g.index(x + sub.ghost_lo[0], y + sub.ghost_lo[1], z + sub.ghost_lo[2]));
                mine.insert(mine.end(), {rho[c], u[3 * c], u[3 * c + 1], u[3 * c + 2], theta.empty() ? 0.0 : theta[c]});
            }
    std::vector<unsigned char> bytes(mine.size() * sizeof(double));
    std::memcpy(bytes.data(), mine.data(), bytes.size());
    std::vector<std::size_t> sizes;
    const auto all = comm.gather(bytes, &sizes);
    if (comm.rank() != 0) return;
    const auto cells = std::size_t(spec.cells());
    out.rho.assign(cells, 0), out.u.assign(3 * cells, 0);
    if (!theta.empty()) out.theta.assign(cells, 0);
    std::size_t at = 0;
    for (int r = 0; r < comm.size(); ++r) {
        const auto p = parallel::make_subdomain(spec.size, spec.periodic, sub.dims, r);
        for (int z = 0; z < p.owned_size[2]; ++z)
            for (int y = 0; y < p.owned_size[1]; ++y)
                for (int x = 0; x < p.owned_size[0]; ++x) {
                    const auto c = std::size_t(x + p.owned_origin[0] +
                                               std::int64_t(spec.size[0]) * (y + p.owned_origin[1] +
                                                                             std::int64_t(spec.size[1]) * (z + p.owned_origin[2])));
                    double v[5];
                    std::memcpy(v, all.data() + at, sizeof v);
                    at += sizeof v;
                    out.rho[c] = v[0], out.u[3 * c] = v[1], out.u[3 * c + 1] = v[2], out.u[3 * c + 2] = v[3];
                    if (!out.theta.empty()) out.theta[c] = v[4];
                }
    }
}

std::vector<std::array<double, 3>> summed_forces(backend::Engine& e) {
    auto sums = e.obstacle_force_sums();
    const auto& comm = parallel::Comm::world();
    const std::size_t bytes = sums.size() * sizeof(backend::ForceSum);
    const auto all = comm.all_gather(sums.data(), bytes);
    std::vector<backend::ForceSum> total(sums.size());
    for (int r = 0; r < comm.size(); ++r) {
        std::vector<backend::ForceSum> part(sums.size());
        if (bytes) std::memcpy(part.data(), all.data() + std::size_t(r) * bytes, bytes);
        for (std::size_t k = 0; k < sums.size(); ++k)
            for (std::size_t a = 0; a < 3; ++a) total[k][a].merge(part[k][a]);
    }
    std::vector<std::array<double, 3>> out(sums.size());
    for (std::size_t k = 0; k < sums.size(); ++k)
        for (std::size_t a = 0; a < 3; ++a) out[k][a] = total[k][a].value();
    return out;
}

// A multiphase case's initial fields at a global node: the density (component A's) and,
// for a binary fluid, the second field (B's density, or phi).
struct Fields {
    std::function<double(int, int, int)> density, second;
};

// The fields at every cell of the rank's local box, ghosts included (their global nodes).
void place(backend::Engine& e, const parallel::Subdomain& sub, const Fields& f) {
    const auto g = sub.local_grid();
    const auto n = std::size_t(g.cells());
    std::vector<double> rho(n), second(n), u(3 * n, 0.0);
    const auto size = sub.local_size();
    for (int z = 0; z < size[2]; ++z)
        for (int y = 0; y < size[1]; ++y)
            for (int x = 0; x < size[0]; ++x) {
                const auto c = std::size_t(g.index(x, y, z));
                const int gx = sub.global_coordinate(0, x), gy = sub.global_coordinate(1, y),
                          gz = sub.global_coordinate(2, z);
                rho[c] = f.density(gx, gy, gz);
                if (f.second) second[c] = f.second(gx, gy, gz);
            }
    e.initialize(rho, u);
    if (f.second) e.initialize_scalar(second, u);
}

Outcome run(const sim::CaseSpec& spec, const parallel::Subdomain& sub, int steps, const Fields* init) {
    auto e = make_engine(sim::engine_setup(spec, &sub));
    if (init) place(*e, sub, *init);
    else e->initialize_uniform(spec.initial_density, spec.initial_velocity);
    e->step(steps);
    Outcome out;
    std::vector<double> rho, u, theta;
    e->fields(rho, u);
    e->scalar_field(theta);
    out.forces = summed_forces(*e);
    gather_whole(spec, sub, rho, u, theta, out);
    return out;
}

Outcome run_alone(const sim::CaseSpec& spec, int steps, const Fields* init) {
    auto e = make_engine(sim::engine_setup(spec));
    if (init) place(*e, parallel::Subdomain::whole(spec.size, spec.periodic), *init);
    else e->initialize_uniform(spec.initial_density, spec.initial_velocity);
    e->step(steps);
    Outcome out;
    e->fields(out.rho, out.u);
    e->scalar_field(out.theta);
    auto sums = e->obstacle_force_sums();
    for (const auto& s : sums) out.forces.push_back({s[0].value(), s[1].value(), s[2].value()});
    return out;
}

// Every rank grid for the job's rank count that can split the box.
std::vector<std::array<int, 3>> splits(const sim::CaseSpec& spec) {
    const int n = parallel::Comm::world().size();
    std::vector<std::array<int, 3>> out;
    for (int dz = 1; dz <= n; ++dz)
        for (int dy = 1; dy <= n; ++dy)
            if (n % (dy * dz) == 0) {
                const std::array<int, 3> d{n / (dy * dz), dy, dz};
                if (parallel::decomposition_problem(d, n, spec.size).empty()) out.push_back(d);
            }
    return out;
}

void expect_identical(const std::string& toml, int steps, const Fields* init = nullptr) {
    auto spec = io::parse_case_string(toml, {}, "test");
    sim::fill_model_defaults(spec);
    sim::check_case(spec);
    const auto& comm = parallel::Comm::world();
    Outcome alone;
    if (comm.rank() == 0) alone = run_alone(spec, steps, init);
    for (const auto& dims : splits(spec)) {
        SCOPED_TRACE("decomposition [" + std::to_string(dims[0]) + ", " + std::to_string(dims[1]) + ", " +
                     std::to_string(dims[2]) + "] on " + std::to_string(comm.size()) + " ranks");
        const auto sub = parallel::make_subdomain(spec.size, spec.periodic, dims, comm.rank());
        const auto split = run(spec, sub, steps, init);
        if (comm.rank() != 0) continue;
        ASSERT_EQ(split.rho.size(), alone.rho.size());
        std::size_t differ = 0, first = 0;
        for (std::size_t c = 0; c < alone.rho.size(); ++c) {
            const bool same = std::memcmp(&alone.rho[c], &split.rho[c], sizeof(double)) == 0 &&
                              std::memcmp(&alone.u[3 * c], &split.u[3 * c], 3 * sizeof(double)) == 0;
            if (!same && differ++ == 0) first = c;
        }
        EXPECT_EQ(differ, 0u) << "cells differ; the first is " << first << " (rho " << alone.rho[first] << " vs "
                              << split.rho[first] << ")";
        ASSERT_EQ(split.theta.size(), alone.theta.size());
        std::size_t theta_differ = 0;
        for (std::size_t c = 0; c < alone.theta.size(); ++c)
            theta_differ += std::memcmp(&alone.theta[c], &split.theta[c], sizeof(double)) != 0;
        EXPECT_EQ(theta_differ, 0u) << "temperatures differ";
        ASSERT_EQ(split.forces.size(), alone.forces.size());
        for (std::size_t k = 0; k < alone.forces.size(); ++k)
            for (std::size_t a = 0; a < 3; ++a)
                EXPECT_EQ(std::memcmp(&alone.forces[k][a], &split.forces[k][a], sizeof(double)), 0)
                    << "force " << k << " axis " << a << ": " << alone.forces[k][a] << " vs " << split.forces[k][a];
    }
}

// Periodic x, walls (one moving) in y, a cylinder crossing the subdomain faces,
// a body force; forces reported on the cylinder.
const char* d2q9_case = R"(
[model]
lattice = "D2Q9"
collision = "trt"
precision = "fp64"
viscosity = 0.05
[domain]
size = [32, 20]
periodic = [true, false]
[boundary.y_min]
type = "wall"
[boundary.y_max]
type = "moving_wall"
velocity = [0.04, 0.0]
[[obstacle]]
name = "cyl"
shape = "cylinder"
axis = "z"
center = [15.5, 9.5]
radius = 4
[force]
body = [1e-5, 0.0]
[forces]
obstacles = ["cyl"]
reference_velocity = 0.04
reference_area = 8
)";

TEST(Decomposition, D2Q9PeriodicWallsObstacleForces) { expect_identical(d2q9_case, 60); }

// A channel with a parabolic velocity inlet and a pressure outlet (Zou-He), walls
// in y: the profile is measured against the whole box, not a subdomain.
TEST(Decomposition, D2Q9OpenFacesParabolicProfile) {
    expect_identical(R"(
[model]
lattice = "D2Q9"
collision = "mrt"
precision = "fp32"
viscosity = 0.04
[domain]
size = [30, 18]
[boundary.x_min]
type = "velocity"
profile = "parabolic"
velocity = [0.05, 0.0]
[boundary.x_max]
type = "pressure"
density = 1.0
[boundary.y_min]
type = "wall"
[boundary.y_max]
type = "wall"
)",
                     60);
}

std::string box3d(const char* lattice, const char* collision, const char* precision) {
    return std::string(R"(
[model]
lattice = ")") + lattice + R"("
collision = ")" + collision + R"("
precision = ")" + precision + R"("
viscosity = 0.05
[domain]
size = [16, 12, 14]
periodic = [true, false, true]
[boundary.y_min]
type = "wall"
[boundary.y_max]
type = "moving_wall"
velocity = [0.05, 0.0, 0.02]
[[obstacle]]
name = "ball"
shape = "sphere"
center = [7.5, 5.5, 6.5]
radius = 3.2
[force]
body = [2e-6, 0.0, 1e-6]
[forces]
obstacles = ["ball"]
reference_velocity = 0.05
reference_area = 32
)";
}

// [thermal]: the temperature lattice's populations cross the subdomain faces with the
// flow's (parallel::HaloPlan::split). Held walls, an obstacle at a temperature, buoyancy.
TEST(Decomposition, D2Q9ThermalBuoyantBox) {
    expect_identical(R"(
[model]
lattice = "D2Q9"
collision = "trt"
precision = "fp64"
viscosity = 0.05
[domain]
size = [32, 20]
[boundary.x_min]
type = "wall"
temperature = 1.0
[boundary.x_max]
type = "wall"
temperature = -1.0
[boundary.y_max]
type = "moving_wall"
velocity = [0.03, 0.0]
[thermal]
prandtl = 0.71
expansion = 0.01
gravity = [0, -0.05]
[[obstacle]]
name = "cold"
shape = "cylinder"
axis = "z"
center = [15.5, 9.5]
radius = 3
temperature = -0.5
)", 60);
}
// An inflow temperature, a zero-gradient outlet and a heater across the faces, D3Q19 + D3Q7.
TEST(Decomposition, D3Q19ThermalDuctWithHeater) {
    expect_identical(R"(
[model]
lattice = "D3Q19"
collision = "trt"
precision = "fp64"
viscosity = 0.04
[domain]
size = [24, 12, 10]
[boundary.x_min]
type = "velocity"
velocity = [0.03, 0, 0]
temperature = 0.5
[boundary.x_max]
type = "pressure"
density = 1.0
[boundary.y_min]
type = "wall"
[boundary.y_max]
type = "wall"
heat_flux = 0.001
[boundary.z_min]
type = "wall"
[boundary.z_max]
type = "wall"
[thermal]
lattice = "D3Q7"
prandtl = 0.71
expansion = 0.01
gravity = [0, -0.01, 0]
[[obstacle]]
name = "heater"
shape = "box"
min = [10, 3, 3]
max = [13, 6, 6]
power = 0.2
)", 30);
}

TEST(Decomposition, D3Q19PeriodicWallsSphere) { expect_identical(box3d("D3Q19", "mrt", "fp64"), 30); }
TEST(Decomposition, D3Q15PeriodicWallsSphere) { expect_identical(box3d("D3Q15", "bgk", "fp32"), 30); }
TEST(Decomposition, D3Q27PeriodicWallsSphere) { expect_identical(box3d("D3Q27", "trt", "fp64"), 30); }

// Sparse storage (issue 22): a random sphere pack between walls, its tiles stored
// per rank (ghost layers included); the halo lists in tile order leave out solid nodes.
std::string sparse_pack(const char* collision, const char* relaxation, const char* porosity) {
    return std::string(R"(
[model]
lattice = "D3Q19"
collision = ")") + collision + "\"\n" + relaxation + R"(
precision = "fp32"
[domain]
size = [24, 20, 16]
periodic = [true, false, true]
storage = "sparse"
[boundary.y_min]
type = "wall"
[boundary.y_max]
type = "wall"
[force]
body = [1e-5, 0, 0]
[[obstacle]]
name = "pack"
shape = "sphere_pack"
diameter = 7
porosity = )" + porosity + R"(
seed = 3
)";
}

TEST(Decomposition, D3Q19SparseSpherePack) { expect_identical(sparse_pack("trt", "viscosity = 0.05", "0.5"), 30); }

// Sparse storage with a multiphase model: the macro fields' halo lists in tile order too
// (backend/tiled_engine.cpp). Two components in the sphere pack.
TEST(Decomposition, D3Q19SparseTwoComponentsInAPack) {
    const auto r = [](int x, int y, int z) { return std::tanh((5 - std::hypot(x - 8.5, y - 9.5, z - 7.5)) / 2); };
    const Fields init{[r](int x, int y, int z) { return 0.53 + 0.47 * r(x, y, z); },
                      [r](int x, int y, int z) { return 0.53 - 0.47 * r(x, y, z); }};
    expect_identical(sparse_pack("bgk", "tau = 1.0", "0.6") + R"(
[multiphase]
model = "shan-chen-binary"
g = 1.5
viscosity_b = 0.1
[initial]
density_b = 0.5
)", 30, &init);
}

// Sparse storage where a rank's whole local box is solid (split along x, the half
// beyond x = 11 a block): that rank stores no tile but the absent one and takes part in
// every exchange with empty lists; the flow beside it is that of one rank.
TEST(Decomposition, D3Q19SparseRankWithoutFluid) {
    expect_identical(R"(
[model]
lattice = "D3Q19"
collision = "trt"
precision = "fp32"
viscosity = 0.05
[domain]
size = [24, 20, 16]
periodic = [false, true, true]
storage = "sparse"
[force]
body = [0, 1e-5, 0]
[[obstacle]]
name = "block"
shape = "box"
min = [11, 0, 0]
max = [23, 19, 15]
[[obstacle]]
name = "ball"
shape = "sphere"
center = [5.5, 9.5, 7.5]
radius = 3
)", 30);
}

// A duct with a velocity inlet and pressure outlet on every split axis' ends.
TEST(Decomposition, D3Q19OpenFacesDuct) {
    expect_identical(R"(
[model]
lattice = "D3Q19"
collision = "bgk"
precision = "fp32"
viscosity = 0.05
[domain]
size = [16, 12, 12]
[boundary.x_min]
type = "velocity"
profile = "parabolic"
velocity = [0.04, 0.0, 0.0]
[boundary.x_max]
type = "pressure"
density = 1.0
)",
                     30);
}

// The multiphase models (issue 23): their macro fields (psi, psi_A and psi_B, phi) cross
// the subdomain faces after the first pass (parallel::make_field_plan), a binary fluid's
// second set with the populations. A drop on a wall beside a cylinder, a free-slip top,
// a body force along the periodic x.
const char* multiphase_box = R"(
[model]
lattice = "D2Q9"
precision = "fp64"
collision = "bgk"
tau = 0.9
[domain]
size = [32, 20]
periodic = [true, false]
[boundary.y_min]
type = "wall"
[boundary.y_max]
type = "free_slip"
[[obstacle]]
name = "cyl"
shape = "cylinder"
axis = "z"
center = [23.5, 6.5]
radius = 3
[force]
body = [1e-5, 0.0]
)";

double drop(int x, int y) { return std::tanh((7 - std::hypot(x - 10.0, y + 0.5)) / 2); }

TEST(Decomposition, D2Q9FreeEnergyWettingDrop) {
    const Fields init{[](int, int, int) { return 1.0; }, [](int x, int y, int) { return drop(x, y); }};
    expect_identical(std::string(multiphase_box) + R"(
[multiphase]
model = "free-energy"
viscosity_b = 0.1
contact_angle = 60
[initial]
phi = "1"
)", 40, &init);
}

TEST(Decomposition, D2Q9TwoComponentShanChenDrop) {
    const Fields init{[](int x, int y, int) { return 0.5 + 0.45 * drop(x, y); },
                      [](int x, int y, int) { return 0.5 - 0.45 * drop(x, y); }};
    expect_identical(std::string(multiphase_box) + R"(
[multiphase]
model = "shan-chen-binary"
viscosity_b = 0.1
[initial]
density_b = 0.5
)", 40, &init);
}

// One component, liquid and vapour (G = -5), D3Q19 FP32: a blob of liquid in vapour
// across the faces of a periodic box split in every direction.
TEST(Decomposition, D3Q19ShanChenLiquidBlob) {
    const Fields init{[](int x, int y, int z) {
                          return 1.04 + 0.88 * std::tanh((4 - std::hypot(x - 7.5, y - 5.5, z - 5.5)) / 2);
                      },
                      {}};
    expect_identical(R"(
[model]
lattice = "D3Q19"
precision = "fp32"
collision = "bgk"
tau = 1.0
[domain]
size = [16, 12, 12]
periodic = [true, true, true]
[multiphase]
model = "shan-chen"
[initial]
density = 1.0
)", 30, &init);
}

}  // namespace

int main(int argc, char** argv) {
    barracuda::parallel::Comm::init(argc, argv);
    if (on_gpus()) barracuda::backend::use_cuda_device(barracuda::parallel::Comm::world().local_rank());
    ::testing::InitGoogleTest(&argc, argv);
    if (barracuda::parallel::Comm::world().rank() != 0) {  // one report, from rank 0
        auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
        delete listeners.Release(listeners.default_result_printer());
    }
    const int rc = RUN_ALL_TESTS();
    const bool failed = barracuda::parallel::Comm::world().any(rc != 0);
    barracuda::parallel::Comm::finalize();
    return failed ? 1 : 0;
}
