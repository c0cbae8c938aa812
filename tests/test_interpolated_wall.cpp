// Interpolated bounce-back (Bouzidi, Firdaouss & Lallemand 2001; kernel/interpolated_wall.hpp):
// where the surface cuts the links, plane Poiseuille and Couette flows between
// plates placed off the lattice, the force the links hand the plates, and the
// run-time choices it is offered with.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "backend/engine.hpp"
#include "common/error.hpp"
#include "geometry/shapes.hpp"
#include "parallel/decomposition.hpp"
#include "sim/case_spec.hpp"
#include "sim/simulation.hpp"
#include "sim/case_check.hpp"

namespace {

using namespace barracuda;

// A ray from outside a sphere towards its centre's side: q is where
// |p + t s - c| = r first holds, the smaller root of a quadratic.
TEST(InterpolatedWall, WallFractionOfASphereIsTheRaysEntry) {
    geometry::Body sphere;
    sphere.kind = geometry::Body::Kind::Sphere;
    sphere.center = {10.3, 9.7, 10.1};
    sphere.radius = 4.35;
    const geometry::Point p{15, 11, 10};
    for (const geometry::Point s : {geometry::Point{-1, 0, 0}, geometry::Point{-1, -1, 0}, geometry::Point{-1, 0, 1}}) {
        double b = 0, c = -sphere.radius * sphere.radius, a = 0;
        for (std::size_t k = 0; k < 3; ++k) {
            a += s[k] * s[k];
            b += 2 * s[k] * (p[k] - sphere.center[k]);
            c += (p[k] - sphere.center[k]) * (p[k] - sphere.center[k]);
        }
        const double t = (-b - std::sqrt(b * b - 4 * a * c)) / (2 * a);
        ASSERT_GT(t, 0);
        ASSERT_LE(t, 1);
        EXPECT_NEAR(geometry::wall_fraction(sphere, p, s), t, 1e-9);  // q is rounded to 2^-32
    }
}

// A link that clips the rim of a pipe's end, crosses its hole and enters the wall
// again: q is the first entry (the end plane z = 10 at t = 0.1), not the second (t = 0.9).
TEST(InterpolatedWall, WallFractionIsTheFirstEntry) {
    geometry::Body pipe;
    pipe.kind = geometry::Body::Kind::Pipe;
    pipe.axis = 2;
    pipe.center = {0, 0, 0};
    pipe.radius = 0.3;
    pipe.min = {0, 0, 0};
    pipe.max = {0, 0, 10};
    const geometry::Point p{0.6, 0, 10.1}, s{-1, 0, -1};
    ASSERT_FALSE(pipe.contains(p));
    ASSERT_TRUE(pipe.contains({p[0] + s[0], p[1] + s[1], p[2] + s[2]}));
    ASSERT_FALSE(pipe.contains({0.1, 0, 9.6}));  // the hole, half-way along
    EXPECT_NEAR(geometry::wall_fraction(pipe, p, s), 0.1, 1e-9);
}

/// A channel along x (periodic) between two plates, box obstacles whose surfaces lie
/// at y = lo and y = hi (off the lattice), the upper one sliding at `top` along x.
sim::CaseSpec plates(lattice::Kind lat, physics::CollisionKind col, storage::Pattern pattern, double lo, double hi,
                     int ny, bool interpolated, double top = 0) {
    sim::CaseSpec s;
    s.model.lattice = lat;
    s.model.collision = col;
    s.model.precision = storage::Precision::FP64;
    s.model.streaming = pattern;
    s.model.tau = 0.8;
    const bool three_d = lat != lattice::Kind::D2Q9;
    s.size = {4, ny, three_d ? 4 : 1};
    s.periodic = {true, false, true};
    for (int f : {boundary::XMin, boundary::XMax, boundary::ZMin, boundary::ZMax})
        s.faces[f].type = boundary::FaceType::Periodic;
    sim::Obstacle low, high;
    low.name = "low", high.name = "high";
    low.kind = high.kind = sim::Obstacle::Shape::Box;
    const double xe = s.size[0] - 1, ze = s.size[2] - 1;
    low.min = {0, 0, 0}, low.max = {xe, lo, ze};
    high.min = {0, hi, 0}, high.max = {xe, double(ny - 1), ze};
    high.velocity = {top, 0, 0};
    low.interpolated = high.interpolated = interpolated;
    s.obstacles = {low, high};
    if (top == 0) s.forces.obstacles = {"low", "high"};
    s.forces.reference_velocity = 0.01;
    s.forces.reference_area = 1;
    sim::fill_model_defaults(s);
    sim::check_case(s);
    return s;
}

struct Flow {
    std::vector<double> u;  // u_x along y at x = 0, z = 0
    std::vector<std::array<double, 3>> forces;
    std::int64_t fluid = 0;
};

Flow run(const sim::CaseSpec& s, std::int64_t steps) {
    const auto setup = sim::engine_setup(s);
    auto e = backend::make_cpu_engine(setup);
    e->initialize_uniform(1.0, {0, 0, 0});
    e->step(steps);
    std::vector<double> rho, u;
    e->fields(rho, u);
    Flow f;
    for (int y = 0; y < s.size[1]; ++y) f.u.push_back(u[3 * std::size_t(setup.grid.index(0, y, 0))]);
    f.forces = e->obstacle_forces();
    for (auto k : setup.node_kind) f.fluid += k == boundary::Fluid;
    return f;
}

/// Plane Poiseuille flow driven by g along x between plates whose surfaces lie q
/// below the first fluid row (y = 3) and q above the last (3 + 16 scale):
/// u(y) = g (y - lo)(hi - y) / (2 nu). Returns the largest error over the fluid rows
/// relative to the peak speed.
double poiseuille_error(physics::CollisionKind col, double q, int scale, bool interpolated) {
    const double g = 1e-6, nu = (0.8 - 0.5) / 3;
    const int last = 3 + 16 * scale;
    const double lo = 3 - q, hi = last + q;
    auto s = plates(lattice::Kind::D2Q9, col, storage::Pattern::TwoCopy, lo, hi, last + 3, interpolated);
    s.body_force = {g, 0, 0};
    // 20000 steps per 16 rows (scaled with H^2) are ~8 diffusion times H^2 / nu.
    const auto f = run(s, 20000 * scale * scale);
    double worst = 0;
    for (int y = 3; y <= last; ++y) worst = std::max(worst, std::abs(f.u[std::size_t(y)] - g / (2 * nu) * (y - lo) * (hi - y)));
    return worst / (g * (hi - lo) * (hi - lo) / (8 * nu));
}

// Bouzidi et al.'s scheme is second order in space for any q (their Sec. 3; Ginzburg &
// d'Humieres 2003 for its viscosity-dependent slip). Measured at H ~ 16 cells: 0.16-0.64%
// of the peak for q = 0.2, 0.7, 0.95, BGK and TRT; at twice the resolution the error falls
// 3.6-7.7 times. Bounds: 1% at H ~ 16, and a ratio of at least 3 (second order gives 4;
// first order 2). The staircase misplaces each wall by |q - 1/2| and errs by 2.4-10%
// here, so the same test fails for half-way bounce-back.
TEST(InterpolatedWall, PlanePoiseuilleIsSecondOrderForAnyWallPosition) {
    for (auto col : {physics::CollisionKind::BGK, physics::CollisionKind::TRT})
        for (double q : {0.2, 0.7, 0.95}) {
            const double coarse = poiseuille_error(col, q, 1, true);
            EXPECT_LT(coarse, 0.01) << "q " << q << " collision " << int(col);
            EXPECT_GT(poiseuille_error(col, q, 1, false), 0.02) << "q " << q << ": the staircase should miss";
            if (col == physics::CollisionKind::BGK) {
                const double fine = poiseuille_error(col, q, 2, true);
                EXPECT_GT(coarse / fine, 3.0) << "q " << q << ": " << coarse << " -> " << fine;
            }
        }
}

// At q = 1/2 both lines of the scheme are half-way bounce-back: the same fields bit for bit.
TEST(InterpolatedWall, HalfWayWallIsHalfWayBounceBack) {
    auto a = plates(lattice::Kind::D2Q9, physics::CollisionKind::BGK, storage::Pattern::InPlace, 2.5, 19.5, 22, true);
    auto b = plates(lattice::Kind::D2Q9, physics::CollisionKind::BGK, storage::Pattern::InPlace, 2.5, 19.5, 22, false);
    a.body_force = b.body_force = {1e-6, 0, 0};
    const auto fa = run(a, 3000), fb = run(b, 3000);
    for (std::size_t y = 0; y < fa.u.size(); ++y) EXPECT_EQ(fa.u[y], fb.u[y]) << "y " << y;
}

// Couette flow with the upper plate sliding at U: the linear profile
// u = U (y - lo) / (hi - lo) makes every interpolation in the scheme exact, and with
// the moving-wall term scaled by 1/2q (q >= 1/2) it is the steady state to round-off
// (20000 steps, ~8 diffusion times; q rounded to 2^-32 moves a wall by up to 1.2e-10
// of a cell, 1e-11 U over the 18.4-cell gap); half-way bounce-back errs by 1% U.
TEST(InterpolatedWall, CouetteBetweenOffLatticePlatesIsExact) {
    const double U = 0.01, lo = 2.3, hi = 20.7;
    for (auto pattern : {storage::Pattern::TwoCopy, storage::Pattern::InPlace}) {
        const auto f = run(plates(lattice::Kind::D2Q9, physics::CollisionKind::BGK, pattern, lo, hi, 24, true, U), 20000);
        for (int y = 3; y <= 20; ++y) EXPECT_NEAR(f.u[std::size_t(y)], U * (y - lo) / (hi - lo), 1e-11 * U) << "y " << y;
    }
}

// The momentum the links hand the plates (V c_i (f*_i + f_opp(i)(t+1)) per link) balances
// the body force on the fluid in steady state: sum of F_x = g N_fluid (momentum conservation;
// 1e-9 relative: the steady state's residual). 3D lattices (their diagonal links cut the
// plates at the same q), both streaming patterns, which give the same fields to round-off.
TEST(InterpolatedWall, PlateForcesBalanceTheBodyForce) {
    const double g = 1e-6;
    for (auto lat : {lattice::Kind::D3Q19, lattice::Kind::D3Q13, lattice::Kind::D3Q27}) {
        Flow two, one;
        for (auto pattern : {storage::Pattern::TwoCopy, storage::Pattern::InPlace}) {
            const auto col = lat == lattice::Kind::D3Q13 ? physics::CollisionKind::MRT : physics::CollisionKind::BGK;
            auto s = plates(lat, col, pattern, 2.3, 13.7, 16, true);
            s.body_force = {g, 0, 0};
            (pattern == storage::Pattern::TwoCopy ? two : one) = run(s, 12000);
        }
        // D3Q13 nodes stand for a volume of 2 (seed 000 eq. 12), and so does its force.
        const double volume = lat == lattice::Kind::D3Q13 ? 2 : 1;
        const double expected = g * double(two.fluid) * volume;
        EXPECT_NEAR(two.forces[0][0] + two.forces[1][0], expected, 1e-9 * expected) << lattice::name_of(lat);
        EXPECT_NEAR(two.forces[0][0], two.forces[1][0], 1e-9 * expected) << "mirror-symmetric plates (q = 0.7)";
        for (std::size_t y = 0; y < two.u.size(); ++y) EXPECT_NEAR(two.u[y], one.u[y], 1e-15) << "y " << y;
    }
}

// Interpolated links read populations across subdomain faces after the exchange,
// which the overlapped exchange does not order: more than one rank is refused.
TEST(InterpolatedWall, RefusedOnSeveralRanks) {
    auto s = plates(lattice::Kind::D2Q9, physics::CollisionKind::BGK, storage::Pattern::TwoCopy, 2.3, 20.7, 24, true);
    s.size = {8, 24, 1};
    const auto sub = parallel::make_subdomain(s.size, s.periodic, {2, 1, 1}, 0);
    try {
        sim::engine_setup(s, &sub);
        ADD_FAILURE() << "no error";
    } catch (const CaseError& e) {
        EXPECT_NE(std::string(e.what()).find("bounce_back = \"interpolated\""), std::string::npos) << e.what();
    }
}

}  // namespace
