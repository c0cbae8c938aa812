// Checkpoints on the GPU (Engine::save_state / restore_state): a CUDA run stopped
// and restored goes on bit for bit as without the stop, and a state saved by the
// CPU oracle goes on on the GPU as the CPU goes on (the layouts are the same).
// Skipped on machines without a CUDA GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../support.hpp"
#include "backend/device_info.hpp"
#include "gpu_support.hpp"

namespace barracuda {
namespace {

TEST(GpuCheckpoint, GoesOnBitForBitAndFromTheCpu) {
    if (backend::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU on this machine";
    struct Combo {
        lattice::Kind lattice;
        physics::CollisionKind collision;
        storage::Precision precision;
        storage::Pattern pattern;
        double tolerance;  // CPU -> GPU against CPU -> CPU: tests/gpu/test_gpu_oracle.cpp's per precision
    };
    const Combo combos[] = {
        {lattice::Kind::D3Q19, physics::CollisionKind::TRT, storage::Precision::FP32, storage::Pattern::TwoCopy, 2e-5},
        {lattice::Kind::D3Q19, physics::CollisionKind::BGK, storage::Precision::FP64, storage::Pattern::InPlace, 1e-12},
        {lattice::Kind::D3Q13, physics::CollisionKind::MRT, storage::Precision::FP32, storage::Pattern::InPlace, 2e-5},
        {lattice::Kind::D3Q19, physics::CollisionKind::MRT, storage::Precision::FP16, storage::Pattern::TwoCopy, 5e-3},
    };
    int ran = 0;
    for (const auto& c : combos) {
        if (!test::gpu_engine_built({c.lattice, c.precision, physics::EquilibriumKind::Compressible, c.collision, c.pattern})) continue;
        ++ran;
        const auto s = test::every_boundary_channel(c.lattice, c.collision, physics::EquilibriumKind::Compressible,
                                                    c.precision, boundary::Method::ZouHe, c.pattern);
        const std::string what = std::string(lattice::name_of(c.lattice)) + " " + physics::name_of(c.collision) +
                                 " " + storage::name_of(c.precision) + " " + storage::name_of(c.pattern);
        // GPU -> GPU: bit for bit.
        auto straight = backend::make_cuda_engine(s), stopped = backend::make_cuda_engine(s);
        test::initialize_wavy(*straight, s);
        test::initialize_wavy(*stopped, s);
        straight->step(37);
        stopped->step(37);
        const auto state = stopped->save_state();
        stopped.reset();
        // The resumed engine has captured its step graphs (32 steps each) on the other
        // parity before the restore, and launches them after it.
        auto resumed = backend::make_cuda_engine(s);
        test::initialize_wavy(*resumed, s);
        resumed->step(66);
        resumed->restore_state(state);
        straight->step(70);
        resumed->step(70);
        std::vector<double> a, b;
        straight->populations(a);
        resumed->populations(b);
        ASSERT_EQ(a.size(), b.size()) << what;
        std::size_t differ = 0;
        for (std::size_t k = 0; k < a.size(); ++k) differ += a[k] != b[k];
        EXPECT_EQ(differ, 0u) << what;

        // CPU -> GPU against CPU -> CPU.
        auto cpu = backend::make_cpu_engine(s);
        test::initialize_wavy(*cpu, s);
        cpu->step(37);
        auto gpu = backend::make_cuda_engine(s);
        gpu->restore_state(cpu->save_state());
        cpu->step(70);
        gpu->step(70);
        std::vector<double> fc, fg;
        cpu->populations(fc);
        gpu->populations(fg);
        double diff = 0, scale = 0;
        for (std::size_t k = 0; k < fc.size(); ++k) {
            diff = std::max(diff, std::abs(fg[k] - fc[k]));
            scale = std::max(scale, std::abs(fc[k]));
        }
        // The observed mass (Observation::mass) of the two continuations: the fluid cells
        // counted alike, the mean density to the populations' tolerance (rho ~ 1).
        const auto oc = cpu->observe(0.5, 1.5, false), og = gpu->observe(0.5, 1.5, false);
        EXPECT_EQ(oc.fluid_cells, og.fluid_cells) << what;
        EXPECT_NEAR(og.mean_density(), oc.mean_density(), c.tolerance) << what;
        std::printf("  checkpoint %-34s gpu->gpu %zu differing, cpu->gpu %.2e (tolerance %.0e), mean density cpu %.9f "
                    "gpu %.9f\n",
                    what.c_str(), differ, diff / scale, c.tolerance, oc.mean_density(), og.mean_density());
        EXPECT_LE(diff / scale, c.tolerance) << what;
    }
    if (ran == 0) GTEST_SKIP() << "none of the combinations is in this build";
}

}  // namespace
}  // namespace barracuda
