// The free-energy binary fluid (physics/free_energy.hpp, kernel/free_energy.hpp; seed 003
// §2.2.2) on D2Q9 FP64 (and D3Q19 FP32 against it):
//
// - a flat interface relaxes to the model's profile phi = tanh(y / w), w = sqrt(2 kappa / a);
// - Laplace's law: static drops of fluid B in A, the pressure jump against 1/R, the
//   surface tension from the fit against the analytic gamma = sqrt(8 kappa a / 9)
//   (issue 23: within 3%);
// - the binary Poiseuille flow of seed 003 §5.3 (nu_0 = 1/6, nu_1 = 1/24, Gamma = 25,
//   kappa = 1e-4, a = 32e-4) against the two-layer profile of its eq. 21 with the
//   fluids' own viscosities (the interface is a quarter of a spacing wide: no mixture);
// - mass and sum phi are conserved; a restored state continues bit for bit.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "backend/engine.hpp"
#include "io/case_file.hpp"
#include "sim/simulation.hpp"
#include "sim/wetting.hpp"
#include "support.hpp"

namespace barracuda {
namespace {

constexpr double pi = 3.14159265358979323846;

backend::EngineSetup free_energy_box(int nx, int ny, double nu_a, double nu_b, const physics::FreeEnergyParameters& p,
                                     double tau_phi = 1.0) {
    auto s = test::periodic_box(lattice::Kind::D2Q9, nx, ny, 1, 3 * nu_a + 0.5, storage::Precision::FP64);
    s.scalar = lattice::CoupledKind::FreeEnergy;
    s.free_energy = p;
    s.tau_b = 3 * nu_b + 0.5;
    s.tau_phi = tau_phi;
    s.forcing = physics::ForcingKind::Edm;
    return s;
}

struct Settled {
    std::vector<double> rho, phi, u;
    double mass_drift = 0, phi_drift = 0;  // |change| of sum rho (relative) and of sum phi (per cell)
};

/// Runs the engine from rho = 1 at rest and the given phi; the final fields and the drifts.
Settled settle(const backend::EngineSetup& s, const std::vector<double>& phi0, std::int64_t steps) {
    auto e = backend::make_cpu_engine(s);
    const std::vector<double> rest(3 * phi0.size(), 0.0), one(phi0.size(), 1.0);
    e->initialize(one, rest);
    e->initialize_scalar(phi0, rest);
    const auto o0 = e->observe(1e-9, 10, false);
    e->step(steps);
    const auto o = e->observe(1e-9, 10, false);
    EXPECT_LT(o.bad_cell, 0) << "diverged";
    Settled r;
    r.mass_drift = std::abs(o.mass - o0.mass) / o0.mass;
    r.phi_drift = std::abs(o.theta_sum - o0.theta_sum) / double(phi0.size());
    e->fields(r.rho, r.u);
    e->scalar_field(r.phi);
    return r;
}

// A flat interface (two, in a periodic column) from a step in phi relaxes to the free
// energy's minimum at rest: mu = a (-phi + phi^3) - kappa lap phi uniform (zero), lap the
// second difference across the column. That discrete profile differs from the continuum's
// tanh(y / w) by O(1 / w^2): 7.35e-3 at most for w = 2.83 (a = 0.02, kappa = 0.08), from the
// discrete equation solved apart (a 1D relaxation); measured here 7.35e-3, 1e-2 allowed.
// tau_phi = 2 (M = 1.5): the bulk phases' diffusive relaxation over the 32-node layers
// leaves |mu| / a = 1.4e-6 after 20000 steps (1.5e-3 with tau_phi = 1); 1e-5 allowed.
// Currents: the step's relaxation, decayed to 1e-10.
TEST(FreeEnergy, FlatInterfaceHasTheTanhProfile) {
    const int ny = 64;
    const physics::FreeEnergyParameters p{0.02, 0.08, 1.0};
    auto s = free_energy_box(2, ny, 1.0 / 6, 1.0 / 6, p, 2.0);
    std::vector<double> phi0(std::size_t(2 * ny));
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < 2; ++x) phi0[std::size_t(2 * y + x)] = std::abs(y + 0.5 - ny / 2.0) < ny / 4.0 ? -1.0 : 1.0;
    const Settled r = settle(s, phi0, 20000);
    // Round-off only (measured 1.1e-12 per cell for sum phi after 20000 steps).
    EXPECT_LT(r.mass_drift, 1e-12);
    EXPECT_LT(r.phi_drift, 1e-11);
    const double w = physics::interface_width(p);
    const auto phi = [&](int y) { return r.phi[std::size_t(2 * ((y + ny) % ny))]; };
    double worst = 0, speed = 0, mu_spread = 0;
    for (int y = 0; y < ny; ++y) {
        // Interfaces at y = 16 and 48 (between nodes 15 and 16, 47 and 48), phi = -1 between.
        const double d1 = y + 0.5 - ny / 4.0, d2 = 3 * ny / 4.0 - (y + 0.5);
        const double exact = std::abs(d1) < std::abs(d2) ? -std::tanh(d1 / w) : -std::tanh(d2 / w);
        worst = std::max(worst, std::abs(phi(y) - exact));
        speed = std::max(speed, std::abs(r.u[std::size_t(6 * y + 1)]));
        const double mu = p.a * phi(y) * (phi(y) * phi(y) - 1) - p.kappa * (phi(y + 1) + phi(y - 1) - 2 * phi(y));
        mu_spread = std::max(mu_spread, std::abs(mu));
    }
    std::printf("  flat interface: largest |phi - tanh(y / w)| %.2e (w = %.3f), |mu| / a %.1e, |u_y| %.1e\n", worst, w,
                mu_spread / p.a, speed);
    EXPECT_LT(worst, 1e-2);
    EXPECT_LT(mu_spread / p.a, 1e-5);
    EXPECT_LT(speed, 1e-6);
}

// Laplace's law: drops of fluid B (phi = -1) of three radii in A, a = 0.02, kappa = 0.08
// (gamma = sqrt(8 kappa a / 9) = 0.03771, w = 2.83), in a periodic 96 x 96 box, 10000
// steps. dp = p0(rho, phi) inside - outside (physics::free_energy_pressure: the jump is
// carried by rho and by the shift of each bulk phi, -gamma / (4 a R) on both sides), R
// where phi = 0. The fit dp = gamma / R + c against the analytic gamma; issue 23 asks for
// 3%. Measured: -1.16% (dp R = 0.03728, 0.03730, 0.03729 at R = 15.6, 20.7, 26.7; c =
// 8e-7), -3.2% at w = 2 (a = 0.02, kappa = 0.04): the O(1 / w^2) of the stencils, which
// the flat interface's central-difference integral kappa sum phi'^2 shows too (-2.1% and
// -4.0%). Spurious currents: 7.6e-5 at most (the equilibrium form's, physics::gradient_share;
// Hermite weights gave 6e-4); 2e-4 allowed.
TEST(FreeEnergy, LaplaceLawGivesTheAnalyticSurfaceTension) {
    const physics::FreeEnergyParameters p{0.02, 0.08, 1.0};
    const int n = 96;
    std::vector<double> inv_r, dp;
    double spurious = 0;
    for (const double r0 : {16.0, 21.0, 27.0}) {
        auto s = free_energy_box(n, n, 1.0 / 6, 1.0 / 6, p);
        std::vector<double> phi0(std::size_t(n * n));
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                const double d = std::hypot(x + 0.5 - n / 2.0, y + 0.5 - n / 2.0) - r0;
                phi0[std::size_t(y * n + x)] = std::tanh(d / physics::interface_width(p));
            }
        const Settled d = settle(s, phi0, 10000);
        EXPECT_LT(d.mass_drift, 1e-12);
        EXPECT_LT(d.phi_drift, 1e-12);
        // R: where phi = 0 along the four half-axes from the centre (n/2, n/2), interpolated
        // linearly between nodes, averaged. (Not from sum phi, which is conserved: the bulk
        // phases' own shift, -gamma / (4 a R) on each side, would enter it.)
        double r = 0;
        for (const auto& [dx, dy] : {std::pair{1, 0}, std::pair{-1, 0}, std::pair{0, 1}, std::pair{0, -1}}) {
            const auto at = [&](int k) { return d.phi[std::size_t((n / 2 + k * dy) * n + n / 2 + k * dx)]; };
            for (int k = 0; k + 1 < n / 2; ++k)
                if (at(k) < 0 && at(k + 1) >= 0) {
                    r += (k + at(k) / (at(k) - at(k + 1))) / 4;
                    break;
                }
        }
        const auto centre = std::size_t((n / 2) * n + n / 2);
        inv_r.push_back(1 / r);
        dp.push_back(physics::free_energy_pressure(p, d.rho[centre], d.phi[centre], 1.0 / 3) -
                     physics::free_energy_pressure(p, d.rho[0], d.phi[0], 1.0 / 3));
        for (std::size_t c = 0; c < d.phi.size(); ++c)
            spurious = std::max(spurious, std::hypot(d.u[3 * c], d.u[3 * c + 1]));
        std::printf("  R0 %.0f: R %.3f, dp %.6e, dp R %.6f (phi %.5f / %.5f, rho %.6f / %.6f)\n", r0, r, dp.back(),
                    dp.back() * r, d.phi[centre], d.phi[0], d.rho[centre], d.rho[0]);
    }
    const double m = double(inv_r.size());
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t k = 0; k < inv_r.size(); ++k) sx += inv_r[k], sy += dp[k], sxx += inv_r[k] * inv_r[k], sxy += inv_r[k] * dp[k];
    const double gamma = (m * sxy - sx * sy) / (m * sxx - sx * sx), offset = (sy - gamma * sx) / m;
    const double exact = physics::surface_tension(p);
    std::printf("  Laplace fit: gamma %.6f (offset %.2e), analytic sqrt(8 kappa a / 9) %.6f: %+.2f%%; largest spurious "
                "|u| %.1e\n",
                gamma, offset, exact, 100 * (gamma / exact - 1), spurious);
    EXPECT_NEAR(gamma / exact, 1.0, 0.03);
    EXPECT_LT(spurious, 2e-4);
}

// The wetting potential of a contact angle (physics::wetting_potential, Briant & Yeomans'
// closed form) and Young's angle of a potential (physics::contact_angle, the wall tensions
// integrated) are each other's inverse: two derivations, one relation.
TEST(FreeEnergy, WettingPotentialInvertsYoungsAngle) {
    const physics::FreeEnergyParameters p{0.02, 0.04, 1.0};
    for (double degrees : {15.0, 45.0, 60.0, 89.0, 90.0, 120.0, 150.0, 170.0}) {
        const double theta = degrees * pi / 180;
        EXPECT_NEAR(physics::contact_angle(p, physics::wetting_potential(p, theta)), theta, 1e-10) << degrees;
    }
    EXPECT_EQ(physics::wetting_potential(p, pi / 2), 0.0);
    EXPECT_GT(physics::wetting_potential(p, pi / 4), 0.0);  // h > 0: fluid A (phi = +1) wets
}

/// A sessile drop of fluid A (phi = +1) on the bottom of a D2Q9 box 80 x 40, periodic
/// in x, a free-slip top: from a half disc of radius 16 it relaxes to the cap the
/// contact angle makes; the angle from a circle fitted to phi = 0 three spacings and
/// more above the wall (sim::cap_angle: the cap's shape away from the contact line's
/// diffuse zone), cos theta = (y_wall - y_centre) / R. The bottom is the box's wall face, or a solid
/// slab of obstacle nodes (rows 0-2: the wall at y = 2.5, the normal estimated from
/// the solid links).
double sessile_drop_angle(double degrees, bool on_obstacle) {
    const int nx = 80, ny = 40, slab = on_obstacle ? 3 : 0;
    const physics::FreeEnergyParameters p{0.02, 0.04, 1.0};
    auto s = free_energy_box(nx, ny, 1.0 / 6, 1.0 / 6, p);
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::FreeSlip);
    s.wetting = physics::wetting_potential(p, degrees * pi / 180);
    const double wall = slab - 0.5, w = physics::interface_width(p);
    s.node_kind.assign(std::size_t(nx * ny), boundary::Fluid);
    std::vector<double> phi0(std::size_t(nx * ny));
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const std::size_t c = std::size_t(y * nx + x);
            if (y < slab) s.node_kind[c] = boundary::Solid;
            const double r = std::hypot(x + 0.5 - nx / 2.0, y - wall);
            phi0[c] = std::tanh((16 - r) / w);
        }
    const Settled r = settle(s, phi0, 14000);
    EXPECT_LT(r.phi_drift, 1e-11);  // walls and obstacles bounce g back: sum phi is kept
    const double theta = sim::cap_angle(r.phi, nx, ny, slab + 3, wall);
    std::printf("  contact angle %5.1f on the %s: %.2f degrees (%+.2f)\n",
                degrees, on_obstacle ? "obstacle" : "wall", theta, theta - degrees);
    return theta;
}

// Issue 23: a sessile drop's angle against the set value within 3 degrees, for three
// angles, with the model's defaults (a = 0.02, kappa = 0.04: an interface 2 spacings
// wide); and on an obstacle's flat face as on the wall. Measured after 14000 steps: see
// the printout (docs/validation.md has more angles: the error grows towards complete
// wetting, -2.8 at 45 and +3.2 at 150 degrees, and shrinks with a wider interface,
// -0.9 at 30 and +1.1 at 150 with kappa = 0.08).
TEST(FreeEnergy, SessileDropTakesTheContactAngle) {
    for (double degrees : {60.0, 90.0, 120.0}) EXPECT_NEAR(sessile_drop_angle(degrees, false), degrees, 3.0);
    EXPECT_NEAR(sessile_drop_angle(60.0, true), 60.0, 3.0);
}

// Issue 23: the mass of each fluid conserved to round-off over 10^5 steps. A drop on a
// wetting wall (60 degrees) beside an obstacle, a free-slip top, a body force along the
// periodic x: every link kind of the model moves both sets. Measured: see the printout.
TEST(FreeEnergy, MassAndOrderParameterAreKeptOver1e5Steps) {
    const int nx = 24, ny = 16;
    const physics::FreeEnergyParameters p{0.02, 0.04, 1.0};
    auto s = free_energy_box(nx, ny, 1.0 / 6, 1.0 / 12, p);
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::FreeSlip);
    s.wetting = physics::wetting_potential(p, pi / 3);
    s.force[0] = 1e-6;
    s.node_kind.assign(std::size_t(nx * ny), boundary::Fluid);
    std::vector<double> phi0(std::size_t(nx * ny));
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const std::size_t c = std::size_t(y * nx + x);
            if (x >= 18 && x < 21 && y < 5) s.node_kind[c] = boundary::Solid;
            phi0[c] = std::tanh((6 - std::hypot(x - 8.0, y + 0.5)) / 2);
        }
    const Settled r = settle(s, phi0, 100000);
    std::printf("  after 1e5 steps: mass %.1e (relative), sum phi %.1e a cell\n", r.mass_drift, r.phi_drift);
    // Round-off: measured 6.3e-14 and 8.5e-13. A rounding biased by one unit of 1e-16 a cell
    // and step would add up to 1e5 x 1e-16 = 1e-11 a cell; a leak at a link would be of the
    // populations' size a step (1e-3 and more).
    EXPECT_LT(r.mass_drift, 1e-12);
    EXPECT_LT(r.phi_drift, 1e-11);
}

// Seed 003 §5.3 with its free-energy parameters: fluid A (nu_0 = 1/6) beside the walls,
// B (nu_1 = 1/24) in the core of a 4 x 64 channel (a quarter of the seed's width, for CI
// time), half-way bounce-back walls, a body force. The interface (w = 0.25) holds no
// mixture: the profile is eq. 21's with the fluids' own viscosities,
//   u = F (L^2 - y^2) / (2 mu_0)                                 for h < |y| < L,
//   u = F (L^2 - h^2) / (2 mu_0) + F (h^2 - y^2) / (2 mu_1)      for |y| <= h,
// L = 32 and h = 16 (phi's zero). Measured: see the printout; 2% of u_max allowed (the
// interface's node, where tau_rho is interpolated, carries the jump in viscosity).
TEST(FreeEnergy, BinaryPoiseuilleFlowMatchesTheTwoLayerProfile) {
    const int nx = 4, ny = 64;
    const double nu_a = 1.0 / 6, nu_b = 1.0 / 24, force = 1e-6;
    const physics::FreeEnergyParameters p{32e-4, 1e-4, 25.0};
    auto s = free_energy_box(nx, ny, nu_a, nu_b, p);
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::Wall);
    s.force[0] = force;
    std::vector<double> phi0(std::size_t(nx * ny));
    for (std::size_t c = 0; c < phi0.size(); ++c)
        phi0[c] = std::abs(double(c / nx) + 0.5 - ny / 2.0) <= ny / 4.0 ? -1.0 : 1.0;
    // 60000 steps: nu_0 t / L^2 = 9.8, the slowest viscous mode decayed below 1e-9.
    const Settled r = settle(s, phi0, 60000);
    EXPECT_LT(r.mass_drift, 1e-10);
    EXPECT_LT(r.phi_drift, 1e-10);
    const double yc = (ny - 1) / 2.0, half = ny / 2.0, h = ny / 4.0;
    const double mu0 = nu_a, mu1 = nu_b;  // rho = 1
    double worst = 0, peak = 0;
    for (int y = 0; y < ny; ++y) {
        const double d = std::abs(y - yc);
        const double exact = d > h ? force * (half * half - d * d) / (2 * mu0)
                                   : force * (half * half - h * h) / (2 * mu0) + force * (h * h - d * d) / (2 * mu1);
        const double u = r.u[std::size_t(3 * y * nx)];
        worst = std::max(worst, std::abs(u - exact));
        peak = std::max(peak, exact);
        if (std::getenv("BINARY_PROFILE"))
            std::printf("  y %2d rho %.6f phi %+.4f u %.6e two-layer %.6e\n", y, r.rho[std::size_t(y * nx)],
                        r.phi[std::size_t(y * nx)], u, exact);
    }
    std::printf("  two-layer profile: largest difference %.2e of u_max %.4e (%.2f%%)\n", worst, peak, 100 * worst / peak);
    EXPECT_LT(worst / peak, 0.02);
}

// The same model on D3Q19, in FP64 and FP32, against D2Q9 in FP64: a flat interface across
// a periodic column, uniform along x and z, settles to the same profile (the lattices'
// equilibria and stencils projected on y agree). Measured: FP64 1.5e-14 apart; FP32
// 2.8e-5, its round-off over 4000 steps (phi's equilibrium is a balance of fluxes of order
// Gamma mu ~ 1e-3); 1e-12 and 1e-4 allowed. FP32 keeps sum phi less well than the flow's
// mass: the order parameter sits at the rest velocity (g_0 ~ phi, magnitude 1, where the
// flow's shifted populations are ~1e-2), and every bulk cell of a phase rounds the same
// values the same way, so the drift is systematic. Measured 5.1e-6 a cell over the 4000
// steps (FP64: 2e-16), 6.6e-5 before the collision gave the rest velocity the remainder
// (physics::free_energy_collide); 2e-5 allowed.
TEST(FreeEnergy, FlatInterfaceIsTheSameOnD2Q9AndD3Q19) {
    const int ny = 32;
    const physics::FreeEnergyParameters p{0.02, 0.04, 1.0};
    auto profile = [&](lattice::Kind lat, storage::Precision prec, double& drift) {
        auto s = free_energy_box(2, ny, 1.0 / 6, 1.0 / 12, p);
        s.lattice = lat;
        s.precision = prec;
        s.grid = {{2, ny, lat == lattice::Kind::D2Q9 ? 1 : 2}, {true, true, true}, false};
        s.node_kind.assign(std::size_t(s.grid.cells()), boundary::Fluid);
        std::vector<double> phi0(std::size_t(s.grid.cells()));
        for (std::size_t c = 0; c < phi0.size(); ++c)
            phi0[c] = std::abs(double(int(c / 2) % ny) + 0.5 - ny / 2.0) < ny / 4.0 ? -1.0 : 1.0;
        const Settled r = settle(s, phi0, 4000);
        drift = r.phi_drift;
        std::vector<double> column(ny);
        for (int y = 0; y < ny; ++y) column[std::size_t(y)] = r.phi[std::size_t(2 * y)];
        return column;
    };
    double drift2, drift64, drift32;
    const auto d2 = profile(lattice::Kind::D2Q9, storage::Precision::FP64, drift2);
    const auto d64 = profile(lattice::Kind::D3Q19, storage::Precision::FP64, drift64);
    const auto d32 = profile(lattice::Kind::D3Q19, storage::Precision::FP32, drift32);
    double worst64 = 0, worst32 = 0;
    for (int y = 0; y < ny; ++y) {
        worst64 = std::max(worst64, std::abs(d2[std::size_t(y)] - d64[std::size_t(y)]));
        worst32 = std::max(worst32, std::abs(d2[std::size_t(y)] - d32[std::size_t(y)]));
    }
    std::printf("  largest |phi_D3Q19 - phi_D2Q9,FP64|: FP64 %.1e, FP32 %.1e; sum phi drift a cell: %.1e, %.1e, %.1e\n",
                worst64, worst32, drift2, drift64, drift32);
    EXPECT_LT(worst64, 1e-12);
    EXPECT_LT(worst32, 1e-4);
    EXPECT_LT(drift64, 1e-12);
    EXPECT_LT(drift32, 2e-5);
}

// phi is recomputed from g at the start of every step, and a checkpoint keeps f and g: a
// restored run continues bit for bit (a drop beside a wall: the general boundary path).
TEST(FreeEnergy, RestoredStateContinuesBitForBit) {
    auto s = free_energy_box(24, 20, 1.0 / 6, 1.0 / 24, {0.04, 0.04, 1.0});
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::FreeSlip);
    s.force[0] = 1e-5;
    std::vector<double> phi0(std::size_t(24 * 20));
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 24; ++x) phi0[std::size_t(y * 24 + x)] = std::hypot(x - 11.5, y) < 7 ? -1.0 : 1.0;
    const std::vector<double> rest(3 * phi0.size(), 0.0), one(phi0.size(), 1.0);
    auto a = backend::make_cpu_engine(s);
    a->initialize(one, rest);
    a->initialize_scalar(phi0, rest);
    a->step(100);
    const backend::EngineState saved = a->save_state();
    a->step(50);
    auto b = backend::make_cpu_engine(s);
    b->restore_state(saved);
    b->step(50);
    std::vector<double> fa, fb, ga, gb;
    a->populations(fa);
    b->populations(fb);
    ASSERT_EQ(fa, fb);
    a->scalar_field(ga);
    b->scalar_field(gb);
    ASSERT_EQ(ga, gb);
    EXPECT_LT(a->observe(1e-9, 10, false).bad_cell, 0);
}

// A case from text with the defaults (a = 0.02, kappa = 0.04, Gamma = 1, tau_phi = 1): a drop of
// B given by an expression; the engine starts from it, the run keeps mass and sum phi,
// and the drop stays.
TEST(FreeEnergy, CaseFileWithItsDefaults) {
    const char* text = R"(
[model]
lattice = "D2Q9"
precision = "fp64"
viscosity = 0.16666666666666666
[domain]
size = [48, 48, 1]
periodic = [true, true, true]
[multiphase]
model = "free-energy"
viscosity_b = 0.08333333333333333
[initial]
phi = "(x - 23.5)^2 + (y - 23.5)^2 < 100 ? -1 : 1"
[output]
formats = []
)";
    sim::Simulation run(io::parse_case_string(text), sim::BackendChoice::Cpu);
    std::vector<double> rho, u, phi;
    run.engine().fields(rho, u);
    run.engine().scalar_field(phi);
    const auto centre = std::size_t(24 * 48 + 24), corner = std::size_t(0);
    EXPECT_NEAR(phi[centre], -1.0, 1e-12);
    EXPECT_NEAR(phi[corner], 1.0, 1e-12);
    const auto o0 = run.engine().observe(1e-9, 10, false);
    run.advance(2000);
    const auto o = run.engine().observe(1e-9, 10, false);
    EXPECT_LT(o.bad_cell, 0);
    EXPECT_NEAR(o.mass / o0.mass, 1.0, 1e-12);
    EXPECT_NEAR(o.theta_sum, o0.theta_sum, 1e-9);
    run.engine().scalar_field(phi);
    EXPECT_LT(phi[centre], -0.9) << "the drop dissolved";
    EXPECT_GT(phi[corner], 0.9);
}

}  // namespace
}  // namespace barracuda
