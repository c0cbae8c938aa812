// 2D lid-driven cavity at Re = 100 against Ghia, Ghia & Shin (1982), J. Comput.
// Phys. 48, 387-411, Tables I and II (../shared/reference/ghia1982_cavity2d.csv),
// the validation of seed 002 (Kuznik et al. 2010).
//
// D2Q9 BGK, 64^2 nodes with half-way bounce-back walls: the cavity spans
// [-1/2, N - 1/2], so node i sits at x = (i + 1/2) / N. Lid speed U = 0.1
// (Ma = 0.17), nu = U N / Re. Run to a steady state (relative change of u over
// 500 steps below 1e-7).
//
// Tolerance: 0.02 U on every tabulated point. Ghia's own solution is a 129^2
// multigrid result quoted to ~1e-3; at 64^2 the LBM discretisation error is
// O(1/N^2) ~ 2e-4 relative but compressibility (Ma^2 ~ 0.03) and the corner
// singularities of the lid (which bounce-back smooths over one cell) shift the
// profiles by up to ~1% of U in the published comparisons of seed 002; 2% is
// twice that. Measured: 0.0073 U at 64^2 (0.008 U at 128^2, which took CI 8 times as
// long; `barracuda validate cavity2d-re100` runs every collision at 64^2, and at 256^2
// with --full).
#include <gtest/gtest.h>

#include <cmath>

#include "ghia_reference.hpp"
#include "support.hpp"

namespace barracuda {
namespace {

using test::GhiaPoint;
using test::read_ghia;
using test::sample;

TEST(CavityGhia, Re100D2Q9Bgk) {
    std::vector<GhiaPoint> gu, gv;
    read_ghia(gu, gv);
    ASSERT_EQ(gu.size(), 17u);
    const int N = 64;
    const double U = 0.1, Re = 100, nu = U * N / Re, tau = 3 * nu + 0.5;
    auto s = test::periodic_box(lattice::Kind::D2Q9, N, N, 1, tau);
    test::set_faces(s, 0, boundary::FaceType::Wall, boundary::FaceType::Wall);
    test::set_faces(s, 1, boundary::FaceType::Wall, boundary::FaceType::MovingWall);
    s.faces.velocity[boundary::YMax][0] = U;
    auto e = backend::make_cpu_engine(s);
    test::initialize_at_rest(*e, s);
    e->observe(0.5, 1.5, true);
    bool steady = false;
    for (int k = 0; k < 200 && !steady; ++k) {
        e->step(500);
        const auto o = e->observe(0.5, 1.5, true);
        ASSERT_LT(o.bad_cell, 0);
        steady = o.change_l2 / o.norm_l2 < 1e-7;
    }
    ASSERT_TRUE(steady);
    std::vector<double> rho, u;
    e->fields(rho, u);
    // Vertical centre line x = 1/2 lies between nodes N/2 - 1 and N/2.
    std::vector<double> ux, vy;
    test::centre_lines(u, N, U, ux, vy);
    double worst = 0;
    for (const auto& p : gu) {
        const double d = std::abs(sample(ux, p.pos, 0.0, 1.0) - p.value);
        worst = std::max(worst, d);
        EXPECT_LT(d, 0.02) << "u at y = " << p.pos;
    }
    for (const auto& p : gv) {
        const double d = std::abs(sample(vy, p.pos, 0.0, 0.0) - p.value);
        worst = std::max(worst, d);
        EXPECT_LT(d, 0.02) << "v at x = " << p.pos;
    }
    std::cout << "  Ghia Re=100, 64^2 D2Q9 BGK: max deviation " << worst << " U\n";
}

}  // namespace
}  // namespace barracuda
