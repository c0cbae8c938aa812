// The coupled temperature lattice (kernel/scalar.hpp, physics/advection_diffusion.hpp)
// against analytic solutions: a Gaussian pulse advected and diffused by a uniform
// flow (second-order convergence), conduction between plates held at two
// temperatures and under a heat flux (exact linear profiles), and a restart that
// continues bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "backend/engine.hpp"
#include "common/error.hpp"
#include "physics/advection_diffusion.hpp"
#include "support.hpp"

namespace barracuda {
namespace {

using lattice::CoupledKind;
using backend::EngineSetup;

EngineSetup thermal_box(lattice::Kind flow, CoupledKind scalar, int nx, int ny, int nz, double tau, double diffusivity,
                        double lambda, storage::Precision precision = storage::Precision::FP64,
                        physics::CollisionKind collision = physics::CollisionKind::TRT) {
    auto s = test::periodic_box(flow, nx, ny, nz, tau, precision, collision);
    s.scalar = scalar;
    s.thermal.diffusivity = diffusivity;
    s.thermal.lambda = lambda;
    return s;
}

/// Uniform velocity u and theta(x) of every cell into the engine.
void start(backend::Engine& e, const EngineSetup& s, const std::array<double, 3>& u,
           const std::function<double(int, int, int)>& theta) {
    const auto n = std::size_t(s.grid.cells());
    std::vector<double> rho(n, 1.0), v(3 * n), th(n);
    for (std::size_t c = 0; c < n; ++c) {
        int p[3];
        s.grid.coordinates(std::int64_t(c), p);
        for (int a = 0; a < 3; ++a) v[3 * c + std::size_t(a)] = u[std::size_t(a)];
        th[c] = theta(p[0], p[1], p[2]);
    }
    e.initialize(rho, v);
    e.initialize_scalar(th, v);
}

/// Relative L2 error of a Gaussian pulse along x, advected at U and diffused with D
/// (physical units: box [0, 1), U = 0.5, D = 0.01, sigma_0 = 0.1, t = 0.5), on n cells
/// along x under diffusive scaling: D_lattice = 0.05 at every n, dt = 5/n^2.
double pulse_error(lattice::Kind flow, CoupledKind scalar, int n, double lambda) {
    const double D = 0.01, U = 0.5, sigma0 = 0.1, t_end = 0.5, D_lat = 0.05;
    const double dx = 1.0 / n, dt = D_lat * dx * dx / D;
    const auto steps = std::int64_t(std::llround(t_end / dt));
    const double u_lat = U * dt / dx;
    const bool three_d = flow != lattice::Kind::D2Q9;
    auto s = thermal_box(flow, scalar, n, 2, three_d ? 2 : 1, 0.8, D_lat, lambda);
    auto engine = backend::make_cpu_engine(s);
    // The pulse and its periodic images at time t.
    auto exact = [&](double x, double t) {
        const double var = sigma0 * sigma0 + 2 * D * t;
        double v = 0;
        for (int k = -3; k <= 3; ++k) {
            const double d = x - 0.5 - U * t + k;
            v += sigma0 / std::sqrt(var) * std::exp(-d * d / (2 * var));
        }
        return v;
    };
    start(*engine, s, {u_lat, 0, 0}, [&](int x, int, int) { return exact((x + 0.5) * dx, 0); });
    engine->step(steps);
    std::vector<double> th;
    engine->scalar_field(th);
    double err2 = 0, ref2 = 0;
    for (int x = 0; x < n; ++x) {
        const double e = exact((x + 0.5) * dx, double(steps) * dt);
        err2 += (th[std::size_t(x)] - e) * (th[std::size_t(x)] - e);
        ref2 += e * e;
    }
    return std::sqrt(err2 / ref2);
}

// Second order under diffusive scaling: each halving of dx divides the error by about 4.
// The error at n = 32 (sigma_0 = 3.2 cells) is a few 1e-3; an order below 1.8 would
// mean a first-order term (a wrong equilibrium moment, a missing half-force term).
TEST(Thermal, GaussianPulseConvergesAtSecondOrderOnEveryScalarLattice) {
    struct Case {
        lattice::Kind flow;
        CoupledKind scalar;
    };
    for (const Case c : {Case{lattice::Kind::D2Q9, CoupledKind::D2Q5}, Case{lattice::Kind::D2Q9, CoupledKind::D2Q4},
                         Case{lattice::Kind::D3Q19, CoupledKind::D3Q7}, Case{lattice::Kind::D3Q19, CoupledKind::D3Q6}}) {
        for (const double lambda : {0.0, 3.0 / 16.0, physics::regularized_lambda}) {  // BGK, TRT, omega+ = 1
            const double e32 = pulse_error(c.flow, c.scalar, 32, lambda);
            const double e64 = pulse_error(c.flow, c.scalar, 64, lambda);
            const double e128 = pulse_error(c.flow, c.scalar, 128, lambda);
            const double order1 = std::log2(e32 / e64), order2 = std::log2(e64 / e128);
            const char* name = lambda > 0 ? "trt" : lambda < 0 ? "regularized" : "bgk";
            SCOPED_TRACE(std::string(lattice::name_of(c.scalar)) + " " + name);
            std::printf("  %s %s: L2 error %.2e %.2e %.2e (n = 32, 64, 128), orders %.2f %.2f\n",
                        std::string(lattice::name_of(c.scalar)).c_str(), name, e32, e64, e128, order1, order2);
            EXPECT_LT(e32, 2e-2);
            EXPECT_GT(order1, 1.8) << e32 << " " << e64;
            EXPECT_GT(order2, 1.8) << e64 << " " << e128;
        }
    }
}

/// Steady theta(y) between a wall at y_min and one at y_max, fluid at rest, x periodic.
std::vector<double> steady_profile(CoupledKind scalar, double diffusivity, double lambda,
                                   boundary::ScalarCondition lo, boundary::ScalarCondition hi, int ny) {
    auto s = thermal_box(lattice::Kind::D2Q9, scalar, 4, ny, 1, 0.8, diffusivity, lambda);
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::Wall);
    s.thermal.faces.face[boundary::YMin] = lo;
    s.thermal.faces.face[boundary::YMax] = hi;
    auto engine = backend::make_cpu_engine(s);
    start(*engine, s, {0, 0, 0}, [](int, int, int) { return 0.0; });
    // The slowest mode decays as exp(-pi^2 D t / (4 ny^2)) (a quarter wave: one wall may
    // give the flux): 12 ny^2 / D steps leave exp(-3 pi^2) ~ 1e-13 of the initial
    // difference, below the 1e-9 compared.
    engine->step(std::int64_t(12.0 * ny * ny / diffusivity));
    std::vector<double> th;
    engine->scalar_field(th);
    std::vector<double> column(static_cast<std::size_t>(ny));
    for (int y = 0; y < ny; ++y) column[std::size_t(y)] = th[std::size_t(s.grid.index(1, y, 0))];
    return column;
}

// Anti-bounce-back puts the temperature at the half-way point of the wall links: a
// linear profile is then exact for any tau_T (Ginzburg 2005), so the tolerance is the
// round-off and the remaining transient (1e-9 of the temperature difference).
TEST(Thermal, ConductionBetweenPlatesIsLinearForAnyRelaxationTime) {
    const int ny = 16;
    for (const CoupledKind k : {CoupledKind::D2Q5, CoupledKind::D2Q4})
        for (const double D : {0.02, 0.3})
            for (const double lambda : {0.0, 3.0 / 16.0}) {
                const auto th = steady_profile(k, D, lambda, {boundary::ScalarRule::Fixed, 1.0},
                                               {boundary::ScalarRule::Fixed, -1.0}, ny);
                for (int y = 0; y < ny; ++y)
                    EXPECT_NEAR(th[std::size_t(y)], 1.0 - 2.0 * (y + 0.5) / ny, 1e-9)
                        << lattice::name_of(k) << " D " << D << " lambda " << lambda << " y " << y;
            }
}

// A heat flux q into the fluid at y_min and a wall at theta = 0 at y_max: the steady
// profile is linear with slope -q/D, theta(y) = q/D (ny - 1/2 - y) (walls half-way).
TEST(Thermal, HeatFluxWallGivesTheLinearProfile) {
    const int ny = 16;
    const double q = 1e-3;
    for (const CoupledKind k : {CoupledKind::D2Q5, CoupledKind::D2Q4})
        for (const double D : {0.05, 0.2}) {
            const auto th = steady_profile(k, D, 3.0 / 16.0, {boundary::ScalarRule::Flux, q},
                                           {boundary::ScalarRule::Fixed, 0.0}, ny);
            for (int y = 0; y < ny; ++y)
                EXPECT_NEAR(th[std::size_t(y)], q / D * (ny - 0.5 - y), 1e-9 * q / D * ny)
                    << lattice::name_of(k) << " D " << D << " y " << y;
        }
}

// LES on the scalar (seed 004 eq. 8): in a Couette flow of shear S between a resting
// wall and one moving at U, the flow's Smagorinsky closure gives the uniform eddy
// viscosity nu_t = C^2 |S| (Delta = 1, |S| = S for simple shear), and the heat flux q
// entering at y_min, with theta = 0 on the moving wall, then gives the linear profile
// of slope -q / (D + nu_t / Pr_t). Without the coupling the slope would be -q/D, 24%
// steeper here; the tolerance, 0.2% of the wall temperature, is the accuracy of the
// Couette flow's shear (exact for linear profiles) and of the converged transient.
TEST(Thermal, LesRaisesTheDiffusivityByTheEddyViscosityOverPrt) {
    const int ny = 8;
    const double U = 0.05, C = 0.4, D = 0.005, prt = 0.85, q = 1e-4;
    auto s = thermal_box(lattice::Kind::D2Q9, CoupledKind::D2Q5, 4, ny, 1, 0.8, D, 3.0 / 16.0);
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::MovingWall);
    s.faces.velocity[boundary::YMax][0] = U;
    s.smagorinsky = C;
    s.thermal.turbulent_prandtl = prt;
    s.thermal.faces.face[boundary::YMin] = {boundary::ScalarRule::Flux, q};
    s.thermal.faces.face[boundary::YMax] = {boundary::ScalarRule::Fixed, 0.0};
    auto engine = backend::make_cpu_engine(s);
    start(*engine, s, {0, 0, 0}, [](int, int, int) { return 0.0; });
    engine->step(std::int64_t(60.0 * ny * ny / D));
    std::vector<double> th, rho, u;
    engine->scalar_field(th);
    engine->fields(rho, u);
    const double shear = (u[3 * std::size_t(s.grid.index(1, ny - 1, 0))] - u[3 * std::size_t(s.grid.index(1, 0, 0))]) /
                         double(ny - 1);
    EXPECT_NEAR(shear, U / ny, 1e-3 * U / ny);  // the flow is the Couette flow
    const double d_eff = D + C * C * shear / prt;
    for (int y = 0; y < ny; ++y) {
        const double want = q / d_eff * (ny - 0.5 - y);
        EXPECT_NEAR(th[std::size_t(s.grid.index(1, y, 0))], want, 2e-3 * q / d_eff * ny) << "y " << y;
    }
}

// Adiabatic walls and periodic sides conserve the heat content exactly (every link
// bounces back what left), also with buoyancy stirring the fluid.
TEST(Thermal, AdiabaticBoxConservesHeatWithBuoyancy) {
    for (const auto pattern : {storage::Pattern::TwoCopy, storage::Pattern::InPlace}) {
        auto s = thermal_box(lattice::Kind::D3Q19, CoupledKind::D3Q7, 12, 10, 8, 0.6, 0.05, 3.0 / 16.0,
                             storage::Precision::FP32);
        s.pattern = pattern;
        test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::Wall);
        test::set_faces(s, 2, boundary::FaceType::Wall, boundary::FaceType::FreeSlip);
        s.thermal.buoyancy[1] = 1e-4;  // -beta g: warm rises
        auto engine = backend::make_cpu_engine(s);
        start(*engine, s, {0, 0, 0}, [](int x, int, int z) { return x < 6 ? 1.0 : -1.0 + 0.01 * z; });
        const auto before = engine->observe(0.5, 2, false);
        engine->step(400);
        const auto after = engine->observe(0.5, 2, false);
        EXPECT_GT(after.u_max, 1e-4);  // buoyancy drove a flow
        EXPECT_NEAR(after.theta_sum, before.theta_sum, 1e-5 * double(s.grid.cells()));  // fp32 round-off
        EXPECT_LT(after.theta_max, before.theta_max);  // and mixed the temperature
    }
}

// A checkpoint holds both distributions: saving, going on, and restoring into a new
// engine gives the same fields bit for bit.
TEST(Thermal, RestoredStateContinuesBitForBit) {
    auto s = thermal_box(lattice::Kind::D2Q9, CoupledKind::D2Q5, 16, 12, 1, 0.7, 0.05, 3.0 / 16.0);
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::Wall);
    s.thermal.faces.face[boundary::YMin] = {boundary::ScalarRule::Fixed, 1.0};
    s.thermal.buoyancy[0] = 1e-4;
    auto a = backend::make_cpu_engine(s);
    start(*a, s, {0, 0, 0}, [](int, int, int) { return 0.0; });
    a->step(50);
    const auto saved = a->save_state();
    a->step(50);
    auto b = backend::make_cpu_engine(s);
    b->restore_state(saved);
    b->step(50);
    std::vector<double> ta, tb, ra, ua, rb, ub;
    a->scalar_field(ta), b->scalar_field(tb);
    a->fields(ra, ua), b->fields(rb, ub);
    EXPECT_EQ(ta, tb);
    EXPECT_EQ(ua, ub);
    // A flow-only engine refuses the state (its key names the scalar lattice).
    auto flow_only = s;
    flow_only.scalar = CoupledKind::None;
    auto c = backend::make_cpu_engine(flow_only);
    EXPECT_THROW(c->restore_state(saved), CaseError);
}

}  // namespace
}  // namespace barracuda
