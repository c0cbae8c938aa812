// The CUDA backend against the CPU oracle for a moving obstacle (a sliding pipe
// wall, kernel/links.hpp), a resting sphere inside it, an equilibrium inlet and a
// Zou-He pressure outlet beside the pipe's solid nodes, started with the strain
// rate's non-equilibrium part (Engine::initialize with strain): the sphere-in-a-pipe
// validation case in miniature; BGK, TRT, MRT and regularized BGK, each without and with
// the Smagorinsky closure (physics/les.hpp). Tolerances as in test_gpu_oracle.cpp (FP64 1e-12,
// FP32 2e-5 of the largest shifted population). Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../support.hpp"
#include "backend/device_info.hpp"
#include "gpu_support.hpp"
#include "backend/engine.hpp"
#include "sim/case_spec.hpp"
#include "sim/simulation.hpp"
#include "sim/case_check.hpp"

namespace barracuda {
namespace {

sim::CaseSpec pipe_case(storage::Precision p, physics::CollisionKind c, storage::Pattern pattern) {
    sim::CaseSpec s;
    s.model.lattice = lattice::Kind::D3Q19;
    s.model.collision = c;
    s.model.precision = p;
    s.model.streaming = pattern;
    s.model.tau = 0.7;
    s.size = {16, 16, 40};
    s.faces[boundary::ZMin].type = boundary::FaceType::Velocity;
    s.faces[boundary::ZMin].method = boundary::Method::Equilibrium;
    s.faces[boundary::ZMin].velocity = {0, 0, 0.03};
    s.faces[boundary::ZMax].type = boundary::FaceType::Pressure;
    sim::Obstacle pipe;
    pipe.name = "pipe";
    pipe.kind = sim::Obstacle::Shape::Pipe;
    pipe.axis = 2;
    pipe.center = {7.5, 7.5, 0};
    pipe.radius = 7.2;
    pipe.max = {0, 0, 39};
    pipe.velocity = {0, 0, 0.03};
    sim::Obstacle sphere;
    sphere.name = "sphere";
    sphere.kind = sim::Obstacle::Shape::Sphere;
    sphere.center = {7.5, 7.5, 19.5};
    sphere.radius = 3.6;
    s.obstacles = {pipe, sphere};
    s.forces.obstacles = {"sphere"};
    s.forces.reference_velocity = 0.03;
    s.forces.reference_area = 40;
    s.forces.flow_axis = 2;
    sim::fill_model_defaults(s);
    sim::check_case(s);
    return s;
}

TEST(GpuOracle, MovingObstacleAndStrainInitialisationMatchCpu) {
    if (backend::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU on this machine";
    for (auto p : {storage::Precision::FP64, storage::Precision::FP32})
        for (auto c : {physics::CollisionKind::BGK, physics::CollisionKind::TRT, physics::CollisionKind::MRT,
                       physics::CollisionKind::Regularized})
            for (double smagorinsky : {0.0, 0.17})
            for (auto pattern : {storage::Pattern::TwoCopy, storage::Pattern::InPlace}) {
                sim::CaseSpec spec;
                if (!test::case_offered([&] { spec = pipe_case(p, c, pattern); })) continue;
                if (!test::gpu_engine_built({spec.model.lattice, p, spec.model.equilibrium, c, pattern})) continue;
                spec.model.smagorinsky = smagorinsky;  // > 0: a per-cell tau
                const auto setup = sim::engine_setup(spec);
                auto cpu = backend::make_cpu_engine(setup), gpu = backend::make_cuda_engine(setup);
                const auto n = std::size_t(setup.grid.cells());
                std::vector<double> rho(n, 1.0), u(3 * n, 0.0), strain(6 * n);
                for (std::size_t k = 0; k < n; ++k) {
                    u[3 * k + 2] = 0.03 + 0.005 * std::sin(0.3 * double(k));
                    for (int a = 0; a < 6; ++a) strain[6 * k + a] = 1e-3 * std::cos(0.17 * double(k) + a);
                }
                cpu->initialize(rho, u, strain);
                gpu->initialize(rho, u, strain);
                cpu->step(50), gpu->step(50);
                const double rel = test::max_relative_population_difference(*cpu, *gpu);
                const double tol = p == storage::Precision::FP64 ? 1e-12 : 2e-5;
                const char* what = storage::name_of(p);
                EXPECT_LT(rel, tol) << what << " " << physics::name_of(c) << " C = " << smagorinsky << " "
                                    << storage::name_of(pattern);
                const auto a = cpu->obstacle_forces(), b = gpu->obstacle_forces();
                ASSERT_EQ(a.size(), 1u);
                EXPECT_NEAR(b[0][2], a[0][2], 1e3 * tol * std::abs(a[0][2]) + 1e-300) << what;
                std::printf("  moving pipe %s %s C = %.2f %s: max rel diff %.2e, F_z cpu %.6e gpu %.6e\n", what,
                            physics::name_of(c), smagorinsky, storage::name_of(pattern), rel, a[0][2], b[0][2]);
            }
}

// Interpolated bounce-back (kernel/interpolated_wall.hpp) on the sliding pipe and the
// sphere: the wall pass after each step, its moving-wall term and its force report, on
// D3Q19 (BGK, TRT) and D3Q13 (MRT, one sub-lattice), both streaming patterns. Same
// tolerances as above.
TEST(GpuOracle, InterpolatedWallsMatchCpu) {
    if (backend::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU on this machine";
    int compared = 0;
    for (auto p : {storage::Precision::FP64, storage::Precision::FP32})
        for (auto lat : {lattice::Kind::D3Q19, lattice::Kind::D3Q13})
            for (auto c : {physics::CollisionKind::BGK, physics::CollisionKind::TRT, physics::CollisionKind::MRT})
                for (auto pattern : {storage::Pattern::TwoCopy, storage::Pattern::InPlace}) {
                    if ((lat == lattice::Kind::D3Q13) != (c == physics::CollisionKind::MRT)) continue;
                    sim::CaseSpec spec;
                    if (!test::case_offered([&] {
                            spec = pipe_case(p, c, pattern);
                            spec.model.lattice = lat;
                            for (auto& o : spec.obstacles) o.interpolated = true;
                            sim::fill_model_defaults(spec);
                            sim::check_case(spec);
                        }))
                        continue;
                    if (!test::gpu_engine_built({lat, p, spec.model.equilibrium, c, pattern})) continue;
                    const auto setup = sim::engine_setup(spec);
                    ASSERT_GT(setup.wall_links.size(), 0u);
                    auto cpu = backend::make_cpu_engine(setup), gpu = backend::make_cuda_engine(setup);
                    cpu->initialize_uniform(1.0, {0, 0, 0.03});
                    gpu->initialize_uniform(1.0, {0, 0, 0.03});
                    cpu->step(50), gpu->step(50);  // 50: one graph of 32 steps and 18 single launches
                    const double rel = test::max_relative_population_difference(*cpu, *gpu);
                    const double tol = p == storage::Precision::FP64 ? 1e-12 : 2e-5;
                    const std::string what = std::string(storage::name_of(p)) + " " + std::string(lattice::name_of(lat)) + " " +
                                             physics::name_of(c) + " " + storage::name_of(pattern);
                    EXPECT_LT(rel, tol) << what;
                    const auto a = cpu->obstacle_forces(), b = gpu->obstacle_forces();
                    ASSERT_EQ(a.size(), 1u);
                    EXPECT_NEAR(b[0][2], a[0][2], 1e3 * tol * std::abs(a[0][2])) << what;
                    std::printf("  interpolated walls %s: %zu links, max rel diff %.2e, F_z cpu %.6e gpu %.6e\n",
                                what.c_str(), setup.wall_links.size(), rel, a[0][2], b[0][2]);
                    ++compared;
                }
    EXPECT_GT(compared, 0) << "no CUDA unit for these lattices was built";
}

}  // namespace
}  // namespace barracuda
