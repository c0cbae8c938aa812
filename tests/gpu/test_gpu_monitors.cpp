// Probes and time averages on the GPU (Engine::sample, Engine::accumulate): the same
// case run through sim::Simulation on the CUDA backend and on the CPU oracle gives the
// same probe series and means, to the precision's tolerance (tests/gpu/test_gpu_oracle.cpp).
// Skipped on machines without a CUDA GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "backend/device_info.hpp"
#include "gpu_support.hpp"
#include "io/case_file.hpp"
#include "sim/simulation.hpp"

namespace barracuda {
namespace {

// A lid-driven box with a hot and a cold wall: unsteady over the window.
const char* box = R"(
[model]
lattice = "D3Q19"
collision = "trt"
tau = 0.6
[domain]
size = [20, 16, 12]
[boundary.x_min]
type = "wall"
temperature = 1.0
[boundary.x_max]
type = "wall"
temperature = -1.0
[boundary.y_max]
type = "moving_wall"
velocity = [0.05, 0, 0.02]
[thermal]
prandtl = 0.71
expansion = 0.01
gravity = [0, -0.05, 0]
[probes]
points = [[3, 4, 5], [10, 8, 6], [19, 15, 11]]
interval = 10
[average]
steps = [40, 120]
interval = 5
section = "z"
section_at = 6
[run]
steps = 120
check_interval = 40
)";

struct Capture final : sim::OutputSink {
    std::vector<std::vector<double>> probes;
    std::optional<sim::MeanFields> mean;
    void write(std::int64_t, std::vector<double>, std::vector<double>, std::vector<double>) override {}
    void write_probes(std::int64_t, const std::vector<double>& v) override { probes.push_back(v); }
    void write_mean(const sim::MeanFields& m) override { mean = m; }
};

double max_relative(const std::vector<double>& a, const std::vector<double>& b) {
    double diff = 0, scale = 1e-30;
    for (std::size_t k = 0; k < a.size(); ++k) diff = std::max(diff, std::abs(a[k] - b[k])), scale = std::max(scale, std::abs(a[k]));
    return diff / scale;
}

TEST(GpuOracle, ProbesAndMeansMatchCpu) {
    if (backend::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU on this machine";
    struct Variant {
        const char* precision;
        const char* streaming;
        bool thermal;
        double tolerance;  // per precision, as the oracle's
    };
    const Variant variants[] = {{"fp32", "two-copy", true, 1e-4},
                                {"fp16", "in-place", true, 5e-3},
                                {"fp32", "in-place", false, 1e-4}};
    int ran = 0;
    for (const auto& v : variants) {
        std::vector<std::string> overrides = {std::string("model.precision=") + v.precision,
                                              std::string("model.streaming=") + v.streaming};
        std::string text = box;
        if (!v.thermal) {
            for (const char* drop : {"temperature = 1.0\n", "temperature = -1.0\n"}) text.erase(text.find(drop), std::string(drop).size());
            text.erase(text.find("[thermal]"), text.find("[probes]") - text.find("[thermal]"));
        }
        sim::CaseSpec spec;
        if (!test::case_offered([&] { spec = io::parse_case_string(text, overrides); })) continue;
        backend::Configuration c{spec.model.lattice, spec.model.precision, spec.model.equilibrium, spec.model.collision,
                                 spec.model.streaming, v.thermal ? spec.thermal.lattice : lattice::CoupledKind::None};
        if (!test::gpu_engine_built(c)) continue;
        ++ran;
        Capture cpu, gpu;
        sim::Simulation(spec, sim::BackendChoice::Cpu).run(&cpu, {});
        sim::Simulation(spec, sim::BackendChoice::Cuda).run(&gpu, {});
        const std::string what = std::string(v.precision) + " " + v.streaming + (v.thermal ? " + D3Q7" : "");
        ASSERT_EQ(cpu.probes.size(), 13u) << what;
        ASSERT_EQ(gpu.probes.size(), cpu.probes.size()) << what;
        double probes = 0;
        for (std::size_t k = 0; k < cpu.probes.size(); ++k) probes = std::max(probes, max_relative(cpu.probes[k], gpu.probes[k]));
        ASSERT_TRUE(cpu.mean && gpu.mean) << what;
        EXPECT_EQ(gpu.mean->samples, 17) << what;
        const double rho = max_relative(cpu.mean->rho, gpu.mean->rho), u = max_relative(cpu.mean->u, gpu.mean->u);
        const double theta = v.thermal ? max_relative(cpu.mean->theta, gpu.mean->theta) : 0;
        const double fluct = max_relative(cpu.mean->fluctuation, gpu.mean->fluctuation);
        std::printf("  monitors %-24s probes %.2e, means rho %.2e u %.2e theta %.2e fluctuation %.2e (tolerance %.0e)\n",
                    what.c_str(), probes, rho, u, theta, fluct, v.tolerance);
        EXPECT_LE(probes, v.tolerance) << what;
        EXPECT_LE(rho, v.tolerance) << what;
        EXPECT_LE(u, v.tolerance) << what;
        EXPECT_LE(theta, v.tolerance) << what;
        // The fluctuation is a difference of near-equal means: a looser bound, relative to |u|.
        double umax = 0, fdiff = 0;
        for (double x : cpu.mean->u) umax = std::max(umax, std::abs(x));
        for (std::size_t k = 0; k < cpu.mean->fluctuation.size(); ++k)
            fdiff = std::max(fdiff, std::abs(cpu.mean->fluctuation[k] - gpu.mean->fluctuation[k]));
        EXPECT_LE(fdiff / umax, 10 * v.tolerance) << what;
        if (v.thermal) {
            // The heat balance's terms (Engine::scalar_flows) after the same steps.
            sim::Simulation c(spec, sim::BackendChoice::Cpu), g(spec, sim::BackendChoice::Cuda);
            c.advance(60);
            g.advance(60);
            const auto qc = c.engine().scalar_flows(), qg = g.engine().scalar_flows();
            ASSERT_EQ(qc.size(), qg.size()) << what;
            double scale = 0, diff = 0;
            for (std::size_t k = 0; k < qc.size(); ++k)
                scale = std::max(scale, std::abs(qc[k])), diff = std::max(diff, std::abs(qc[k] - qg[k]));
            std::printf("  heat flows %-24s largest %.3e, difference %.2e of it\n", what.c_str(), scale, diff / scale);
            EXPECT_GT(scale, 0) << what;
            EXPECT_LE(diff / scale, 10 * v.tolerance) << what;
        }
    }
    if (ran == 0) GTEST_SKIP() << "none of the variants is in this build";
}

}  // namespace
}  // namespace barracuda
