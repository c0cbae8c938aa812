// Probes, time averages and heaters (sim/monitors.hpp, obstacle[].power): a probe
// reads the fields at its node, the mean of a window is the mean of the fields at
// its sampling steps (computed here on the host from the same fields), a restart
// inside the window gives the same means bit for bit, and a heater releases exactly
// its power into an adiabatic box.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "io/case_file.hpp"
#include "kernel/scalar.hpp"
#include "sim/simulation.hpp"

namespace barracuda {
namespace {

// A differentially heated box with a moving lid, D2Q9 + D2Q5 in FP64: an unsteady
// start, so that the fields differ between the sampling steps.
const char* heated_box = R"(
title = "monitors"
[model]
lattice = "D2Q9"
collision = "trt"
precision = "fp64"
tau = 0.6
[domain]
size = [24, 20]
[boundary.x_min]
type = "wall"
temperature = 1.0
[boundary.x_max]
type = "wall"
temperature = -1.0
[boundary.y_max]
type = "moving_wall"
velocity = [0.04, 0]
[thermal]
prandtl = 0.71
expansion = 0.01
gravity = [0, -0.05]
[probes]
points = [[3, 4], [12.4, 9.6], [23.4, 19.4]]
names = ["low", "middle", "corner"]
interval = 10
[average]
steps = [20, 80]
interval = 10
section = "z"
[run]
steps = 100
check_interval = 25
)";

struct Capture final : sim::OutputSink {
    std::vector<std::pair<std::int64_t, std::vector<double>>> probes;
    std::optional<sim::MeanFields> mean;
    void write(std::int64_t, std::vector<double>, std::vector<double>, std::vector<double>) override {}
    void write_probes(std::int64_t step, const std::vector<double>& values) override { probes.emplace_back(step, values); }
    void write_mean(const sim::MeanFields& m) override { mean = m; }
};

TEST(Monitors, ProbesAndMeansAreTheFieldsAtTheirNodesAndSteps) {
    const auto spec = io::parse_case_string(heated_box);
    sim::Simulation run(spec, sim::BackendChoice::Cpu);
    Capture got;
    run.run(&got, {});
    // Probes at 0, 10, ..., 100, at the nearest nodes.
    ASSERT_EQ(got.probes.size(), 11u);
    EXPECT_EQ(run.probes().nodes()[1], (std::array<int, 3>{12, 10, 0}));
    EXPECT_EQ(run.probes().nodes()[2], (std::array<int, 3>{23, 19, 0}));
    ASSERT_TRUE(got.mean.has_value());
    EXPECT_EQ(got.mean->samples, 7);
    EXPECT_EQ(got.mean->from, 20);
    EXPECT_EQ(got.mean->to, 80);

    // The same case stepped by hand: its fields at each sampling step.
    sim::Simulation hand(spec, sim::BackendChoice::Cpu);
    const std::size_t cells = std::size_t(spec.cells());
    std::vector<double> rho_sum(cells), u_sum(3 * cells), uu_sum(cells), theta_sum(cells);
    for (std::int64_t step = 0; step <= 100; step += 10) {
        if (step > 0) hand.advance(10);
        std::vector<double> rho, u, theta;
        hand.owned_fields(rho, u);
        hand.engine().scalar_field(theta);
        const auto& probe = got.probes[std::size_t(step / 10)];
        ASSERT_EQ(probe.first, step);
        for (std::size_t k = 0; k < 3; ++k) {
            const auto& n = hand.probes().nodes()[k];
            const std::size_t c = std::size_t(n[0] + spec.size[0] * n[1]);
            EXPECT_EQ(probe.second[5 * k], rho[c]) << "probe " << k << " step " << step;
            EXPECT_EQ(probe.second[5 * k + 1], u[3 * c]);
            EXPECT_EQ(probe.second[5 * k + 2], u[3 * c + 1]);
            EXPECT_EQ(probe.second[5 * k + 4], theta[c]);
        }
        if (step < 20 || step > 80) continue;
        for (std::size_t c = 0; c < cells; ++c) {
            rho_sum[c] += rho[c];
            for (std::size_t a = 0; a < 3; ++a) u_sum[3 * c + a] += u[3 * c + a];
            uu_sum[c] += u[3 * c] * u[3 * c] + u[3 * c + 1] * u[3 * c + 1] + u[3 * c + 2] * u[3 * c + 2];
            theta_sum[c] += theta[c];
        }
    }
    // The means: the same sums in the same order, so equal bit for bit; the fluctuation
    // is not zero (the flow changes over the window) and is checked to round-off.
    const double inv = 1.0 / 7.0;
    double fluctuation_max = 0;
    for (std::size_t c = 0; c < cells; ++c) {
        ASSERT_EQ(got.mean->rho[c], rho_sum[c] * inv) << c;
        double mean_uu = 0;
        for (std::size_t a = 0; a < 3; ++a) {
            ASSERT_EQ(got.mean->u[3 * c + a], u_sum[3 * c + a] * inv);
            mean_uu += u_sum[3 * c + a] * inv * u_sum[3 * c + a] * inv;
        }
        ASSERT_EQ(got.mean->theta[c], theta_sum[c] * inv);
        const double f = std::sqrt(std::max(0.0, uu_sum[c] * inv - mean_uu));
        EXPECT_NEAR(got.mean->fluctuation[c], f, 1e-12);
        fluctuation_max = std::max(fluctuation_max, f);
    }
    EXPECT_GT(fluctuation_max, 1e-4);
}

TEST(Monitors, ARestartInsideTheWindowGivesTheSameMeans) {
    const auto spec = io::parse_case_string(heated_box);
    Capture straight;
    sim::Simulation a(spec, sim::BackendChoice::Cpu);
    a.run(&straight, {});

    // A run that saves at step 50 (inside the window), and one that goes on from there.
    sim::Simulation b(spec, sim::BackendChoice::Cpu);
    std::optional<backend::EngineState> state;
    std::vector<double> average;
    sim::CheckpointSchedule every50;
    every50.every = 50;
    every50.save = [&](std::int64_t) {
        if (b.time() != 50) return;
        state = b.engine().save_state();
        average = b.average_state();
    };
    b.run(nullptr, {}, every50);
    ASSERT_TRUE(state.has_value());
    // samples, last step, first step, the heat at both ends, the flows' sums, then the sums
    ASSERT_EQ(average.size(), 5 + std::size_t(kernel::scalar_flow_rows) +
                                  std::size_t(backend::mean_components) * std::size_t(spec.cells()));
    EXPECT_EQ(average[0], 4.0);   // samples at 20, 30, 40, 50
    EXPECT_EQ(average[1], 50.0);  // the last one's step

    sim::Simulation c(spec, sim::BackendChoice::Cpu);
    c.restore(50, *state);
    c.restore_average_state(average);
    Capture resumed;
    c.run(&resumed, {});
    ASSERT_TRUE(resumed.mean.has_value());
    EXPECT_EQ(resumed.mean->samples, 7);
    EXPECT_EQ(resumed.mean->rho, straight.mean->rho);
    EXPECT_EQ(resumed.mean->u, straight.mean->u);
    EXPECT_EQ(resumed.mean->theta, straight.mean->theta);
    // Without the window's sums the restart averages 3 samples only: the test can fail.
    sim::Simulation d(spec, sim::BackendChoice::Cpu);
    d.restore(50, *state);
    Capture partial;
    d.run(&partial, {});
    ASSERT_TRUE(partial.mean.has_value());
    EXPECT_EQ(partial.mean->samples, 3);
    EXPECT_NE(partial.mean->u, straight.mean->u);
}

// A heater in an adiabatic box: the heat in the box grows by exactly its power per
// step (each of its surface links carries power / links, boundary/scalar_faces.hpp),
// with buoyancy stirring the air. FP64: the sum drifts by round-off only.
TEST(Monitors, AHeaterReleasesExactlyItsPower) {
    auto text = std::string(heated_box);
    for (const char* drop : {"temperature = 1.0\n", "temperature = -1.0\n", "velocity = [0.04, 0]\n"})
        text.erase(text.find(drop), std::string(drop).size());
    text.replace(text.find("type = \"moving_wall\""), 20, "type = \"wall\"");
    text += "[[obstacle]]\nname = \"heater\"\nshape = \"box\"\nmin = [8, 3]\nmax = [12, 5]\npower = 0.25\n";
    const auto spec = io::parse_case_string(text, {"average.steps=[20, 80]"});
    sim::Simulation box(spec, sim::BackendChoice::Cpu);
    const double before = box.observe_all(false).theta_sum;
    box.advance(400);
    const auto after = box.observe_all(false);
    EXPECT_NEAR(after.theta_sum - before, 0.25 * 400, 1e-9);
    EXPECT_GT(after.u_max, 1e-4);  // the plume rises
    // In an SI case the power in W becomes P dt / (rho c_p dx^3).
    const auto si = io::parse_case_string(R"(
[units]
cell = 0.01
velocity = 0.1
[model]
lattice = "D3Q19"
viscosity = 1.5e-5
smagorinsky = 0.1
[domain]
size = [20, 20, 20]
[thermal]
prandtl = 0.71
expansion = 3.4e-3
gravity = [0, -9.81, 0]
reference_temperature = 20
initial_temperature = 20
[[obstacle]]
name = "person"
shape = "box"
min = [0.04, 0.0, 0.04]
max = [0.06, 0.08, 0.06]
power = 100
)");
    const double dt = si.units.dt();
    EXPECT_NEAR(*si.obstacles[0].power, 100 * dt / (0.01 * 0.01 * 0.01 * 1.2 * 1005), 1e-9);
}

// The heat balance's terms (Engine::scalar_flows) are exact: what enters through the
// boundary links in a step is the change of the total scalar over it, with a heater,
// held walls, an inflow at another temperature, an outlet and buoyancy all at once.
TEST(Monitors, HeatFlowsThroughTheBoundaryAreTheChangeOfTheTotalHeat) {
    const auto spec = io::parse_case_string(R"(
[model]
lattice = "D2Q9"
collision = "trt"
precision = "fp64"
tau = 0.6
[domain]
size = [40, 20]
[boundary.x_min]
type = "velocity"
velocity = [0.03, 0]
temperature = 1.0
[boundary.x_max]
type = "pressure"
density = 1.0
[boundary.y_min]
type = "wall"
temperature = -0.5
[boundary.y_max]
type = "wall"
heat_flux = 0.002
[thermal]
prandtl = 0.71
expansion = 0.01
gravity = [0, -0.02]
[[obstacle]]
name = "heater"
shape = "box"
min = [12, 6]
max = [15, 9]
power = 0.3
[[obstacle]]
name = "cold"
shape = "sphere"
center = [28, 12]
radius = 3
temperature = -1
[run]
steps = 200
)");
    sim::Simulation run(spec, sim::BackendChoice::Cpu);
    run.advance(50);
    const auto names = sim::scalar_flow_names(spec);
    EXPECT_EQ(names[0], "x_min");
    EXPECT_EQ(names[7], "heater");
    EXPECT_EQ(names[8], "cold");
    double before = run.observe_all(false).theta_sum;
    double largest = 0;
    for (int n = 0; n < 40; ++n) {
        run.advance(1);
        const auto flows = run.engine().scalar_flows();
        ASSERT_EQ(flows.size(), std::size_t(kernel::scalar_flow_rows));
        double sum = 0;
        for (double q : flows) sum += q;
        const double after = run.observe_all(false).theta_sum;
        // FP64 sums over 800 cells of values of order 1: 1e-11.
        EXPECT_NEAR(after - before, sum, 1e-11) << "step " << run.time();
        EXPECT_NEAR(flows[7], 0.3, 1e-12);                 // the heater: exactly its power
        EXPECT_NEAR(flows[3], 0.002 * 40, 1e-12);          // the flux wall: q over its 40 links
        EXPECT_GT(flows[0], 0);                            // heat comes in with the warm inflow
        EXPECT_LT(flows[2], 0);                            // and leaves through the cold wall
        EXPECT_LT(flows[8], 0);                            // and the cold sphere
        largest = std::max(largest, std::abs(sum));
        before = after;
    }
    EXPECT_GT(largest, 0.1);  // the total changes: the test can fail
}

}  // namespace
}  // namespace barracuda
