// MRT with its default rates at open faces (issue 20): the two cases that diverged
// with the published rates of the odd moments (D2Q9 s_q = 1.9, D3Q19 s_m = 1.98) run
// with the defaults, whose odd rates follow tau (sim::mrt_rates); with the published
// rates given by hand they still diverge, so each test can fail.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "io/case_file.hpp"
#include "sim/case_check.hpp"
#include "sim/simulation.hpp"

using namespace barracuda;

namespace {

// The issue's D2Q9 channel: 400 x 100, Zou-He parabolic inlet u_max = 0.075, pressure
// outlet, nu = 0.02 (tau = 0.56). With s_q = 1.9 it diverged at step 300 at (0, 0).
const char* channel_case = R"(
[model]
lattice = "D2Q9"
collision = "mrt"
viscosity = 0.02
[domain]
size = [400, 100]
[boundary.x_min]
type = "velocity"
velocity = ["0.075 * 4 * (y + 0.5) * (ny - y - 0.5) / ny^2", 0]
[boundary.x_max]
type = "pressure"
density = 1.0
)";

// The issue's D3Q19 duct: 60 x 30 x 30, uniform inlet 0.05, pressure outlet, walls,
// nu = 0.03 (tau = 0.59). With s_m = 1.98 it diverged at step 100 at (0, 0, 0).
const char* duct_case = R"(
[model]
lattice = "D3Q19"
collision = "mrt"
viscosity = 0.03
[domain]
size = [60, 30, 30]
[boundary.x_min]
type = "velocity"
velocity = [0.05, 0, 0]
[boundary.x_max]
type = "pressure"
density = 1.0
)";

/// Whether the run stays sane for `steps` (checked every 100 steps, as run.check_interval does).
bool runs(const sim::CaseSpec& spec, int steps) {
    sim::Simulation s(spec, sim::BackendChoice::Cpu);
    for (int t = 0; t < steps; t += 100) {
        s.advance(100);
        const auto o = s.observe_all(false);
        if (o.bad_cell >= 0 || !std::isfinite(o.u_max) || o.u_max > 0.5 || o.rho_min < 0.5 || o.rho_max > 2) return false;
    }
    return true;
}

}  // namespace

// Steps: twice the step at which the published rates diverged (the failure is
// exponential growth at the inlet corner, within a few hundred steps).
TEST(MrtDefaults, IssueChannelRunsWithTheDefaults) {
    EXPECT_TRUE(runs(io::parse_case_string(channel_case), 600));
    EXPECT_FALSE(runs(io::parse_case_string(channel_case, {"model.mrt.s_q=1.9", "model.mrt.s_e=1.64",
                                                           "model.mrt.s_eps=1.54"}),
                      600));
}

TEST(MrtDefaults, IssueDuctRunsWithTheDefaults) {
    EXPECT_TRUE(runs(io::parse_case_string(duct_case), 200));
    EXPECT_FALSE(runs(io::parse_case_string(duct_case, {"model.mrt.s_m=1.98", "model.mrt.s_q=1.2"}), 200));
}

// The odd moments relax at TRT's omega- for Lambda = trt_magic; given rates are kept.
TEST(MrtDefaults, OddRatesFollowTauAndGivenRatesAreKept) {
    auto spec = io::parse_case_string(duct_case);
    const double tau = 0.59, omega_minus = 1 / (0.5 + (3.0 / 16) / (tau - 0.5));
    ASSERT_NEAR(spec.model.tau, tau, 1e-12);
    auto r = sim::mrt_rates(spec.model);
    EXPECT_NEAR(r.s_q, omega_minus, 1e-12);
    EXPECT_NEAR(r.s_m, omega_minus, 1e-12);
    EXPECT_EQ(r.s_e, 1.19);  // d'Humieres et al. 2002, kept
    spec = io::parse_case_string(duct_case, {"model.mrt.s_m=1.5", "model.trt_magic=0.25"});
    r = sim::mrt_rates(spec.model);
    EXPECT_EQ(r.s_m, 1.5);
    EXPECT_NEAR(r.s_q, 1 / (0.5 + 0.25 / (tau - 0.5)), 1e-12);
    // D2Q9: TRT's rates for the even moments too, unless given.
    spec = io::parse_case_string(channel_case);
    r = sim::mrt_rates(spec.model);
    EXPECT_NEAR(r.s_e, 1 / spec.model.tau, 1e-12);
    EXPECT_NEAR(r.s_eps, 1 / spec.model.tau, 1e-12);
}
