// The two-component Shan-Chen model (physics/shan_chen.hpp, kernel/binary.hpp; seed
// 003 §2.2.1): components A and B on D2Q9 FP64, psi = rho (the linear pseudopotential,
// Martys & Chen 1996), G = 1.5 (seed 003 §5.3), forces by the exact difference method.
//
// - Binary Poiseuille flow (seed 003 §5.3, eq. 21): a layer of B (nu_1 = 1/24) in the
//   core of a channel between half-way bounce-back walls, A (nu_0 = 1/6) beside the
//   walls, driven by a body force. The components do not separate completely: each
//   phase holds some of the other (measured below), so each phase's viscosity is the
//   mixture's, rho nu = rho_A nu_A + rho_B nu_B (the seed's effective viscosity, ratio
//   3.7985 instead of 4 in its run). The steady profile is then the solution of
//   d/dy (mu du/dy) = -F with that mu(y) across the channel, integrated from the
//   measured densities; the model's velocity must match it, and the bulk phases'
//   effective viscosity ratio is reported beside the seed's.
// - Laplace's law: static drops of B in A; the pressure jump, from the model's equation
//   of state p = cs2 (rho_A + rho_B) + G cs2 psi_A psi_B at the drop's centre and far
//   from it, is linear in 1/R, and the surface tension from the fit agrees with the flat
//   interface's pressure-tensor integral, as for one component (tests/test_shan_chen.cpp).
// - Each component's mass is conserved; a restored state continues bit for bit.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "backend/engine.hpp"
#include "common/error.hpp"
#include "io/case_file.hpp"
#include "sim/monitors.hpp"
#include "sim/simulation.hpp"
#include "sim/wetting.hpp"
#include "lattice/lattice.hpp"
#include "support.hpp"

namespace barracuda {
namespace {

// The stability watch's lower bound of a two-component case (io/case_file.cpp's default):
// each component's density is held to it, and the minor one dips below zero beside
// interfaces at seed 003's G = 1.5.
constexpr double watch_min = -0.05;

constexpr double pi = 3.14159265358979323846;
constexpr double g_coupling = 1.5;

backend::EngineSetup binary_box(int nx, int ny, double nu_a, double nu_b) {
    auto s = test::periodic_box(lattice::Kind::D2Q9, nx, ny, 1, 3 * nu_a + 0.5, storage::Precision::FP64);
    s.scalar = lattice::CoupledKind::ShanChenBinary;
    s.shan_chen.psi = physics::Pseudopotential::Linear;
    s.shan_chen.g = g_coupling;
    s.tau_b = 3 * nu_b + 0.5;
    s.forcing = physics::ForcingKind::Edm;
    return s;
}

double pressure(double a, double b) { return (a + b) / 3 + g_coupling * a * b / 3; }

struct Settled {
    std::vector<double> a, b, u;  // rho_A, rho_B, velocity (three a cell)
    double drift_a = 0, drift_b = 0;
};

/// Runs the engine from the given densities at rest; returns the final fields and each
/// component's relative mass change.
Settled settle(const backend::EngineSetup& s, const std::vector<double>& a0, const std::vector<double>& b0,
               std::int64_t steps) {
    auto e = backend::make_cpu_engine(s);
    const std::vector<double> rest(3 * a0.size(), 0.0);
    e->initialize(a0, rest);
    e->initialize_scalar(b0, rest);
    const auto o0 = e->observe(watch_min, 10, false);
    e->step(steps);
    const auto o = e->observe(watch_min, 10, false);
    EXPECT_LT(o.bad_cell, 0) << "diverged";
    Settled r;
    r.drift_a = std::abs(o.mass - o0.mass) / o0.mass;
    r.drift_b = std::abs(o.theta_sum - o0.theta_sum) / o0.theta_sum;
    e->fields(r.a, r.u);
    e->scalar_field(r.b);
    return r;
}

// Issue 23: the mass of each component conserved to round-off over 10^5 steps. A drop of
// B on a wall beside an obstacle, a free-slip top, a body force along the periodic x:
// every link kind of the model moves both components. Measured: see the printout.
TEST(BinaryShanChen, EachComponentsMassIsKeptOver1e5Steps) {
    const int nx = 24, ny = 16;
    auto s = binary_box(nx, ny, 1.0 / 6, 1.0 / 12);
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::FreeSlip);
    s.force[0] = 1e-6;
    s.node_kind.assign(std::size_t(nx * ny), boundary::Fluid);
    const auto cells = std::size_t(nx * ny);
    std::vector<double> a0(cells), b0(cells);
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const std::size_t c = std::size_t(y * nx + x);
            if (x >= 18 && x < 21 && y < 5) s.node_kind[c] = boundary::Solid;
            const bool drop = std::hypot(x - 8.0, y + 0.5) < 6;
            a0[c] = drop ? 0.05 : 1.0;
            b0[c] = drop ? 1.0 : 0.05;
        }
    const Settled r = settle(s, a0, b0, 100000);
    std::printf("  after 1e5 steps: mass of A %.1e, of B %.1e (relative)\n", r.drift_a, r.drift_b);
    // Round-off: measured 4.1e-13 and 6.4e-12. A rounding biased by one unit of 1e-16 a cell
    // and step adds up to 1e5 x 384 x 1e-16 = 3.8e-9, 5e-11 of B's mass (76); a leak at a
    // link would be of the populations' size a step (1e-3 and more).
    EXPECT_LT(r.drift_a, 1e-10);
    EXPECT_LT(r.drift_b, 1e-10);
}

TEST(BinaryShanChen, PoiseuilleFlowOfTwoLayersMatchesTheMixturesViscosity) {
    // 4 x 64 (x periodic: the flow is uniform along it), walls at y = -1/2 and 63.5: the
    // half-width L = 32 (the seed's 64 x 256 at a quarter of the width, for CI time).
    const int nx = 4, ny = 64;
    const double nu_a = 1.0 / 6, nu_b = 1.0 / 24, force = 1e-6;
    auto s = binary_box(nx, ny, nu_a, nu_b);
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::Wall);
    s.force[0] = force;
    const auto cells = std::size_t(nx * ny);
    std::vector<double> a0(cells), b0(cells);
    for (std::size_t c = 0; c < cells; ++c) {
        const bool core = std::abs(double(c / nx) + 0.5 - ny / 2.0) <= ny / 4.0;
        a0[c] = core ? 1e-3 : 1.0;
        b0[c] = core ? 1.0 : 1e-3;
    }
    // The slowest viscous mode decays as exp(-nu (pi / 2L)^2 t) in the walls' layers: after
    // 60000 steps (nu_0 t / L^2 = 9.8) what is left of it is below 1e-9 of the profile.
    const Settled r = settle(s, a0, b0, 60000);
    // Streaming and collision conserve each component's mass; round-off only (measured 5e-12
    // after 60000 steps of 256 cells in double).
    EXPECT_LT(r.drift_a, 1e-10);
    EXPECT_LT(r.drift_b, 1e-10);
    // Each phase's dynamic viscosity is the mixture's, mu = rho nu = rho_A nu_A + rho_B nu_B
    // (seed 003 §5.3): away from the interface the wall phase's profile is F (L^2 - y^2) /
    // (2 mu_0) from the walls, the core's a parabola of curvature -F / mu_1 about the
    // centre (whatever the interface adds to the jump between them).
    std::vector<double> mu(ny), phi(ny), u(ny);
    for (int y = 0; y < ny; ++y) {
        const auto c = std::size_t(y * nx);
        mu[std::size_t(y)] = r.a[c] * nu_a + r.b[c] * nu_b;
        phi[std::size_t(y)] = (r.a[c] - r.b[c]) / (r.a[c] + r.b[c]);
        u[std::size_t(y)] = r.u[3 * c];
    }
    // The interface (phi = 0) below the centre, by linear interpolation.
    double y_interface = 0;
    for (int y = 0; y + 1 < ny / 2; ++y)
        if (phi[std::size_t(y)] > 0 && phi[std::size_t(y + 1)] <= 0)
            y_interface = y + phi[std::size_t(y)] / (phi[std::size_t(y)] - phi[std::size_t(y + 1)]);
    const double yc = (ny - 1) / 2.0, half = ny / 2.0;
    const double mu0 = mu[0], mu1 = mu[std::size_t(ny / 2)];
    double worst_wall_phase = 0, worst_core = 0;
    for (int y = 0; y < ny / 2; ++y) {
        if (std::abs(y - y_interface) < 5) continue;  // the interface: about 4 nodes wide
        const double d = yc - y;
        if (y < y_interface) {
            worst_wall_phase = std::max(worst_wall_phase, std::abs(u[std::size_t(y)] * 2 * mu0 / (force * (half * half - d * d)) - 1));
        } else if (d > 1) {
            const double rise = u[std::size_t(ny / 2)] - u[std::size_t(y)];  // centre node at d = 1/2
            worst_core = std::max(worst_core, std::abs(rise * 2 * mu1 / (force * (d * d - 0.25)) - 1));
        }
    }
    // The two-layer profile (seed 003 eq. 21) with each phase's mixture viscosity and the
    // interface where phi = 0: walls at distance L from the centre, the interface at h,
    //   u = F (L^2 - y^2) / (2 mu_0)                                 for h < |y| < L,
    //   u = F (L^2 - h^2) / (2 mu_0) + F (h^2 - y^2) / (2 mu_1)      for |y| <= h.
    const auto wall = std::size_t(0), centre = std::size_t((ny / 2) * nx);
    const double h = yc - y_interface;
    double worst = 0, peak = 0;
    for (int y = 0; y < ny; ++y) {
        const double d = std::abs(y - yc);
        const double exact = d > h ? force * (half * half - d * d) / (2 * mu0)
                                   : force * (half * half - h * h) / (2 * mu0) + force * (h * h - d * d) / (2 * mu1);
        worst = std::max(worst, std::abs(u[std::size_t(y)] - exact));
        peak = std::max(peak, exact);
        if (std::getenv("BINARY_PROFILE"))
            std::printf("  y %2d rho_A %.4f rho_B %.4f u %.6e two-layer %.6e\n", y, r.a[std::size_t(y * nx)],
                        r.b[std::size_t(y * nx)], u[std::size_t(y)], exact);
    }
    const double rho_wall = r.a[wall] + r.b[wall], rho_core = r.a[centre] + r.b[centre];
    const double ratio = (mu0 / rho_wall) / (mu1 / rho_core);
    std::printf("  wall phase rho_A %.4f rho_B %.4f, core rho_A %.4f rho_B %.4f, interface %.2f nodes from the wall "
                "(%.1f nominal); effective viscosity ratio %.4f (nominal 4; seed 003: 3.7985)\n",
                r.a[wall], r.b[wall], r.a[centre], r.b[centre], y_interface + 0.5, half / 2, ratio);
    std::printf("  against mu = rho_A nu_A + rho_B nu_B: wall phase %.1e, core %.1e (relative); two-layer profile: "
                "largest difference %.2e of u_max %.4e (%.2f%%)\n",
                worst_wall_phase, worst_core, worst, peak, 100 * worst / peak);
    EXPECT_GT(r.a[wall] / r.b[wall], 10.0) << "no separation";
    // The phases' own profiles: measured 2.8e-3 and 3.4e-6 (the wall phase's is the small
    // stationary ripple the interface leaves in it, below 1e-5 of u_max: the minor component
    // over-relaxed there, tau_B = 0.625).
    EXPECT_LT(worst_wall_phase, 5e-3);
    EXPECT_LT(worst_core, 5e-3);
    // The whole profile: the interface (4 of the 32 nodes of the half-width) transfers the
    // shear with a smaller velocity jump than a sharp interface of these viscosities would:
    // measured 5.3% of u_max, all of it from the interface's nodes (the seed's Fig. 14 shows
    // the same for Shan-Chen, whose interface it calls thicker than the free energy's).
    EXPECT_LT(worst / peak, 0.07);
}

/// psi_A, psi_B and the model's pressure tensor's transverse part at a flat interface
/// normal to y, from the densities of a column (x uniform): the pair forces of the links
/// that cross a plane normal to x, as for one component (tests/test_shan_chen.cpp), each
/// pair A-B counted from both sides. D2Q9: sum_i w_i psi(y + c_iy) c_ix^2 =
/// (2/9) psi(y) + (1/18) (psi(y + 1) + psi(y - 1)).
double transverse_pressure(const std::vector<double>& a, const std::vector<double>& b, int y) {
    const int n = int(a.size());
    const auto at = [&](const std::vector<double>& v, int k) { return v[std::size_t((k + n) % n)]; };
    const auto link_sum = [&](const std::vector<double>& v) {
        return 2.0 / 9.0 * at(v, y) + (at(v, y + 1) + at(v, y - 1)) / 18.0;
    };
    return (at(a, y) + at(b, y)) / 3 + 0.5 * g_coupling * (at(a, y) * link_sum(b) + at(b, y) * link_sum(a));
}

// Laplace's law for a drop of B in A (equal viscosities, tau = 1): the pressure jump
// dp = p(centre) - p(far) of drops of three radii against 1/R, Tolman's correction fitted
// (dp R linear in 1/R, as for one component), its intercept the surface tension; against
// the flat interface's pressure-tensor integral gamma = sum_y (p_bulk - P_T(y)) / 2 (two
// interfaces in the periodic column). Measured: +4.5% with R = 8-18 in an 80 x 80 box,
// +2.6% with R = 16-36 in 160 x 160 (106 s, not in CI): the difference shrinks as the
// drops grow, a curvature effect beyond Tolman's first-order term (one component: 0.2%
// at the same radii, tests/test_shan_chen.cpp). 6% allowed at these radii.
TEST(BinaryShanChen, LaplaceLawAgreesWithTheFlatInterfacesPressureTensor) {
    const int ny = 96;
    auto flat = binary_box(2, ny, 1.0 / 6, 1.0 / 6);
    std::vector<double> a0(2 * ny), b0(2 * ny);
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < 2; ++x) {
            const bool inside = std::abs(y + 0.5 - ny / 2.0) < ny / 4.0;
            a0[std::size_t(y * 2 + x)] = inside ? 0.05 : 1.0;
            b0[std::size_t(y * 2 + x)] = inside ? 1.0 : 0.05;
        }
    const Settled slab = settle(flat, a0, b0, 10000);
    std::vector<double> a(ny), b(ny);
    for (int y = 0; y < ny; ++y) a[std::size_t(y)] = slab.a[std::size_t(2 * y)], b[std::size_t(y)] = slab.b[std::size_t(2 * y)];
    const double p_bulk = pressure(a[0], b[0]);
    double gamma_flat = 0;
    for (int y = 0; y < ny; ++y) gamma_flat += p_bulk - transverse_pressure(a, b, y);
    gamma_flat /= 2;
    const double major = a[0], minor = b[0];
    std::printf("  flat: major %.4f minor %.4f, gamma %.5f\n", major, minor, gamma_flat);

    const int n = 80;
    std::vector<double> inv_r, dp;
    for (const double r0 : {8.0, 12.0, 18.0}) {
        auto s = binary_box(n, n, 1.0 / 6, 1.0 / 6);
        std::vector<double> ia(std::size_t(n * n)), ib(std::size_t(n * n));
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                const bool drop = std::hypot(x + 0.5 - n / 2.0, y + 0.5 - n / 2.0) < r0;
                ia[std::size_t(y * n + x)] = drop ? minor : major;
                ib[std::size_t(y * n + x)] = drop ? major : minor;
            }
        const Settled d = settle(s, ia, ib, 8000);
        EXPECT_LT(d.drift_a, 1e-10);
        EXPECT_LT(d.drift_b, 1e-10);
        const auto centre = std::size_t((n / 2) * n + n / 2);
        // R from B's excess over its far value, the drop's area.
        double excess = 0;
        for (double v : d.b) excess += v - d.b[0];
        const double r = std::sqrt(excess / (d.b[centre] - d.b[0]) / pi);
        inv_r.push_back(1 / r);
        dp.push_back(pressure(d.a[centre], d.b[centre]) - pressure(d.a[0], d.b[0]));
        std::printf("  R0 %.0f: R %.3f, dp %.6f\n", r0, r, dp.back());
    }
    const double m = double(inv_r.size());
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t k = 0; k < inv_r.size(); ++k) {
        const double y = dp[k] / inv_r[k];
        sx += inv_r[k], sy += y, sxx += inv_r[k] * inv_r[k], sxy += inv_r[k] * y;
    }
    const double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx), gamma = (sy - slope * sx) / m;
    std::printf("  Laplace fit: gamma %.5f (Tolman term %.4f), flat interface %.5f: %+.2f%%\n", gamma, slope, gamma_flat,
                100 * (gamma / gamma_flat - 1));
    EXPECT_GT(gamma_flat, 0);
    EXPECT_NEAR(gamma / gamma_flat, 1.0, 0.06);
}

// The same model on D3Q19 in fp32 (the other row of the table): a flat interface across a
// periodic column settles to the same two phases as on D2Q9 in fp64 (a field uniform along
// x and z sees the same weights summed: the two lattices' equilibria and forces projected
// on y agree). fp32 costs the minor component precision: its density is 1 + sum_i (f_i -
// w_i), a cancellation that leaves it about 1e-5 relative per evaluation at rho = 0.006,
// and the steady state drifts with it. Measured after 4000 steps: major density 2.8e-5,
// minor 0.11% apart (0.7% before the collision's rest velocity took each component's
// remainder, physics::binary_collide); 1e-3 and 2% allowed. The order
// parameter phi, what an interface's position depends on, agrees to 1e-4.
TEST(BinaryShanChen, FlatInterfaceIsTheSameOnD2Q9AndD3Q19) {
    const int ny = 48;
    auto phases = [&](lattice::Kind lat, storage::Precision p) {
        auto s = binary_box(2, ny, 1.0 / 6, 1.0 / 12);
        s.lattice = lat;
        s.precision = p;
        s.grid = {{2, ny, lat == lattice::Kind::D2Q9 ? 1 : 2}, {true, true, true}, false};
        s.node_kind.assign(std::size_t(s.grid.cells()), boundary::Fluid);
        const auto cells = std::size_t(s.grid.cells());
        std::vector<double> a0(cells), b0(cells);
        for (std::size_t c = 0; c < cells; ++c) {
            const bool inside = std::abs(double(int(c / 2) % ny) + 0.5 - ny / 2.0) < ny / 4.0;
            a0[c] = inside ? 0.05 : 1.0;
            b0[c] = inside ? 1.0 : 0.05;
        }
        const Settled r = settle(s, a0, b0, 4000);
        return std::array<double, 2>{r.a[0], r.b[0]};
    };
    const auto d2 = phases(lattice::Kind::D2Q9, storage::Precision::FP64);
    const auto d3 = phases(lattice::Kind::D3Q19, storage::Precision::FP32);
    std::printf("  wall-side phase rho_A %.7f / %.7f, rho_B %.7f / %.7f (D2Q9 FP64 / D3Q19 FP32)\n", d2[0], d3[0],
                d2[1], d3[1]);
    EXPECT_GT(d2[0] / d2[1], 10.0) << "no separation";
    EXPECT_NEAR(d3[0] / d2[0], 1.0, 1e-3);
    EXPECT_NEAR(d3[1] / d2[1], 1.0, 2e-2);
    const auto phi = [](const std::array<double, 2>& d) { return (d[0] - d[1]) / (d[0] + d[1]); };
    EXPECT_NEAR(phi(d3), phi(d2), 1e-4);
}

/// A sessile drop of A on the bottom of a D2Q9 box 80 x 40 (x periodic, a free-slip top)
/// whose walls take `adhesion`: from a half disc of radius 16 of A's phase it relaxes to
/// the cap the contact angle makes; the angle from a circle fitted to phi = (rho_A -
/// rho_B) / (rho_A + rho_B) = 0 three spacings and more above the wall (sim::cap_angle,
/// as for the free energy). The bottom is the box's wall face, or a slab of obstacle
/// nodes (rows 0-2, the image taken across the normal estimated from their links).
double sessile_drop_angle(const sim::Wetting& w, bool on_obstacle) {
    const int nx = 80, ny = 40, slab = on_obstacle ? 3 : 0;
    auto s = binary_box(nx, ny, 1.0 / 6, 1.0 / 6);
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::FreeSlip);
    s.adhesion = w.adhesion;
    const double wall = slab - 0.5;
    s.node_kind.assign(std::size_t(nx * ny), boundary::Fluid);
    std::vector<double> a0(std::size_t(nx * ny)), b0(a0.size());
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const std::size_t c = std::size_t(y * nx + x);
            if (y < slab) s.node_kind[c] = boundary::Solid;
            const bool drop = std::hypot(x + 0.5 - nx / 2.0, y - wall) < 16;
            a0[c] = drop ? w.phase_a[0] : w.phase_b[0];
            b0[c] = drop ? w.phase_a[1] : w.phase_b[1];
        }
    // 5000 steps: the angle moves by less than 0.05 degrees from 5000 to 40000 (measured
    // at adhesion 0.1: 59.74 after 10000, 20000 and 40000 steps; 59.93 and 59.92 after
    // 5000 and 8000 at the calibrated 60 degrees).
    const Settled r = settle(s, a0, b0, 5000);
    EXPECT_LT(r.drift_a, 1e-10);
    EXPECT_LT(r.drift_b, 1e-10);
    std::vector<double> phi(a0.size());
    for (std::size_t c = 0; c < phi.size(); ++c) phi[c] = (r.a[c] - r.b[c]) / (r.a[c] + r.b[c]);
    return sim::cap_angle(phi, nx, ny, slab + 3, wall);
}

// Issue 23: a sessile drop's angle against the set value within 3 degrees, for three
// angles, on a wall and on an obstacle's flat face. The adhesion of each angle comes from
// sim::wetting_adhesion (a calibration drop of R = 12 in 60 x 30, the case's model); the
// drops here are larger (R = 16 in 80 x 40) and start from a half disc. Measured: see the
// printout (2026-11-27: 59.93, 90.19, 120.30, and 59.97 on the obstacle).
// The calibration itself: the angle does not depend on the drop's size (R = 12, 16, 24: 59.78, 59.74, 59.70 degrees at
// adhesion 0.1), so a drop of another size must take the set angle.
TEST(BinaryShanChen, SessileDropTakesTheContactAngle) {
    const auto base = binary_box(80, 40, 1.0 / 6, 1.0 / 6);
    for (double degrees : {60.0, 90.0, 120.0}) {
        const auto w = sim::wetting_adhesion(base, degrees * pi / 180, 1.0, 0.05, 1.0, 0.05);
        if (degrees != 90.0) EXPECT_GT(w.adhesion * std::cos(degrees * pi / 180), 0.0) << "A wets (adhesion > 0) below 90";
        const double wall = sessile_drop_angle(w, false);
        std::printf("  contact angle %5.1f: adhesion %+.5f (%d calibration drops, %lld steps, the last at %.2f); "
                    "on the wall %.2f (%+.2f)\n",
                    degrees, w.adhesion, w.drops, static_cast<long long>(w.steps), w.angle, wall, wall - degrees);
        EXPECT_NEAR(wall, degrees, 3.0);
        if (degrees == 60.0) {
            const double obstacle = sessile_drop_angle(w, true);
            std::printf("  on an obstacle's face: %.2f (%+.2f)\n", obstacle, obstacle - degrees);
            EXPECT_NEAR(obstacle, degrees, 3.0);
        }
    }
}

// The psi fields are recomputed from both components' populations at the start of every
// step, and a checkpoint keeps both: a restored run continues bit for bit (a drop of B
// beside a wall: walls and the general boundary path take part).
TEST(BinaryShanChen, RestoredStateContinuesBitForBit) {
    auto s = binary_box(24, 20, 1.0 / 6, 1.0 / 24);
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::Wall);
    std::vector<double> a0(std::size_t(24 * 20)), b0(a0.size());
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 24; ++x) {
            const bool drop = std::hypot(x - 11.5, y) < 7;
            a0[std::size_t(y * 24 + x)] = drop ? 0.05 : 1.0;
            b0[std::size_t(y * 24 + x)] = drop ? 1.0 : 0.05;
        }
    const std::vector<double> rest(3 * a0.size(), 0.0);
    auto a = backend::make_cpu_engine(s);
    a->initialize(a0, rest);
    a->initialize_scalar(b0, rest);
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
    EXPECT_LT(a->observe(watch_min, 10, false).bad_cell, 0);
}

// An engine handed what the two-component update does not carry out refuses it (the case
// checks refuse it first, with its key: tests/cli/bad_input.sh).
TEST(BinaryShanChen, EngineRefusesWhatItDoesNotCarryOut) {
    auto open = binary_box(8, 8, 1.0 / 6, 1.0 / 6);
    test::set_faces(open, 0, boundary::FaceType::Velocity, boundary::FaceType::Pressure);
    EXPECT_THROW(backend::make_cpu_engine(open), std::invalid_argument);
    auto sponge = binary_box(8, 8, 1.0 / 6, 1.0 / 6);
    sponge.faces.has_sponge = true;
    EXPECT_THROW(backend::make_cpu_engine(sponge), std::invalid_argument);
    auto walls = binary_box(8, 8, 1.0 / 6, 1.0 / 6);
    test::set_faces(walls, 1, boundary::FaceType::Wall, boundary::FaceType::FreeSlip);
    EXPECT_NO_THROW(backend::make_cpu_engine(walls));
}

// A case from text: model = "shan-chen-binary", each component's density an expression
// (a drop of B in A) with noise. The fields the engine starts from are the expressions';
// both masses stay what they were; output writes each component, phi and the pressure.
TEST(BinaryShanChen, CaseFileSetsBothComponents) {
    const char* text = R"(
[model]
lattice = "D2Q9"
precision = "fp64"
viscosity = 0.16666666666666666
[domain]
size = [48, 48, 1]
periodic = [true, true, true]
[multiphase]
model = "shan-chen-binary"
g = 1.5
viscosity_b = 0.08333333333333333
[initial]
density = "(x - 23.5)^2 + (y - 23.5)^2 < 100 ? 0.05 : 1"
density_b = "(x - 23.5)^2 + (y - 23.5)^2 < 100 ? 1 : 0.05"
density_noise = 0.001
seed = 3
[output]
formats = []
)";
    sim::Simulation run(io::parse_case_string(text), sim::BackendChoice::Cpu);
    std::vector<double> a, u, b;
    run.engine().fields(a, u);
    run.engine().scalar_field(b);
    const auto centre = std::size_t(24 * 48 + 24), corner = std::size_t(0);
    // The fields are what the first step gathers (each population from a neighbour).
    EXPECT_NEAR(a[centre], 0.05, 1e-3);
    EXPECT_NEAR(b[centre], 1.0, 2e-3);
    EXPECT_NEAR(a[corner], 1.0, 2e-3);
    EXPECT_NEAR(b[corner], 0.05, 1e-3);
    const auto o0 = run.engine().observe(watch_min, 10, false);
    run.advance(2000);
    const auto o = run.engine().observe(watch_min, 10, false);
    EXPECT_LT(o.bad_cell, 0);
    EXPECT_NEAR(o.mass / o0.mass, 1.0, 1e-12);
    EXPECT_NEAR(o.theta_sum / o0.theta_sum, 1.0, 1e-12);
    run.engine().fields(a, u);
    run.engine().scalar_field(b);
    EXPECT_GT(b[centre] / a[centre], 10.0) << "the drop dissolved";
}

// The stability watch holds each component's density to run.density_range (the observed
// rho is A's, theta B's): a B of 0.3 inside a range of [0.5, 10] stops the run at its first
// check and the message names component B and a cell of the drop, with A's density there
// in range; the same case with the default range (-0.05: the minor component's dip at
// strong coupling) runs on, and the progress line's mean is A's and B's together.
TEST(BinaryShanChen, StabilityWatchHoldsBothComponents) {
    const std::string text = R"(
[model]
lattice = "D2Q9"
precision = "fp64"
viscosity = 0.16666666666666666
[domain]
size = [24, 24, 1]
periodic = [true, true, true]
[multiphase]
model = "shan-chen-binary"
viscosity_b = 0.08333333333333333
[initial]
density = 1.0
density_b = "(x - 11.5)^2 + (y - 11.5)^2 < 16 ? 0.3 : 0.9"
[output]
formats = []
[run]
steps = 20
check_interval = 10
)";
    auto narrow = io::parse_case_string(text + "density_range = [0.5, 10]\n");
    sim::Simulation stopped(narrow, sim::BackendChoice::Cpu);
    try {
        stopped.run(nullptr, nullptr);
        FAIL() << "B's density of 0.3 passed a range of [0.5, 10]";
    } catch (const DivergenceError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("component B's density = 0.3"), std::string::npos) << m;
        const auto a = m.find("(A's: ");
        ASSERT_NE(a, std::string::npos) << m;
        EXPECT_GT(std::atof(m.c_str() + a + 6), 0.5) << m;
        const auto at = m.find("cell (");
        ASSERT_NE(at, std::string::npos) << m;
        int x = -1, y = -1;
        std::sscanf(m.c_str() + at, "cell (%d, %d", &x, &y);
        EXPECT_LT((x - 11.5) * (x - 11.5) + (y - 11.5) * (y - 11.5), 16.0) << m;
    }
    const auto spec = io::parse_case_string(text);
    EXPECT_EQ(spec.run.density_min, -0.05);
    sim::Simulation run(spec, sim::BackendChoice::Cpu);
    double mean = 0;
    run.run(nullptr, [&](const sim::Progress& p) { mean = p.mean_density; });
    // A's 1 everywhere, B's 0.3 on the disc's nodes and 0.9 elsewhere; both masses kept.
    int disc = 0;
    for (int y = 0; y < 24; ++y)
        for (int x = 0; x < 24; ++x) disc += (x - 11.5) * (x - 11.5) + (y - 11.5) * (y - 11.5) < 16 ? 1 : 0;
    EXPECT_NEAR(mean, 1.0 + (disc * 0.3 + (576 - disc) * 0.9) / 576, 1e-12);
}

// The output instants' check holds B's density to the range over the fluid only: a solid
// node reports rho_B = 0 (as the engines' observe, which skips it, knows), and a case with
// an obstacle and a positive lower bound ran on before the check knew it too (it stopped at
// its first output, naming no cell).
TEST(BinaryShanChen, OutputCheckLeavesSolidNodesOut) {
    struct Count final : sim::OutputSink {
        int writes = 0;
        void write(std::int64_t, std::vector<double>, std::vector<double>, std::vector<double> b) override {
            ++writes;
            EXPECT_FALSE(b.empty());
        }
    };
    const auto spec = io::parse_case_string(R"(
[model]
lattice = "D2Q9"
precision = "fp64"
viscosity = 0.16666666666666666
[domain]
size = [24, 24, 1]
periodic = [true, true, true]
[multiphase]
model = "shan-chen-binary"
viscosity_b = 0.16666666666666666
[[obstacle]]
name = "block"
shape = "box"
min = [8, 8, 0]
max = [14, 14, 0]
[initial]
density = 1.0
density_b = 0.9
[output]
interval = 10
formats = []
[run]
steps = 20
check_interval = 10
density_range = [0.5, 10]
)");
    sim::Simulation run(spec, sim::BackendChoice::Cpu);
    Count sink;
    EXPECT_NO_THROW(run.run(&sink, {}));
    EXPECT_EQ(sink.writes, 3);  // steps 0, 10 and 20
}

// multiphase.csv's integrals (sim::multiphase_integrals) on fields of known answer: a
// disc and a sphere of radius R with a tanh interface of width w = 2. The interface
// measure (1/2) sum |grad phi| weighs each shell by phi' / 2, a kernel of mean R and
// variance pi^2 w^2 / 12: the circle's 2 pi R exactly, the sphere's 4 pi (R^2 + pi^2 w^2
// / 12) (1.3% above 4 pi R^2 at R = 16). Measured against those: -0.02% and -0.07%; 1%
// allowed (central differences). Masses and the kinetic energy are sums of the fields.
TEST(BinaryShanChen, IntegralsMeasureTheInterface) {
    const double radius = 20;
    for (const int dims : {2, 3}) {
        sim::CaseSpec spec;
        const int n = dims == 2 ? 96 : 64, nz = dims == 2 ? 1 : n;
        const double r0 = dims == 2 ? radius : 16;
        spec.size = {n, n, nz};
        spec.periodic = {true, true, true};
        const auto cells = std::size_t(n) * std::size_t(n) * std::size_t(nz);
        std::vector<double> a(cells), b(cells), u(3 * cells, 0.0);
        for (std::size_t c = 0; c < cells; ++c) {
            const double x = double(c % std::size_t(n)) + 0.5 - n / 2.0, y = double(c / std::size_t(n) % std::size_t(n)) + 0.5 - n / 2.0;
            const double z = dims == 2 ? 0.0 : double(c / (std::size_t(n) * std::size_t(n))) + 0.5 - nz / 2.0;
            const double phi = std::tanh((r0 - std::sqrt(x * x + y * y + z * z)) / 2);
            a[c] = 0.5 * (1 + phi), b[c] = 0.5 * (1 - phi);
            u[3 * c] = 0.01;
        }
        const auto m = sim::multiphase_integrals(spec, {}, a, u, b);
        const double exact = dims == 2 ? 2 * pi * r0 : 4 * pi * (r0 * r0 + pi * pi * 4 / 12);
        std::printf("  %dD: interface %.3f against %.3f (%+.2f%%)\n", dims, m.interface, exact,
                    100 * (m.interface / exact - 1));
        EXPECT_NEAR(m.interface / exact, 1.0, 0.01);
        double mass_a = 0;
        for (double v : a) mass_a += v;
        EXPECT_NEAR(m.mass_a, mass_a, 1e-9 * mass_a);
        EXPECT_NEAR(m.mass_a + m.mass_b, double(cells), 1e-9 * double(cells));
        EXPECT_NEAR(m.kinetic_energy, 0.5 * 1e-4 * double(cells), 1e-9 * double(cells));
        EXPECT_NEAR(m.max_speed, 0.01, 1e-15);
        // One component: the density scaled between the box's extremes gives the same phi.
        std::vector<double> rho(cells);
        for (std::size_t c = 0; c < cells; ++c) rho[c] = 0.16 + 1.77 * a[c];
        const auto one = sim::multiphase_integrals(spec, {}, rho, u, {});
        EXPECT_NEAR(one.interface / m.interface, 1.0, 0.01);
    }
}

}  // namespace
}  // namespace barracuda
