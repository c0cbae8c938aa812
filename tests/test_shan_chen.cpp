// The single-component Shan-Chen model (physics/shan_chen.hpp,
// kernel/pseudopotential.hpp): a liquid and its vapour, D2Q9 FP64, exponential
// pseudopotential psi = 1 - exp(-rho), G = -5 (below the critical -4), tau = 1,
// periodic box. The liquid and vapour densities depend on the forcing scheme
// (measured: 1.9315 and 0.1555 with the exact difference method, a case's default;
// 1.8885 and 0.1195 with Guo's), the surface tension too; each scheme is checked.
//
// Laplace's law (issue 23): static drops of several radii; the pressure jump
// across the interface, from the model's equation of state
// p = rho cs2 + G cs2 psi^2 / 2 (Shan & Chen 1994) at the drop's centre and far
// from it, is linear in 1/R, and its slope, the surface tension, agrees with an
// independent measurement: the flat interface's pressure-tensor integral
//   gamma = sum_y (P_N - P_T(y)),  P_T = rho cs2 + (G/2) psi(y) sum_i w_i psi(y + c_i) c_ix^2
// (the interaction part sums the pair forces across a plane normal to x; its sum over y is
// that of Shan 2008, Phys. Rev. E 77, 066702, whose discrete pressure tensor makes the
// Laplace law and the flat interface agree, where the continuum one does not).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <tuple>
#include <utility>
#include <vector>

#include "backend/engine.hpp"
#include "io/case_file.hpp"
#include "sim/simulation.hpp"
#include "sim/wetting.hpp"
#include "lattice/lattice.hpp"
#include "support.hpp"

namespace barracuda {
namespace {

constexpr double pi = 3.14159265358979323846;
constexpr double g_coupling = -5.0;

backend::EngineSetup liquid_vapour_box(int nx, int ny, physics::ForcingKind forcing) {
    auto s = test::periodic_box(lattice::Kind::D2Q9, nx, ny, 1, 1.0, storage::Precision::FP64);
    s.scalar = lattice::CoupledKind::ShanChen;
    s.shan_chen.psi = physics::Pseudopotential::Exponential;
    s.shan_chen.g = g_coupling;
    s.forcing = forcing;
    return s;
}

double psi(double rho) { return 1 - std::exp(-rho); }
double pressure(double rho) { return rho / 3 + g_coupling * psi(rho) * psi(rho) / 6; }

/// Runs the engine from the given density field at rest; returns the final density.
std::vector<double> settle(const backend::EngineSetup& s, const std::vector<double>& rho0, std::int64_t steps,
                           double* mass_drift = nullptr) {
    auto e = backend::make_cpu_engine(s);
    e->initialize(rho0, std::vector<double>(3 * rho0.size(), 0.0));
    const double m0 = e->observe(1e-6, 10, false).mass;
    e->step(steps);
    const auto o = e->observe(1e-6, 10, false);
    EXPECT_LT(o.bad_cell, 0) << "diverged";
    if (mass_drift) *mass_drift = std::abs(o.mass - m0) / m0;
    std::vector<double> rho, u;
    e->fields(rho, u);
    return rho;
}

class LaplaceLaw : public testing::TestWithParam<physics::ForcingKind> {};

TEST_P(LaplaceLaw, AgreesWithTheFlatInterfacesPressureTensor) {
    const physics::ForcingKind forcing = GetParam();
    // The flat interface: a liquid slab across a periodic column (two interfaces).
    const int ny = 128;
    auto flat = liquid_vapour_box(2, ny, forcing);
    std::vector<double> rho0(2 * ny);
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < 2; ++x) rho0[std::size_t(y * 2 + x)] = std::abs(y + 0.5 - ny / 2.0) < ny / 4.0 ? 1.9 : 0.16;
    double drift = 0;
    const auto slab = settle(flat, rho0, 20000, &drift);
    EXPECT_LT(drift, 1e-12) << "mass";  // streaming and collision conserve it; round-off only
    std::vector<double> p(ny);
    for (int y = 0; y < ny; ++y) p[std::size_t(y)] = psi(slab[std::size_t(2 * y)]);
    // gamma = sum over the interface of (p - P_T): the bulk pressure (P_N, constant across a
    // flat interface in equilibrium) less the transverse pressure, whose interaction part
    // sums the pair forces of the links that cross a plane normal to the interface; D2Q9:
    // P_T = rho cs2 + (G/2) psi(y) [ (2/9) psi(y) + (1/18) (psi(y+1) + psi(y-1)) ].
    const double p_bulk = pressure(slab[0]);
    double gamma_flat = 0;
    for (int y = 0; y < ny; ++y) {
        const double up = p[std::size_t((y + 1) % ny)], down = p[std::size_t((y + ny - 1) % ny)], here = p[std::size_t(y)];
        const double p_t = slab[std::size_t(2 * y)] / 3 + 0.5 * g_coupling * here * (2.0 / 9.0 * here + (up + down) / 18.0);
        gamma_flat += p_bulk - p_t;
    }
    gamma_flat /= 2;  // two interfaces
    const double rho_l = slab[std::size_t(2 * (ny / 2))], rho_v = slab[0];
    std::printf("  flat: rho_l %.4f rho_v %.4f, gamma %.5f\n", rho_l, rho_v, gamma_flat);

    // Drops of radius R0 in a periodic square; R from the drop's mass.
    const int n = 80;
    std::vector<double> inv_r, dp;
    for (const double r0 : {8.0, 12.0, 18.0}) {
        auto s = liquid_vapour_box(n, n, forcing);
        std::vector<double> init(std::size_t(n * n));
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x)
                init[std::size_t(y * n + x)] = std::hypot(x + 0.5 - n / 2.0, y + 0.5 - n / 2.0) < r0 ? rho_l : rho_v;
        const auto rho = settle(s, init, 8000);
        const double in = rho[std::size_t((n / 2) * n + n / 2)], out = rho[0];
        double excess = 0;
        for (double v : rho) excess += v - out;
        const double r = std::sqrt(excess / (in - out) / pi);
        inv_r.push_back(1 / r);
        dp.push_back(pressure(in) - pressure(out));
        std::printf("  R0 %.0f: R %.3f, rho in %.4f out %.4f, dp %.6f\n", r0, r, in, out, dp.back());
    }
    // Laplace's law with its first curvature correction (Tolman 1949): dp = (gamma / R)(1 - delta / R),
    // so dp R is linear in 1/R and its intercept is the flat interface's gamma. Least squares.
    const double m = double(inv_r.size());
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t k = 0; k < inv_r.size(); ++k) {
        const double y = dp[k] / inv_r[k];
        sx += inv_r[k], sy += y, sxx += inv_r[k] * inv_r[k], sxy += inv_r[k] * y;
    }
    const double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx), gamma = (sy - slope * sx) / m;
    double worst = 0;
    for (std::size_t k = 0; k < inv_r.size(); ++k)
        worst = std::max(worst, std::abs(dp[k] - gamma * inv_r[k] - slope * inv_r[k] * inv_r[k]) / dp[k]);
    std::printf("  Laplace: gamma %.5f (flat %.5f, %+.2f%%), Tolman length %.2f, worst residual %.2e of dp\n", gamma,
                gamma_flat, 100 * (gamma / gamma_flat - 1), -slope / gamma, worst);
    // The two measurements share no formula (the drops' bulk pressures against the flat
    // interface's transverse pressure), so their agreement checks the force, the forcing and
    // the equation of state together; measured 0.2% (Guo) and 0.1% (EDM), 2% allowed (the
    // drops' residual currents and the fit over three radii).
    EXPECT_NEAR(gamma / gamma_flat, 1.0, 0.02);
    EXPECT_LT(worst, 0.02);  // the corrected law holds at every radius (measured 0.6%)
}

INSTANTIATE_TEST_SUITE_P(ShanChen, LaplaceLaw, testing::Values(physics::ForcingKind::Guo, physics::ForcingKind::Edm),
                         [](const auto& info) { return info.param == physics::ForcingKind::Guo ? "guo" : "edm"; });

// Carnahan-Starling's equation of state through the pseudopotential (Yuan & Schaefer
// 2006), a = 1, b = 4, R = 1, with the exact difference method and the mixed force's
// default beta (physics/shan_chen.hpp): a flat interface's liquid and vapour against
// Maxwell's equal-area construction of the same equation (issue 23: within 2%), from
// 0.5 T_c (a density ratio of 725) to 0.9 T_c. Maxwell's densities by bisection on the
// pressure with the integral of (p - P) / rho^2 between the roots (scipy's brentq and
// quad, 1e-7 relative): literals, as maxwell_coexistence below stops at the pole.
// beta = 1.2215 was calibrated on these flat interfaces (a 1D D1Q3 model of them, which
// D2Q9 reduces to, run at 0.45 to 0.9 T_c; it gives this test's figures to 4 digits):
// vapour +1.4% (0.5 T_c), -1.5% (0.6), -0.5% (0.7), +0.1% (0.8), +0.2% (0.9); the liquid
// within 0.01%; below 0.5 T_c it leaves the bar (+10% at 0.45). The vapour is the
// sensitive phase (0.001 in beta moves it 1.1% at 0.5 T_c, 0.45% at 0.6), so 2% is the
// issue's bar, not a margin. Shan & Chen's own force (beta = 1) misses it: vapour 41% low
// at 0.7 T_c.
TEST(ShanChen, CarnahanStarlingCoexistenceIsMaxwells) {
    const int ny = 64;
    struct Case {
        double t, mixing, maxwell_l, maxwell_v;
    };
    for (const Case& c : {Case{0.5, physics::carnahan_starling_mixing, 0.454088, 0.0006263},
                          Case{0.6, physics::carnahan_starling_mixing, 0.406215, 0.0030805},
                          Case{0.7, physics::carnahan_starling_mixing, 0.358144, 0.0092917},
                          Case{0.9, physics::carnahan_starling_mixing, 0.248108, 0.0454095},
                          Case{0.7, 1.0, 0.358144, 0.0092917}}) {
        auto s = test::periodic_box(lattice::Kind::D2Q9, 2, ny, 1, 1.0, storage::Precision::FP64);
        s.scalar = lattice::CoupledKind::ShanChen;
        s.shan_chen.psi = physics::Pseudopotential::CarnahanStarling;
        s.shan_chen.g = -1;
        s.shan_chen.temperature = c.t * s.shan_chen.critical_temperature();
        s.shan_chen.mixing = c.mixing;
        s.forcing = physics::ForcingKind::Edm;
        std::vector<double> rho0(std::size_t(2 * ny));
        for (int y = 0; y < ny; ++y) {
            const double d = std::abs(y + 0.5 - ny / 2.0) - ny / 4.0;  // a smooth slab, liquid at the centre
            rho0[std::size_t(2 * y)] = rho0[std::size_t(2 * y + 1)] =
                c.maxwell_v + (c.maxwell_l - c.maxwell_v) * (1 - std::tanh(d / 2)) / 2;
        }
        const auto rho = settle(s, rho0, 20000);
        const double l = rho[std::size_t(2 * (ny / 2))], v = rho[0];
        std::printf("  T = %.1f T_c, beta = %.4f: liquid %.6f (Maxwell %.6f, %+.2f%%), vapour %.7f (Maxwell %.7f, "
                    "%+.2f%%)\n",
                    c.t, c.mixing, l, c.maxwell_l, 100 * (l / c.maxwell_l - 1), v, c.maxwell_v,
                    100 * (v / c.maxwell_v - 1));
        if (c.mixing == 1.0) {
            EXPECT_LT(v / c.maxwell_v, 0.7);  // measured 0.59
            continue;
        }
        EXPECT_NEAR(l / c.maxwell_l, 1.0, 0.02);
        EXPECT_NEAR(v / c.maxwell_v, 1.0, 0.02);
    }
}

// Maxwell's equal-area construction of p = rho cs2 + G cs2 psi^2 / 2: the pressure P whose
// roots rho_v < rho_l (outside the spinodal points) enclose integral (p - P) / rho^2 = 0,
// by bisection on P (the integral by Simpson's rule on 4000 intervals: 1e-9 here). For a
// psi without a pole (the exponential forms): Carnahan-Starling's pole at rho = 4 / b takes
// the liquid root's bisection (it gives 1.0 there), so that test's Maxwell values are
// literals above.
std::pair<double, double> maxwell_coexistence(const physics::ShanChenParameters& sc) {
    const auto p = [&](double rho) { return physics::shan_chen_pressure(sc, rho, 1.0 / 3.0); };
    const auto dp = [&](double rho) { return (p(rho * (1 + 1e-7)) - p(rho * (1 - 1e-7))) / (2e-7 * rho); };
    const auto root = [](auto f, double lo, double hi) {
        for (int k = 0; k < 200; ++k) {
            const double mid = (lo + hi) / 2;
            (f(lo) < 0) == (f(mid) < 0) ? lo = mid : hi = mid;
        }
        return (lo + hi) / 2;
    };
    // The spinodal points: where dp/drho changes sign, scanning up from a dilute state.
    double spinodal[2] = {0, 0};
    int found = 0;
    for (double rho = 0.01; rho < 20 && found < 2; rho += 0.001)
        if ((dp(rho) < 0) != (dp(rho + 0.001) < 0)) spinodal[found++] = root(dp, rho, rho + 0.001);
    EXPECT_EQ(found, 2) << "no van der Waals loop at this G";
    double lo = p(spinodal[1]), hi = p(spinodal[0]), v = 0, l = 0;
    for (int k = 0; k < 100; ++k) {
        const double pp = (lo + hi) / 2;
        v = root([&](double r) { return p(r) - pp; }, 1e-4, spinodal[0]);
        l = root([&](double r) { return p(r) - pp; }, spinodal[1], 50.0);
        const int n = 4000;
        double area = 0;
        for (int j = 0; j <= n; ++j) {
            const double r = v + (l - v) * j / n, weight = j == 0 || j == n ? 1 : j % 2 ? 4 : 2;
            area += weight * (p(r) - pp) / (r * r);
        }
        (area > 0 ? lo : hi) = pp;
    }
    return {v, l};
}

// Coexistence against Maxwell's equal-area construction of each model's own equation of
// state (issue 23: within 2%), D2Q9 FP64 flat interfaces, each with the forcing the case
// file gives it by default:
//  - the inverse-exponential pseudopotential psi = exp(-rho0 / rho) with Guo's forcing,
//    whose mechanical equilibrium is Maxwell's (physics/shan_chen.hpp): measured G = -10
//    vapour +0.31%, liquid +0.07%; G = -9 +0.02%, +0.01%;
//  - the exponential one (the default), G = -5 with the exact difference method: vapour
//    +1.7%, liquid +0.13%: near Maxwell's but not by construction (with Guo's forcing the
//    vapour is 22% low, docs/validation.md), so its 2% is the issue's bar, not a margin.
TEST(ShanChen, CoexistenceIsMaxwells) {
    const int ny = 64;
    struct Case {
        physics::Pseudopotential psi;
        double g;
        physics::ForcingKind forcing;
        const char* name;
    };
    for (const Case& c : {Case{physics::Pseudopotential::InverseExponential, -10.0, physics::ForcingKind::Guo, "inverse-exponential"},
                          Case{physics::Pseudopotential::InverseExponential, -9.0, physics::ForcingKind::Guo, "inverse-exponential"},
                          Case{physics::Pseudopotential::Exponential, -5.0, physics::ForcingKind::Edm, "exponential, EDM"}}) {
        auto s = test::periodic_box(lattice::Kind::D2Q9, 2, ny, 1, 1.0, storage::Precision::FP64);
        s.scalar = lattice::CoupledKind::ShanChen;
        s.shan_chen.psi = c.psi;
        s.shan_chen.g = c.g;
        s.forcing = c.forcing;
        const auto [maxwell_v, maxwell_l] = maxwell_coexistence(s.shan_chen);
        std::vector<double> rho0(std::size_t(2 * ny));
        for (int y = 0; y < ny; ++y) {
            const double d = std::abs(y + 0.5 - ny / 2.0) - ny / 4.0;  // a smooth slab, liquid at the centre
            rho0[std::size_t(2 * y)] = rho0[std::size_t(2 * y + 1)] =
                maxwell_v + (maxwell_l - maxwell_v) * (1 - std::tanh(d / 2)) / 2;
        }
        const auto rho = settle(s, rho0, 20000);
        const double l = rho[std::size_t(2 * (ny / 2))], v = rho[0];
        std::printf("  %s, G = %.0f: liquid %.6f (Maxwell %.6f, %+.2f%%), vapour %.6f (Maxwell %.6f, %+.2f%%)\n", c.name,
                    c.g, l, maxwell_l, 100 * (l / maxwell_l - 1), v, maxwell_v, 100 * (v / maxwell_v - 1));
        EXPECT_NEAR(l / maxwell_l, 1.0, 0.02);
        EXPECT_NEAR(v / maxwell_v, 1.0, 0.02);
    }
}

// A flat interface is one-dimensional, and D2Q9 and D3Q19 both reduce to the same
// D1Q3 along its normal (weights 2/3, 1/6, 1/6; the force's stencil likewise), so a
// slab settles to the same liquid and vapour on both: D3Q19 in FP32 against D2Q9 in
// FP64. Measured: 4e-7 (liquid), 3e-6 (vapour) relative; 1e-5 allowed (FP32's rounding over the run). The
// interface itself drifts in FP32 (1e-6 cells a step: round-off in the momentum the
// forces add), so profiles are not compared node by node.
TEST(ShanChen, FlatInterfaceIsTheSameOnD2Q9AndD3Q19) {
    const int ny = 48;
    auto bulk = [&](lattice::Kind lat, storage::Precision p) {
        auto s = test::periodic_box(lat, 2, ny, lat == lattice::Kind::D2Q9 ? 1 : 2, 1.0, p);
        s.scalar = lattice::CoupledKind::ShanChen;
        s.shan_chen.g = g_coupling;
        const auto cells = std::size_t(s.grid.cells());
        std::vector<double> rho0(cells);
        for (std::size_t c = 0; c < cells; ++c) {
            const int y = int(c / 2) % ny;
            rho0[c] = std::abs(y + 0.5 - ny / 2.0) < ny / 4.0 ? 1.9 : 0.16;
        }
        const auto rho = settle(s, rho0, 6000);
        return std::pair{rho[std::size_t(2 * (ny / 2))], rho[0]};
    };
    const auto [l64, v64] = bulk(lattice::Kind::D2Q9, storage::Precision::FP64);
    const auto [l32, v32] = bulk(lattice::Kind::D3Q19, storage::Precision::FP32);
    std::printf("  liquid %.7f / %.7f, vapour %.7f / %.7f (D2Q9 FP64 / D3Q19 FP32)\n", l64, l32, v64, v32);
    EXPECT_GT(l64 / v64, 10.0) << "no phase separation";
    EXPECT_NEAR(l32 / l64, 1.0, 1e-5);
    EXPECT_NEAR(v32 / v64, 1.0, 1e-5);
}

/// A sessile liquid drop (G = -5, exponential psi, the exact difference method) on the
/// bottom of a D2Q9 box 80 x 40 (x periodic, a free-slip top) whose walls present the
/// mirror image's psi raised by the adhesion `w` found: from a half disc of radius 16 of
/// liquid in vapour it relaxes to the cap of its contact angle, fitted as for the
/// two-component model (sim::cap_angle on rho less the phases' mean). The bottom is the
/// box's wall face, or a slab of obstacle nodes (rows 0-2).
double sessile_drop_angle(const sim::Wetting& w, bool on_obstacle) {
    const int nx = 80, ny = 40, slab = on_obstacle ? 3 : 0;
    auto s = liquid_vapour_box(nx, ny, physics::ForcingKind::Edm);
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::FreeSlip);
    s.adhesion = w.adhesion;
    const double wall = slab - 0.5, middle = (w.phase_a[0] + w.phase_b[0]) / 2;
    s.node_kind.assign(std::size_t(nx * ny), boundary::Fluid);
    std::vector<double> rho0(std::size_t(nx * ny));
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const std::size_t c = std::size_t(y * nx + x);
            if (y < slab) s.node_kind[c] = boundary::Solid;
            rho0[c] = std::hypot(x + 0.5 - nx / 2.0, y - wall) < 16 ? w.phase_a[0] : w.phase_b[0];
        }
    double drift = 0;
    const auto rho = settle(s, rho0, 5000, &drift);
    EXPECT_LT(drift, 1e-12);  // walls and obstacles bounce back: the mass is kept
    std::vector<double> phi(rho.size());
    for (std::size_t c = 0; c < phi.size(); ++c) phi[c] = rho[c] - middle;
    return sim::cap_angle(phi, nx, ny, slab + 3, wall);
}

// Issue 23 ("wetting by a solid pseudopotential, contact angle as a case key"): a sessile
// drop's angle against the set value within 3 degrees for three angles, on a wall and on
// an obstacle's face, the adhesion from sim::wetting_adhesion (a calibration drop of
// R = 12 in 60 x 30 of the same model); these drops are larger and start from a half
// disc. Measured: see the printout (at adhesion 0, a symmetry plane for the interaction but
// not for the bounced populations, the drops take 88.9 degrees: 90 is calibrated too).
TEST(ShanChen, SessileDropTakesTheContactAngle) {
    const auto base = liquid_vapour_box(80, 40, physics::ForcingKind::Edm);
    for (double degrees : {60.0, 90.0, 120.0}) {
        const auto w = sim::wetting_adhesion(base, degrees * pi / 180, 1.9, 0.16);
        if (degrees != 90.0) EXPECT_GT(w.adhesion * std::cos(degrees * pi / 180), 0.0) << "the liquid wets (adhesion > 0) below 90";
        const double wall = sessile_drop_angle(w, false);
        std::printf("  contact angle %5.1f: adhesion %+.5f (liquid %.4f, vapour %.4f; %d calibration drops, %lld "
                    "steps, the last at %.2f); on the wall %.2f (%+.2f)\n",
                    degrees, w.adhesion, w.phase_a[0], w.phase_b[0], w.drops, static_cast<long long>(w.steps),
                    w.angle, wall, wall - degrees);
        EXPECT_NEAR(wall, degrees, 3.0);
        if (degrees == 60.0) {
            const double obstacle = sessile_drop_angle(w, true);
            std::printf("  on an obstacle's face: %.2f (%+.2f)\n", obstacle, obstacle - degrees);
            EXPECT_NEAR(obstacle, degrees, 3.0);
        }
    }
}

// The psi field is recomputed from the populations at the start of every step, so the
// populations are the whole state: a restored run continues bit for bit (a drop beside
// a wetting wall, in place of the periodic box: walls, the wall density's psi and the
// general boundary path all take part).
TEST(ShanChen, RestoredStateContinuesBitForBit) {
    auto s = liquid_vapour_box(24, 20, physics::ForcingKind::Edm);
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::Wall);
    s.wall_density = 1.2;
    std::vector<double> rho0(std::size_t(24 * 20));
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 24; ++x) rho0[std::size_t(y * 24 + x)] = std::hypot(x - 11.5, y) < 7 ? 1.93 : 0.16;
    auto a = backend::make_cpu_engine(s);
    a->initialize(rho0, std::vector<double>(3 * rho0.size(), 0.0));
    a->step(100);
    const backend::EngineState saved = a->save_state();
    a->step(50);
    auto b = backend::make_cpu_engine(s);
    b->restore_state(saved);
    b->step(50);
    std::vector<double> fa, fb;
    a->populations(fa);
    b->populations(fb);
    ASSERT_EQ(fa.size(), fb.size());
    for (std::size_t i = 0; i < fa.size(); ++i) ASSERT_EQ(fa[i], fb[i]) << i;
    EXPECT_LT(a->observe(1e-6, 10, false).bad_cell, 0);
}

// A free-slip face is a symmetry plane: a slab between two free-slip faces (its
// interfaces parallel to them) must settle as one half of the periodic box of twice
// the height holding the slab and its mirror image (the gather reflects the
// populations, exact for a state uniform along the face; the force reads the mirror
// image's psi). Wall wetting must not act on such a face. Measured: equal to 5e-14;
// 1e-12 allowed (the two paths' rounding over 3000 steps).
TEST(ShanChen, FreeSlipFacesAreSymmetryPlanes) {
    const int ny = 24;
    auto run = [&](bool free_slip) {
        const int n = free_slip ? ny : 2 * ny;
        auto s = liquid_vapour_box(2, n, physics::ForcingKind::Edm);
        s.wall_density = 1.5;  // walls would wet; a symmetry plane must not
        if (free_slip) test::set_faces(s, 1, boundary::FaceType::FreeSlip, boundary::FaceType::FreeSlip);
        std::vector<double> rho0(std::size_t(2 * n));
        for (int y = 0; y < n; ++y) {
            const int h = y % ny;  // the periodic box's second half is the first's image
            rho0[std::size_t(2 * y)] = rho0[std::size_t(2 * y + 1)] = std::abs(h + 0.5 - ny / 2.0) < ny / 4.0 ? 1.9 : 0.16;
        }
        return settle(s, rho0, 3000);
    };
    const auto a = run(false), b = run(true);
    double worst = 0;
    for (std::size_t c = 0; c < b.size(); ++c) worst = std::max(worst, std::abs(a[c] - b[c]) / a[c]);
    std::printf("  free slip against the mirrored periodic box: max relative difference %.1e (liquid %.4f)\n", worst,
                b[std::size_t(ny)]);
    EXPECT_LT(worst, 1e-12);
}

// A case from text: [multiphase], initial.density_noise and its seed. The noise is the
// same field on every run (a hash of the node's position and the seed), within
// rho (1 +- a); from rho = 0.7 inside the spinodal region (G = -5) it grows into
// liquid and vapour domains (spinodal decomposition), the mass staying what it was.
TEST(ShanChen, SpinodalDecompositionFromTheCasesNoise) {
    const char* text = R"(
[model]
lattice = "D2Q9"
precision = "fp64"
tau = 1.0
[domain]
size = [64, 64, 1]
periodic = [true, true, true]
[multiphase]
model = "shan-chen"
[initial]
density = 0.7
density_noise = 0.01
seed = 7
[output]
formats = []
)";
    sim::Simulation a(io::parse_case_string(text), sim::BackendChoice::Cpu);
    sim::Simulation b(io::parse_case_string(text), sim::BackendChoice::Cpu);
    std::vector<double> ra, ua, rb, ub;
    a.engine().fields(ra, ua);
    b.engine().fields(rb, ub);
    ASSERT_EQ(ra, rb);  // the same draw on every run
    double lo = 1e9, hi = 0, mass0 = 0;
    for (double r : ra) lo = std::min(lo, r), hi = std::max(hi, r), mass0 += r;
    EXPECT_GE(lo, 0.7 * 0.99);
    EXPECT_LE(hi, 0.7 * 1.01);
    // The fields are what the first step gathers, each population from a neighbour: the
    // draws come averaged over each node's nine sources (measured span 0.78 of 2a).
    EXPECT_GT(hi - lo, 0.7 * 0.01);
    a.advance(3000);
    a.engine().fields(ra, ua);
    lo = 1e9, hi = 0;
    double mass = 0;
    for (double r : ra) lo = std::min(lo, r), hi = std::max(hi, r), mass += r;
    std::printf("  after 3000 steps: density in [%.4f, %.4f], mass drift %.1e\n", lo, hi, mass / mass0 - 1);
    EXPECT_GT(hi, 1.5);  // liquid domains (1.93 when settled)
    EXPECT_LT(lo, 0.3);  // vapour (0.156)
    EXPECT_NEAR(mass / mass0, 1.0, 1e-12);
}

}  // namespace
}  // namespace barracuda
