// D3Q13 MRT on one sub-lattice (seed 000 §4-5; d'Humières, Bouzidi & Lallemand
// 2001, Phys. Rev. E 63, 066702):
//  - the sub-lattice: index <-> coordinates, only x + y + z even stored;
//  - the MRT collision conserves mass, adds the force (Guo in moment space) and equals the
//    dense moment-space product;
//  - the moment basis is orthogonal and the equilibrium has the moments of seed 000
//    eq. 6 (exact algebra: rounding only);
//  - shear waves along several directions decay with nu = (tau - 1/2)/3: both stress
//    rates of eq. 7 are exercised (an axis-aligned wave shears pxy-type moments, a
//    diagonal wave the pxx-type ones), so a wrong rate shows as anisotropy;
//  - a force-driven channel between bounce-back walls (the Poiseuille parabola), a
//    Couette flow (the moving-wall term rho0 c.U / 4 of eq. 9), and a Zou-He inlet /
//    pressure outlet channel;
//  - the pressure of eq. 8 (reported as the density 3 p);
//  - output on the whole box (sim::expand_sublattice).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "backend/engine.hpp"
#include "physics/collision_mrt.hpp"
#include "physics/equilibrium.hpp"
#include "sim/sublattice_output.hpp"
#include "support.hpp"

namespace barracuda {
namespace {

using boundary::FaceType;
using L = lattice::D3Q13;
constexpr double kPi = 3.14159265358979323846;

backend::EngineSetup d3q13_box(int nx, int ny, int nz, double tau,
                               physics::EquilibriumKind eq = physics::EquilibriumKind::Incompressible) {
    auto s = test::periodic_box(lattice::Kind::D3Q13, nx, ny, nz, tau, storage::Precision::FP64,
                                physics::CollisionKind::MRT);  // sub-lattice, s_e = s_h = 1 (seed 000 §4)
    s.equilibrium = eq;
    return s;
}

TEST(D3Q13Grid, StoresHalfTheNodesAndMapsThemBack) {
    storage::Grid g{{6, 4, 5}, {true, false, false}, true};
    EXPECT_EQ(g.cells(), 6 * 4 * 5 / 2);
    std::vector<int> seen(std::size_t(g.cells()), 0);
    for (int z = 0; z < 5; ++z)
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 6; ++x) {
                if (!g.holds(x, y, z)) continue;
                const auto c = g.index(x, y, z);
                ASSERT_GE(c, 0);
                ASSERT_LT(c, g.cells());
                ++seen[std::size_t(c)];
                int p[3];
                g.coordinates(c, p);
                EXPECT_EQ(p[0], x);
                EXPECT_EQ(p[1], y);
                EXPECT_EQ(p[2], z);
            }
    for (int k : seen) EXPECT_EQ(k, 1);
}

TEST(D3Q13Moments, BasisIsOrthogonalAndEquilibriumHasTheSeedMoments) {
    using B = physics::MrtBasis<L>;
    for (int k = 0; k < 13; ++k)
        for (int l = 0; l < 13; ++l) {
            double dot = 0;
            for (int i = 0; i < 13; ++i) dot += B::row(k, L::c(i, 0), L::c(i, 1), L::c(i, 2)) * B::row(l, L::c(i, 0), L::c(i, 1), L::c(i, 2));
            if (k != l) EXPECT_EQ(dot, 0.0) << k << " " << l;
            else EXPECT_GT(dot, 0.0);
        }
    // Seed 000 eq. 4 and 6 with c = 1: e^eq = -11/2 rho + 13/2 rho_u u^2, 3pxx^eq = rho_u (2ux^2 - uy^2 - uz^2),
    // pww^eq = rho_u (uy^2 - uz^2), pxy^eq = rho_u ux uy, ..., h^eq = 0.
    const double drho = 0.013, u[3] = {0.031, -0.017, 0.022};
    for (bool compressible : {false, true}) {
        const double rho = 1 + drho, ru = compressible ? rho : 1.0;
        double m[13] = {};
        for (int i = 0; i < 13; ++i) {
            const double f = L::w(i) + (compressible ? physics::equilibrium_shifted<L, physics::Compressible>(i, drho, u)
                                                     : physics::equilibrium_shifted<L, physics::Incompressible>(i, drho, u));
            for (int k = 0; k < 13; ++k) m[k] += B::row(k, L::c(i, 0), L::c(i, 1), L::c(i, 2)) * f;
        }
        const double uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
        const double want[13] = {rho,
                                 -5.5 * rho + 6.5 * ru * uu,
                                 ru * u[0],
                                 ru * u[1],
                                 ru * u[2],
                                 ru * (2 * u[0] * u[0] - u[1] * u[1] - u[2] * u[2]),
                                 ru * (u[1] * u[1] - u[2] * u[2]),
                                 ru * u[0] * u[1],
                                 ru * u[1] * u[2],
                                 ru * u[0] * u[2],
                                 0,
                                 0,
                                 0};
        // Sums of 13 terms of size <= 6: a few ulps of 6 (8.9e-16 each) of rounding.
        for (int k = 0; k < 13; ++k) EXPECT_NEAR(m[k], want[k], 1e-14) << "moment " << k << " compressible " << compressible;
    }
}

TEST(D3Q13Moments, PressureOfEquation8) {
    // 3 p from seed 000 eq. 8 is rho at equilibrium (both equilibria), and moves with the
    // energy moment's non-equilibrium part: adding d * Q_e (the e row) to f changes e by
    // d |Q_e|^2 = 156 d and 3 p by -2/11 of that. Rounding only.
    using B = physics::MrtBasis<L>;
    const double drho = 0.02, u[3] = {0.03, -0.01, 0.02};
    for (bool compressible : {false, true}) {
        double f[13];
        const double rho_u = compressible ? 1 + drho : 1.0;
        for (int i = 0; i < 13; ++i)
            f[i] = compressible ? physics::equilibrium_shifted<L, physics::Compressible>(i, drho, u)
                                : physics::equilibrium_shifted<L, physics::Incompressible>(i, drho, u);
        EXPECT_NEAR(physics::d3q13_pressure_density(f, u, rho_u), 1 + drho, 1e-15);
        const double d = 1e-4;
        for (int i = 0; i < 13; ++i) f[i] += d * B::row(1, L::c(i, 0), L::c(i, 1), L::c(i, 2));
        EXPECT_NEAR(physics::d3q13_pressure_density(f, u, rho_u), 1 + drho - 2.0 / 11 * 156 * d, 1e-14);
    }
}

/// One D3Q13 MRT collision written out densely, f* = f + M^T diag(1/|M_k|^2) [-S (M f - m^eq) +
/// (I - S/2) M F~], with F~_i the change of f^eq along the force, (f^eq(u + F/rho_u) -
/// f^eq(u - F/rho_u)) / 2 (exact: f^eq is quadratic in u). The engine's Mrt uses compile-time
/// tables of these moments instead (physics/collision_mrt.hpp, add_d3q13_rows).
template <class Eq>
void dense_d3q13(const physics::MrtRateSet& r, double tau, double (&f)[13], const double (&force)[3]) {
    using B = physics::MrtBasis<L>;
    const auto st = physics::cell_state<L, Eq>(f, force);
    const double rho_u = Eq::velocity_weight(1 + st.drho);
    double up[3], um[3];
    for (int a = 0; a < 3; ++a) up[a] = st.u[a] + force[a] / rho_u, um[a] = st.u[a] - force[a] / rho_u;
    double df[13] = {};
    for (int k = 0; k < 13; ++k) {
        double rate = 1;
        switch (B::rate_class(k)) {
            case physics::RateClass::ShearDiagonal: rate = B::diagonal_rate(tau); break;
            case physics::RateClass::ShearOffDiagonal: rate = B::off_diagonal_rate(tau); break;
            case physics::RateClass::Energy: rate = r.energy; break;
            case physics::RateClass::M: rate = r.m; break;
            default: break;  // conserved
        }
        double row[13], n2 = 0, m = 0, meq = 0, src = 0;
        for (int i = 0; i < 13; ++i) {
            row[i] = B::row(k, L::c(i, 0), L::c(i, 1), L::c(i, 2));
            n2 += row[i] * row[i];
            m += row[i] * f[i];
            meq += row[i] * physics::equilibrium_shifted<L, Eq>(i, st.drho, st.u);
            src += row[i] * 0.5 * (physics::d3q13_equilibrium_shifted(i, st.drho, up, rho_u) -
                                   physics::d3q13_equilibrium_shifted(i, st.drho, um, rho_u));
        }
        const double coef = (-rate * (m - meq) + (1 - 0.5 * rate) * src) / n2;
        for (int i = 0; i < 13; ++i) df[i] += row[i] * coef;
    }
    for (int i = 0; i < 13; ++i) f[i] += df[i];
}

template <class Eq>
void check_collision() {
    SCOPED_TRACE(Eq::name);
    const double tau = 0.7;
    const physics::MrtRateSet r{1 / tau, 1.3, 1, 1, 1, 1.7};  // s_e = 1.3, s_h = 1.7: every class differs
    const auto mrt = physics::Mrt<L, Eq, double>::from_rates(r);
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> noise(-1e-3, 1e-3);
    for (int trial = 0; trial < 50; ++trial) {
        const double drho = 0.02 * noise(rng) / 1e-3, u[3] = {30 * noise(rng), 30 * noise(rng), 30 * noise(rng)};
        const double force[3] = {noise(rng) * 1e-2, noise(rng) * 1e-2, noise(rng) * 1e-2};
        double fa[13], fb[13];
        for (int i = 0; i < 13; ++i) fa[i] = fb[i] = physics::equilibrium_shifted<L, Eq>(i, drho, u) + noise(rng);
        double mass0 = 0, j0[3] = {0, 0, 0};
        for (int i = 0; i < 13; ++i) {
            mass0 += fa[i];
            for (int a = 0; a < 3; ++a) j0[a] += L::c(i, a) * fa[i];
        }
        mrt(fa, physics::cell_state<L, Eq>(fa, force), force, true);
        dense_d3q13<Eq>(r, tau, fb, force);
        double mass = 0, j[3] = {0, 0, 0};
        for (int i = 0; i < 13; ++i) {
            EXPECT_NEAR(fa[i], fb[i], 1e-15) << "trial " << trial << " i " << i;
            mass += fa[i];
            for (int a = 0; a < 3; ++a) j[a] += L::c(i, a) * fa[i];
        }
        EXPECT_NEAR(mass, mass0, 1e-16);
        for (int a = 0; a < 3; ++a) EXPECT_NEAR(j[a] - j0[a], force[a], 1e-16) << "axis " << a;
    }
}

TEST(D3Q13Collision, ConservesMassAddsTheForceAndEqualsTheDenseProduct) {
    // Exact algebra on both sides: differences are rounding (populations ~1e-3 here, so
    // 1e-15 is ~1e3 ulps of them; a wrong table entry or rate shows at >= 1e-7).
    check_collision<physics::Incompressible>();
    check_collision<physics::Compressible>();
}

/// Amplitude of the wave u = U dir sin(k . x) over the stored nodes.
double amplitude(backend::Engine& e, const storage::Grid& g, const double (&k)[3], const double (&dir)[3]) {
    std::vector<double> rho, u;
    e.fields(rho, u);
    double a = 0;
    for (std::int64_t c = 0; c < g.cells(); ++c) {
        int p[3];
        g.coordinates(c, p);
        const double phase = k[0] * p[0] + k[1] * p[1] + k[2] * p[2];
        a += (u[3 * c] * dir[0] + u[3 * c + 1] * dir[1] + u[3 * c + 2] * dir[2]) * std::sin(phase);
    }
    return 2 * a / double(g.cells());
}

/// nu measured from the decay of a shear wave with wave numbers (mx, my, mz) * 2 pi / N and
/// unit velocity direction dir (dir . k = 0), N = 32 along the axes it varies on, 2 elsewhere.
double measured_viscosity(const int (&m)[3], const double (&dir)[3], double tau) {
    const int N = 32;
    int n[3];
    for (int a = 0; a < 3; ++a) n[a] = m[a] ? N : 2;
    auto s = d3q13_box(n[0], n[1], n[2], tau);
    const auto& g = s.grid;
    double k[3];
    for (int a = 0; a < 3; ++a) k[a] = 2 * kPi * m[a] / N;
    const double U = 1e-3;
    std::vector<double> rho(std::size_t(g.cells()), 1.0), u(3 * std::size_t(g.cells()), 0.0);
    for (std::int64_t c = 0; c < g.cells(); ++c) {
        int p[3];
        g.coordinates(c, p);
        const double v = U * std::sin(k[0] * p[0] + k[1] * p[1] + k[2] * p[2]);
        for (int a = 0; a < 3; ++a) u[std::size_t(3 * c + a)] = v * dir[a];
    }
    auto e = backend::make_cpu_engine(s);
    e->initialize(rho, u);
    const std::int64_t t1 = 200, t2 = 1000;
    e->step(t1);
    const double a1 = amplitude(*e, g, k, dir);
    e->step(t2 - t1);
    const double a2 = amplitude(*e, g, k, dir);
    const double k2 = k[0] * k[0] + k[1] * k[1] + k[2] * k[2];
    return -std::log(a2 / a1) / (k2 * double(t2 - t1));
}

TEST(D3Q13ShearWave, ViscosityIsIsotropic) {
    // Truncation error O(k^2) at N = 32: measured 0.04% (axis waves) and 0.2% (diagonal ones); the bound 1.5% is far below what a
    // wrong stress rate gives (s_v and s'_v swapped: nu off by a factor ~2 on one family).
    const double r = 1 / std::sqrt(2.0);
    struct Wave {
        int m[3];
        double dir[3];
        const char* name;
    };
    const Wave waves[] = {{{0, 1, 0}, {1, 0, 0}, "u_x(y)"},
                          {{0, 0, 1}, {0, 1, 0}, "u_y(z)"},
                          {{1, 0, 0}, {0, 0, 1}, "u_z(x)"},
                          {{1, 1, 0}, {r, -r, 0}, "diagonal in x-y"},
                          {{0, 1, 1}, {0, r, -r}, "diagonal in y-z"}};
    for (double tau : {0.6, 0.9}) {
        const double nu = (tau - 0.5) / 3;
        for (const auto& w : waves) {
            const double measured = measured_viscosity(w.m, w.dir, tau);
            std::printf("  tau %.2f %-16s nu %.6f measured %.6f (rel. error %.2e)\n", tau, w.name, nu, measured,
                        std::abs(measured / nu - 1));
            EXPECT_NEAR(measured / nu, 1.0, 0.015) << w.name << " tau " << tau;
        }
    }
}

/// Force-driven flow along `flow` between bounce-back walls across `wall` (H nodes),
/// periodic along the third axis: max |u - u_exact| / umax against
/// u = g y'(H - y') / (2 nu), y' = y + 1/2.
double poiseuille_error(int flow, int wall, double tau) {
    const int H = 16;
    int n[3] = {2, 2, 2};
    n[wall] = H;
    auto s = d3q13_box(n[0], n[1], n[2], tau);
    test::set_faces(s, wall, FaceType::Wall, FaceType::Wall);
    const double nu = (tau - 0.5) / 3, umax = 0.02, g = 8 * nu * umax / (H * H);
    s.force[flow] = g;
    auto e = backend::make_cpu_engine(s);
    test::initialize_at_rest(*e, s);
    e->step(std::int64_t(std::log(1e12) / (nu * kPi * kPi / (H * H))));
    std::vector<double> rho, u;
    e->fields(rho, u);
    double err = 0;
    for (std::int64_t c = 0; c < s.grid.cells(); ++c) {
        int p[3];
        s.grid.coordinates(c, p);
        const double y = p[wall] + 0.5, exact = g * y * (H - y) / (2 * nu);
        err = std::max(err, std::abs(u[std::size_t(3 * c + flow)] - exact) / umax);
        for (int a = 0; a < 3; ++a)
            if (a != flow) err = std::max(err, std::abs(u[std::size_t(3 * c + a)]) / umax);
    }
    return err;
}

TEST(D3Q13Channel, PoiseuilleBetweenBounceBackWalls) {
    // Half-way bounce-back puts the wall at y = -1/2 up to an O(tau^2) slip that depends on the
    // MRT rates (Ginzburg & d'Humieres 2003); with s_e = s_h = 1 it stays below 1% of umax at
    // H = 16 for these tau (measured 0.23-0.34%). The bound 1% checks the force, the walls and
    // the viscosity together (a factor 2 error in either stress rate moves the peak by 100%).
    for (double tau : {0.6, 0.8})
        for (const auto [flow, wall] : {std::pair{0, 1}, std::pair{2, 0}, std::pair{1, 2}}) {
            const double err = poiseuille_error(flow, wall, tau);
            std::printf("  tau %.1f flow %d walls %d: max error %.2e of umax\n", tau, flow, wall, err);
            EXPECT_LT(err, 0.01) << "flow axis " << flow << " wall axis " << wall << " tau " << tau;
        }
}

TEST(D3Q13Channel, CouetteFromAMovingWall) {
    // Linear in y with no forcing: the moving-wall term rho0 c_i.U / 4 (seed 000 eq. 9) and the
    // bounce-back give u = U (y + 1/2) / H exactly at steady state (rounding only).
    const int H = 12;
    auto s = d3q13_box(2, H, 2, 0.8);
    test::set_faces(s, 1, FaceType::Wall, FaceType::MovingWall);
    const double U = 0.02;
    s.faces.velocity[boundary::YMax][0] = U;
    auto e = backend::make_cpu_engine(s);
    test::initialize_at_rest(*e, s);
    e->step(20000);
    std::vector<double> rho, u;
    e->fields(rho, u);
    for (std::int64_t c = 0; c < s.grid.cells(); ++c) {
        int p[3];
        s.grid.coordinates(c, p);
        EXPECT_NEAR(u[std::size_t(3 * c)], U * (p[1] + 0.5) / H, 1e-7 * U) << "y = " << p[1];
        EXPECT_NEAR(u[std::size_t(3 * c + 1)], 0.0, 1e-9);
    }
}

TEST(D3Q13Channel, ZouHeInletAndPressureOutlet) {
    // Parabolic Zou-He velocity inlet, Zou-He pressure outlet, walls across y, periodic z:
    // the developed profile against the parabola. Incompressible: measured 0.34% of umax
    // (bounce-back slip as above). Compressible: rho u is what stays constant along the
    // channel, and the pressure drop of ~1.8% makes u vary by about +-0.9% (as on D3Q19,
    // OpenBoundaries.ZouHeChannelCompressible): measured 1.6%. Bound 2% for both.
    for (auto eq : {physics::EquilibriumKind::Incompressible, physics::EquilibriumKind::Compressible}) {
        const int H = 12, Lx = 36;
        const double umax = 0.03;
        auto s = d3q13_box(Lx, H, 2, 0.8, eq);
        s.grid.periodic[0] = false;
        s.faces.type[boundary::XMin] = FaceType::Velocity;
        s.faces.type[boundary::XMax] = FaceType::Pressure;
        s.faces.profile[boundary::XMin] = boundary::Profile::Parabolic;
        s.faces.velocity[boundary::XMin][0] = umax;
        s.faces.density[boundary::XMax] = 1.0;
        test::set_faces(s, 1, FaceType::Wall, FaceType::Wall);
        auto e = backend::make_cpu_engine(s);
        test::initialize_at_rest(*e, s);
        e->step(8000);
        std::vector<double> rho, u;
        e->fields(rho, u);
        double err = 0;
        for (std::int64_t c = 0; c < s.grid.cells(); ++c) {
            int p[3];
            s.grid.coordinates(c, p);
            if (p[0] < Lx / 4 || p[0] > 3 * Lx / 4) continue;
            const double y = p[1] + 0.5, exact = 4 * umax * y * (H - y) / (H * H);
            err = std::max(err, std::abs(u[std::size_t(3 * c)] - exact) / umax);
            err = std::max(err, std::abs(u[std::size_t(3 * c + 1)]) / umax);
        }
        std::printf("  %s: max error %.2e of umax\n", physics::name_of(eq), err);
        EXPECT_LT(err, 0.02) << physics::name_of(eq);
    }
}

TEST(D3Q13Output, DensityFieldIsThePressureOfEquation8) {
    // The engine's density field is 3 p of eq. 8 from the populations the next step
    // collides: at x, f_i = f*_i(x - c_i) of the last step (periodic box). With s_e = 1.5
    // the energy moment is off equilibrium, so 3 p differs from rho = sum f by more than
    // rounding, and the field must follow 3 p.
    auto s = d3q13_box(8, 8, 8, 0.7);
    s.mrt.energy = 1.5;
    auto e = backend::make_cpu_engine(s);
    test::initialize_wavy(*e, s);
    e->step(3);
    std::vector<double> post, rho, u;
    e->populations(post);
    e->fields(rho, u);
    const auto& g = s.grid;
    double off_equilibrium = 0;
    for (std::int64_t c = 0; c < g.cells(); ++c) {
        int p[3];
        g.coordinates(c, p);
        double f[13], sum = 0;
        for (int i = 0; i < 13; ++i) {
            int q[3];
            for (int a = 0; a < 3; ++a) q[a] = (p[a] - L::c(i, a) + g.n[a]) % g.n[a];
            f[i] = post[std::size_t(i * g.cells() + g.index(q[0], q[1], q[2]))];
            sum += f[i];
        }
        const double v[3] = {u[std::size_t(3 * c)], u[std::size_t(3 * c + 1)], u[std::size_t(3 * c + 2)]};
        EXPECT_NEAR(rho[std::size_t(c)], physics::d3q13_pressure_density(f, v, 1.0), 1e-13);
        off_equilibrium = std::max(off_equilibrium, std::abs(rho[std::size_t(c)] - (1 + sum)));
    }
    EXPECT_GT(off_equilibrium, 1e-8);  // the check above is not the plain density
}

TEST(D3Q13Output, ExpandsToTheWholeBox) {
    // A field linear in x, y, z is reproduced exactly at the nodes of the other sub-lattice
    // (the mean of the two neighbours along each axis); solid nodes report rest.
    storage::Grid g{{6, 5, 4}, {true, false, false}, true};
    storage::Grid full = g;
    full.sublattice = false;
    std::vector<std::uint8_t> kind(std::size_t(full.cells()), boundary::Fluid);
    kind[std::size_t(full.index(3, 2, 0))] = boundary::Solid;
    std::vector<double> rho(std::size_t(g.cells())), u(3 * rho.size());
    auto field = [](int x, int y, int z) { return 1 + 0.01 * x + 0.02 * y - 0.03 * z; };
    for (std::int64_t c = 0; c < g.cells(); ++c) {
        int p[3];
        g.coordinates(c, p);
        rho[std::size_t(c)] = field(p[0], p[1], p[2]);
        u[std::size_t(3 * c + 1)] = 0.1 * field(p[0], p[1], p[2]);
    }
    std::vector<double> r, v;
    sim::expand_sublattice(g, kind, rho, u, r, v);
    ASSERT_EQ(r.size(), std::size_t(full.cells()));
    for (int z = 1; z < 3; ++z)
        for (int y = 1; y < 4; ++y)
            for (int x = 1; x < 5; ++x) {
                const auto c = std::size_t(full.index(x, y, z));
                if (kind[c] == boundary::Solid) continue;
                bool next_to_solid = false;
                for (int a = 0; a < 3; ++a)
                    for (int d : {-1, 1}) {
                        int p[3] = {x, y, z};
                        p[a] += d;
                        next_to_solid = next_to_solid || kind[std::size_t(full.index(p[0], p[1], p[2]))] == boundary::Solid;
                    }
                if (next_to_solid) continue;
                EXPECT_NEAR(r[c], field(x, y, z), 1e-14) << x << " " << y << " " << z;
                EXPECT_NEAR(v[3 * c + 1], 0.1 * field(x, y, z), 1e-14);
            }
    EXPECT_EQ(r[std::size_t(full.index(3, 2, 0))], 1.0);
    EXPECT_EQ(v[3 * std::size_t(full.index(3, 2, 0))], 0.0);
}

}  // namespace
}  // namespace barracuda
