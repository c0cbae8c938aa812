// The CUDA backend against the CPU oracle for faces given by expressions of
// position and time (sim/face_values.hpp): a D3Q19 duct with a pulsating
// parabolic inflow and a pulsating outlet pressure, stepped through
// sim::Simulation::advance (the values travel to the GPU before every step).
// Tolerances as in test_gpu_oracle.cpp (FP64 1e-12, FP32 2e-5 of the largest
// shifted population). Skipped without a GPU.
#include <gtest/gtest.h>

#include <cstdio>

#include "../support.hpp"
#include "backend/device_info.hpp"
#include "gpu_support.hpp"
#include "sim/case_spec.hpp"
#include "sim/simulation.hpp"

namespace barracuda {
namespace {

TEST(GpuOracle, ExpressionFacesMatchCpu) {
    if (backend::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU on this machine";
    for (auto p : {storage::Precision::FP64, storage::Precision::FP32})
        for (auto pattern : {storage::Pattern::TwoCopy, storage::Pattern::InPlace})
            for (auto method : {boundary::Method::ZouHe, boundary::Method::Equilibrium}) {
                if (!test::gpu_engine_built({lattice::Kind::D3Q19, p, physics::EquilibriumKind::Compressible, physics::CollisionKind::TRT, pattern})) continue;
                sim::CaseSpec s;
                s.model.lattice = lattice::Kind::D3Q19;
                s.model.collision = physics::CollisionKind::TRT;
                s.model.precision = p;
                s.model.streaming = pattern;
                s.model.tau = 0.7;
                s.size = {32, 12, 10};
                s.faces[boundary::XMin].type = boundary::FaceType::Velocity;
                s.faces[boundary::XMin].method = method;
                s.faces[boundary::XMin].velocity_expression[0] =
                    "0.04 * 16 * (y + 0.5) * (ny - y - 0.5) * (z + 0.5) * (nz - z - 0.5) / (ny * nz)^2 * "
                    "(1 + 0.3 * sin(2 * _pi * t / 60))";
                s.faces[boundary::XMin].velocity_expression[2] = "0.002 * cos(_pi * y / ny) * sin(_pi * t / 40)";
                s.faces[boundary::XMax].type = boundary::FaceType::Pressure;
                s.faces[boundary::XMax].method = method;
                s.faces[boundary::XMax].density_expression = "1 + 0.001 * cos(2 * _pi * t / 50) + 1e-4 * z";
                s.output.vti = s.output.png = false;
                sim::Simulation cpu(s, sim::BackendChoice::Cpu), gpu(s, sim::BackendChoice::Cuda);
                cpu.advance(120), gpu.advance(120);
                const double rel = test::max_relative_population_difference(cpu.engine(), gpu.engine());
                const double tol = p == storage::Precision::FP64 ? 1e-12 : 2e-5;
                EXPECT_LT(rel, tol) << storage::name_of(p) << " " << storage::name_of(pattern);
                std::printf("  expression faces %s %s %s: max rel diff %.2e\n", storage::name_of(p),
                            storage::name_of(pattern), method == boundary::Method::ZouHe ? "zou-he" : "equilibrium",
                            rel);
            }
}

}  // namespace
}  // namespace barracuda
