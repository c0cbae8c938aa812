// Moving obstacles: links into a moving obstacle's solid nodes bounce back with
// the moving-wall term 2 w_i rho0 c_i.U / cs2 (seed 000 eq. 9, as on a moving
// face), and pipes (the complement of a cylinder).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "backend/engine.hpp"
#include "sim/case_spec.hpp"
#include "sim/simulation.hpp"
#include "sim/case_check.hpp"

namespace {

using namespace barracuda;

sim::CaseSpec channel(int ny) {
    sim::CaseSpec s;
    s.model.lattice = lattice::Kind::D2Q9;
    s.model.precision = storage::Precision::FP64;
    s.model.tau = 1.0;
    s.size = {8, ny, 1};
    s.periodic = {true, false, true};
    for (int f : {boundary::XMin, boundary::XMax, boundary::ZMin, boundary::ZMax}) s.faces[f].type = boundary::FaceType::Periodic;
    s.run.steps = 4000;
    return s;
}

/// A D3Q19 FP64 box of n x n cross-section and length `length` along x (periodic),
/// tau = 1, with a pipe along x of the given radius about the cross-section's
/// centre whose wall slides at `velocity` (0: at rest).
sim::CaseSpec pipe_along_x(int length, int n, double radius, double velocity) {
    sim::CaseSpec s;
    s.model.lattice = lattice::Kind::D3Q19;
    s.model.precision = storage::Precision::FP64;
    s.model.tau = 1.0;
    s.size = {length, n, n};
    s.periodic = {true, false, false};
    s.faces[boundary::XMin].type = s.faces[boundary::XMax].type = boundary::FaceType::Periodic;
    sim::Obstacle pipe;
    pipe.name = "pipe";
    pipe.kind = sim::Obstacle::Shape::Pipe;
    pipe.axis = 0;
    pipe.center = {0, 0.5 * (n - 1), 0.5 * (n - 1)};
    pipe.radius = radius;
    pipe.min = {0, 0, 0};
    pipe.max = {double(length - 1), 0, 0};
    pipe.velocity = {velocity, 0, 0};
    s.obstacles.push_back(pipe);
    return s;
}

std::vector<double> run(const sim::CaseSpec& spec, std::int64_t steps) {
    auto e = backend::make_cpu_engine(sim::engine_setup(spec));
    e->initialize_uniform(1.0, {0, 0, 0});
    e->step(steps);
    std::vector<double> rho, u;
    e->fields(rho, u);
    return u;
}

// A plate moving along x as a box obstacle over rows 10-11 is the same boundary as
// a moving y_max face at the same half-way position (rows 0-9 fluid in both):
// the same links get the same term, so the fields agree bit for bit. And the
// steady state is Couette's line u = U (y + 1/2) / 10, which bounce-back
// reproduces to round-off (the profile is linear); 4000 steps at nu = 1/6 are
// ~7 diffusion times H^2/nu, leaving a transient below 1e-9 U.
TEST(MovingObstacle, PlateEqualsMovingFaceAndGivesCouette) {
    const double U = 0.05;
    auto with_plate = channel(12);
    sim::Obstacle plate;
    plate.name = "plate";
    plate.kind = sim::Obstacle::Shape::Box;
    plate.min = {0, 10, 0};
    plate.max = {7, 11, 0};
    plate.velocity = {U, 0, 0};
    with_plate.obstacles.push_back(plate);
    sim::check_case(with_plate);

    auto with_face = channel(10);
    with_face.faces[boundary::YMax].type = boundary::FaceType::MovingWall;
    with_face.faces[boundary::YMax].velocity = {U, 0, 0};

    const auto a = run(with_plate, 4000), b = run(with_face, 4000);
    for (int y = 0; y < 10; ++y)
        for (int x = 0; x < 8; ++x) {
            const std::size_t ca = 3 * std::size_t(x + 8 * y), cb = ca;
            EXPECT_EQ(std::memcmp(&a[ca], &b[cb], 3 * sizeof(double)), 0) << "x " << x << " y " << y;
            EXPECT_NEAR(a[ca], U * (y + 0.5) / 10.0, 1e-9 * U) << "y " << y;
        }
}

// A pipe sliding along its own axis at U drags the fluid inside to a uniform U:
// with rho = 1 the moving-wall term makes the reflected equilibrium exact, so the
// plug flow is the steady state (to round-off once the start-up has decayed:
// 3000 steps at nu = 1/6 over a radius of 5 is ~20 diffusion times).
TEST(MovingObstacle, SlidingPipeGivesPlugFlow) {
    auto s = pipe_along_x(6, 14, 5.2, 0.04);
    sim::fill_model_defaults(s);
    sim::check_case(s);
    const auto kinds = sim::node_kinds(s);
    const auto u = run(s, 3000);
    int fluid = 0;
    for (std::size_t c = 0; c < kinds.size(); ++c) {
        if (kinds[c] != boundary::Fluid) continue;
        ++fluid;
        EXPECT_NEAR(u[3 * c], 0.04, 1e-9);
        EXPECT_NEAR(u[3 * c + 1], 0.0, 1e-9);
        EXPECT_NEAR(u[3 * c + 2], 0.0, 1e-9);
    }
    EXPECT_GT(fluid, 6 * 70);  // about pi 5.2^2 = 85 nodes per cross-section
}

// Hagen-Poiseuille in a pipe at rest driven by a body force g:
// u(r) = g (R^2 - r^2) / (4 nu). The staircase wall moves the effective radius by
// a fraction of a cell, so the centre-line speed is compared within 6% at R = 7.5
// (an error ~ 2 dR / R with |dR| ~ 0.2).
TEST(MovingObstacle, PipeAtRestGivesHagenPoiseuille) {
    auto s = pipe_along_x(4, 19, 7.5, 0.0);
    const double g = 1e-6, nu = 1.0 / 6.0;
    s.body_force = {g, 0, 0};
    sim::fill_model_defaults(s);
    sim::check_case(s);
    const auto u = run(s, 6000);
    const std::size_t centre = 3 * std::size_t(0 + 4 * (9 + 19 * 9));
    const double expected = g * 7.5 * 7.5 / (4 * nu);
    EXPECT_NEAR(u[centre], expected, 0.06 * expected);
}

}  // namespace
