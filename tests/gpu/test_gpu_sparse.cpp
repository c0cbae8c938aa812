// Sparse storage on the GPU (seed 001; storage/layout.hpp TiledBox): the same case
// run dense and sparse on the GPU, and sparse on the CPU. The oracle's channel
// (test_gpu_oracle.cpp) covers every sparse configuration against the CPU; here a
// porous box and a duct with every kind of boundary, where whole tiles are absent.
//
// GPU dense against GPU sparse: the same kernels, the same arithmetic per cell,
// only the addresses differ, so the fields agree bit for bit (checked; FP16 storage
// within its tolerance: its stochastic rounding draws follow the cell index). GPU against
// CPU: the oracle's tolerances (FMA contraction, test_gpu_oracle.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../sparse_cases.hpp"
#include "backend/device_info.hpp"
#include "gpu_support.hpp"
#include "common/error.hpp"
#include "sim/simulation.hpp"

namespace barracuda {
namespace {

struct Fields {
    std::vector<double> rho, u, theta;
};

Fields run(const sim::CaseSpec& spec, sim::BackendChoice backend, int steps) {
    sim::Simulation s(spec, backend);
    s.advance(steps);
    Fields f;
    s.engine().fields(f.rho, f.u);
    s.engine().scalar_field(f.theta);
    return f;
}

double max_rel(const std::vector<double>& a, const std::vector<double>& b) {
    double diff = 0, scale = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        if (!std::isfinite(b[k])) return INFINITY;
        diff = std::max(diff, std::abs(a[k] - b[k]));
        scale = std::max(scale, std::abs(a[k]));
    }
    return scale > 0 ? diff / scale : diff;
}

TEST(GpuSparse, DenseAndSparseAgreeOnTheGpuAndWithTheCpu) {
    if (backend::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU on this machine: GPU-vs-CPU tests skipped";
    struct Case {
        std::string text;
        double tolerance;  // GPU against CPU, test_gpu_oracle.cpp
    };
    const Case cases[] = {
        {test::porous_case("lattice = \"D3Q19\"\ncollision = \"trt\"\nprecision = \"fp64\"", 0), 1e-12},
        {test::porous_case("lattice = \"D3Q19\"\ncollision = \"mrt\"\nstreaming = \"in-place\"", 0), 2e-5},
        {test::porous_case("lattice = \"D3Q27\"\ncollision = \"regularized\"", 0), 2e-5},
        {test::porous_case("lattice = \"D3Q15\"\ncollision = \"bgk\"\nstreaming = \"in-place\"", 0), 2e-5},
        {test::porous_case("lattice = \"D3Q19\"\ncollision = \"bgk\"\nprecision = \"fp16\"", 0), 5e-3},
        {test::duct_case("lattice = \"D3Q19\"\ncollision = \"trt\"\nprecision = \"fp64\"", 0), 1e-12},
        {test::duct_case("lattice = \"D3Q19\"\ncollision = \"regularized\"\nstreaming = \"in-place\"", 0), 2e-5},
        {test::duct_case("lattice = \"D3Q19\"\ncollision = \"mrt\"\nprecision = \"fp16\"\nstreaming = \"in-place\"", 0), 5e-3},
        {test::heated_duct_case("two-copy", 0), 2e-5},
        {test::heated_duct_case("in-place", 0), 2e-5},
        // The multiphase models: the oracle's FP32 tolerance of the two-component model
        // (test_gpu_oracle.cpp), whose interface forces amplify rounding most.
        {test::multiphase_porous_case("shan-chen", 0), 2e-4},
        {test::multiphase_porous_case("shan-chen-binary", 0), 2e-4},
        {test::multiphase_porous_case("free-energy", 0), 2e-4},
    };
    for (const auto& c : cases) {
        sim::CaseSpec dense, sparse;
        Fields gd, gs;
        try {  // a build with a subset of the CUDA engines (BARRACUDA_CUDA_UNITS) skips
            if (!test::case_offered([&] {  // ... and one with a subset of the table's rows
                    dense = test::with_storage(c.text, "dense"), sparse = test::with_storage(c.text, "sparse");
                }))
                continue;
            gd = run(dense, sim::BackendChoice::Cuda, 60);
            gs = run(sparse, sim::BackendChoice::Cuda, 60);
        } catch (const ResourceError& e) {
            std::printf("  skipped: %s\n", e.what());
            continue;
        }
        const auto cs = run(sparse, sim::BackendChoice::Cpu, 60);
        ASSERT_EQ(gd.u.size(), gs.u.size());
        std::size_t differ = 0;
        for (std::size_t k = 0; k < gd.u.size(); ++k) differ += std::memcmp(&gd.u[k], &gs.u[k], sizeof(double)) != 0;
        for (std::size_t k = 0; k < gd.rho.size(); ++k) differ += std::memcmp(&gd.rho[k], &gs.rho[k], sizeof(double)) != 0;
        ASSERT_EQ(gd.theta.size(), gs.theta.size());
        for (std::size_t k = 0; k < gd.theta.size(); ++k) differ += std::memcmp(&gd.theta[k], &gs.theta[k], sizeof(double)) != 0;
        const double err = std::max({max_rel(cs.u, gs.u), max_rel(cs.rho, gs.rho), max_rel(cs.theta, gs.theta)});
        std::string label = c.text.substr(8, c.text.find("\nviscosity") - 8);
        for (auto& ch : label) ch = ch == '\n' ? ' ' : ch;
        const auto named = c.text.find("model = \"");  // [multiphase]'s
        const std::string multiphase =
            named == std::string::npos ? "" : c.text.substr(named + 9, c.text.find('"', named + 9) - named - 9);
        label = (!multiphase.empty()                               ? "porous " + multiphase + ": "
                 : c.text.find("[thermal]") != std::string::npos   ? std::string("heated duct: ")
                 : c.text.find("[boundary.x_min]") != std::string::npos ? "duct: "
                                                                         : "porous: ") +
                label;
        std::printf("  %-70s GPU dense vs sparse: %zu values differ; GPU vs CPU sparse %.2e (tol %.0e)\n",
                    label.c_str(), differ, err, c.tolerance);
        // FP16 storage's stochastic rounding draws by cell index, which the layouts number
        // differently (tests/test_sparse.cpp): two draws of the same rounding, within its tolerance.
        if (c.text.find("fp16") != std::string::npos) EXPECT_LT(std::max(max_rel(gd.u, gs.u), max_rel(gd.rho, gs.rho)), c.tolerance);
        else EXPECT_EQ(differ, 0u);
        EXPECT_LT(err, c.tolerance);
    }
}

}  // namespace
}  // namespace barracuda
