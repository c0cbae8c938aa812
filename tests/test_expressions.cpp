// Boundary values given as expressions of position and time (sim/expression.hpp,
// sim/face_values.hpp): parsing and its error positions, the values the kernel
// sees, the time dependence, and the checks before and during a run.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/error.hpp"
#include "sim/case_spec.hpp"
#include "sim/expression.hpp"
#include "sim/simulation.hpp"
#include "sim/case_check.hpp"

namespace {

using namespace barracuda;

TEST(Expression, EvaluatesPositionTimeAndBoxSize) {
    const sim::Expression e("4 * (y + 0.5) * (ny - y - 0.5) / ny^2 + x + 10 * z + t / 100", {5, 8, 3});
    // y = 3.5 is the centre line of ny = 8: the parabola is 1 there.
    EXPECT_DOUBLE_EQ(e(1, 3.5, 2, 50), 1.0 + 1 + 20 + 0.5);
    EXPECT_TRUE(e.uses_time());
    EXPECT_FALSE(sim::Expression("sin(_pi * x / nx)", {5, 8, 3}).uses_time());
}

TEST(Expression, ParseErrorsGiveThePosition) {
    try {
        sim::Expression("1 + q * 2", {4, 4, 1});
        FAIL() << "an unknown variable parsed";
    } catch (const sim::ExpressionError& e) {
        EXPECT_EQ(e.position, 4u);
        EXPECT_NE(std::string(e.what()).find("\"q\""), std::string::npos) << e.what();
        // The caret sits under the q.
        const std::string shown = sim::describe_parse_error("1 + q * 2", e);
        EXPECT_NE(shown.find("\n    1 + q * 2\n        ^"), std::string::npos) << shown;
    }
    // An incomplete expression stops at its end (muparser reports one past it; clamped).
    try {
        sim::Expression("2 * (x +", {4, 4, 1});
        FAIL() << "an incomplete expression parsed";
    } catch (const sim::ExpressionError& e) {
        EXPECT_EQ(e.position, 8u);
    }
}

/// A D2Q9 channel along x: velocity inlet at x_min, pressure outlet at x_max, walls in y.
sim::CaseSpec channel(int nx, int ny) {
    sim::CaseSpec s;
    s.model.lattice = lattice::Kind::D2Q9;
    s.model.precision = storage::Precision::FP64;
    s.model.tau = 0.8;
    s.size = {nx, ny, 1};
    s.periodic = {false, false, true};
    s.faces[boundary::XMin].type = boundary::FaceType::Velocity;
    s.faces[boundary::XMax].type = boundary::FaceType::Pressure;
    s.faces[boundary::ZMin].type = s.faces[boundary::ZMax].type = boundary::FaceType::Periodic;
    s.output.vti = s.output.png = false;
    return s;
}

// The parabolic profile written as an expression gives the built-in profile's run to
// rounding: the kernel reads the per-node values where the built-in one computes them.
TEST(FaceExpressions, ParabolicExpressionMatchesTheBuiltInProfile) {
    auto builtin = channel(24, 12);
    builtin.faces[boundary::XMin].profile = boundary::Profile::Parabolic;
    builtin.faces[boundary::XMin].velocity = {0.05, 0, 0};
    auto expr = channel(24, 12);
    expr.faces[boundary::XMin].velocity_expression[0] = "0.05 * 4 * ((y + 0.5) / ny) * (1 - (y + 0.5) / ny)";
    sim::Simulation a(builtin, sim::BackendChoice::Cpu), b(expr, sim::BackendChoice::Cpu);
    a.advance(300);
    b.advance(300);
    std::vector<double> ra, ua, rb, ub;
    a.owned_fields(ra, ua);
    b.owned_fields(rb, ub);
    double worst = 0, peak = 0;
    for (std::size_t k = 0; k < ua.size(); ++k) {
        worst = std::max(worst, std::abs(ua[k] - ub[k]));
        peak = std::max(peak, std::abs(ua[k]));
    }
    EXPECT_GT(peak, 0.04);
    // The two evaluate 4 s (1 - s) in a different order: a few ulps per step.
    EXPECT_LT(worst, 1e-13 * peak);
}

// A time-dependent inflow: after each advance the inlet nodes carry the value at the
// current time (Zou-He imposes it exactly), so the engine got every step's values.
TEST(FaceExpressions, TimeDependentInflowFollowsTheClock) {
    auto s = channel(16, 8);
    s.faces[boundary::XMin].velocity_expression[0] = "0.02 * sin(2 * _pi * t / 40)";
    s.faces[boundary::XMin].velocity_expression[1] = "0.001 * (y - 3.5)";
    sim::Simulation sim(s, sim::BackendChoice::Cpu);
    std::vector<double> rho, u;
    // Tolerance 1e-12: muparser's sin(2 _pi t / 40) differs from std::sin's by up to
    // ~3e-14 here (its own constant folding and order); a value one step late would
    // be off by ~3e-3.
    for (int n : {1, 7, 10, 23}) {
        sim.advance(n);
        sim.owned_fields(rho, u);
        const double t = double(sim.time());
        for (int y = 1; y < 7; ++y) {  // the corner nodes take the equilibrium of the same state
            const std::size_t c = std::size_t(16 * y);
            EXPECT_NEAR(u[3 * c], 0.02 * std::sin(2 * M_PI * t / 40), 1e-12) << "t = " << t << ", y = " << y;
            EXPECT_NEAR(u[3 * c + 1], 0.001 * (y - 3.5), 1e-12) << "t = " << t << ", y = " << y;
        }
    }
    EXPECT_EQ(sim.time(), 41);
}

// A pressure outlet given as an expression of time: the outlet nodes' density follows it.
TEST(FaceExpressions, TimeDependentPressureFollowsTheClock) {
    auto s = channel(16, 8);
    s.faces[boundary::XMin].velocity = {0.01, 0, 0};
    s.faces[boundary::XMax].density_expression = "1 + 0.002 * cos(2 * _pi * t / 30)";
    sim::Simulation sim(s, sim::BackendChoice::Cpu);
    std::vector<double> rho, u;
    for (int n : {5, 12}) {
        sim.advance(n);
        sim.owned_fields(rho, u);
        const double t = double(sim.time());
        for (int y = 1; y < 7; ++y)
            EXPECT_NEAR(rho[std::size_t(15 + 16 * y)], 1 + 0.002 * std::cos(2 * M_PI * t / 30), 1e-14) << t;
    }
}

std::string case_error(const sim::CaseSpec& s) {
    try {
        sim::check_case(s);
    } catch (const CaseError& e) {
        return e.what();
    }
    return "";
}

TEST(FaceExpressions, BadValuesAreRefusedBeforeTheRun) {
    auto nan = channel(16, 8);
    nan.faces[boundary::XMin].velocity_expression[0] = "0.01 * sqrt(y - 4)";
    const std::string m = case_error(nan);
    EXPECT_NE(m.find("boundary.x_min.velocity[0] = \"0.01 * sqrt(y - 4)\" is NaN/Inf"), std::string::npos) << m;
    EXPECT_NE(m.find("(x, y, z) = (0, 0, 0) at t = 1"), std::string::npos) << m;

    auto fast = channel(16, 8);
    fast.faces[boundary::XMin].velocity_expression[1] = "0.06 * y";
    const std::string f = case_error(fast);
    EXPECT_NE(f.find("boundary.x_min.velocity[1]"), std::string::npos) << f;
    EXPECT_NE(f.find("|u| = 0.42"), std::string::npos) << f;

    auto wall = channel(16, 8);
    wall.faces[boundary::YMax].type = boundary::FaceType::MovingWall;
    wall.faces[boundary::YMax].velocity_expression[0] = "0.01";
    EXPECT_NE(case_error(wall).find("expressions are offered on velocity and pressure faces"), std::string::npos);

    auto syntax = channel(16, 8);
    syntax.faces[boundary::XMax].density_expression = "1 + (t";
    const std::string p = case_error(syntax);
    EXPECT_NE(p.find("boundary.x_max.density = \"1 + (t\""), std::string::npos) << p;
}

// A value that goes bad during the run stops it with the step, as a divergence does.
TEST(FaceExpressions, ValueGoingBadMidRunStopsWithTheStep) {
    auto s = channel(16, 8);
    s.faces[boundary::XMin].velocity = {0.01, 0, 0};
    s.faces[boundary::XMax].density_expression = "t < 7 ? 1 : 0";
    s.run.steps = 20;
    s.run.check_interval = 5;
    sim::Simulation sim(s, sim::BackendChoice::Cpu);
    try {
        sim.run(nullptr, nullptr);
        FAIL() << "the run went on with a density of 0";
    } catch (const DivergenceError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("step 7"), std::string::npos) << m;
        EXPECT_NE(m.find("gives a density <= 0"), std::string::npos) << m;
    }
}

}  // namespace
