// Smagorinsky LES (physics/les.hpp) on every collision (BGK, TRT, MRT,
// regularized) against a closed form: plane Poiseuille flow driven by a body force g between
// half-way bounce-back walls, with the eddy viscosity nu_t = C^2 |S| (Delta = 1).
// With |S| = |u'| in a simple shear, the momentum balance at distance eta from
// the centre line is (nu0 + C^2 |u'|) |u'| = g |eta|, so
//   |u'(eta)| = (-nu0 + sqrt(nu0^2 + 4 C^2 g |eta|)) / (2 C^2),
// and u(y) is its integral from the wall (half a spacing outside the last node).
// Parameters: H = 24, nu0 = 0.005 (tau = 0.515), C = 0.4, g = 9.75e-6: at the
// wall nu_t / nu0 = 0.5, and u_max = 0.104 against 0.140 without the closure,
// so a closure that did nothing, or used the wrong |S|, fails by tens of %.
#include <gtest/gtest.h>

#include <cmath>

#include "backend/configured.hpp"
#include "support.hpp"

namespace barracuda {
namespace {

using boundary::FaceType;
using physics::CollisionKind;

constexpr int H = 24;
constexpr double nu0 = 0.005, C = 0.4, g = 9.75e-6;

/// |u'| at distance eta from the centre line.
double shear_rate(double eta) {
    return (-nu0 + std::sqrt(nu0 * nu0 + 4 * C * C * g * std::abs(eta))) / (2 * C * C);
}

/// u at node y: the integral of |u'| from the wall at y = -1/2 (Simpson, 2000 panels).
double exact_u(int y) {
    const double half = 0.5 * H, from = half, to = std::abs(y + 0.5 - half);  // eta of the wall and the node
    const int n = 2000;
    const double h = (from - to) / n;
    double s = shear_rate(from) + shear_rate(to);
    for (int k = 1; k < n; ++k) s += (k % 2 ? 4 : 2) * shear_rate(to + k * h);
    return s * h / 3;
}

std::vector<double> run_channel(double smagorinsky, CollisionKind collision) {
    auto s = test::periodic_box(lattice::Kind::D2Q9, 1, H, 1, 3 * nu0 + 0.5, storage::Precision::FP64, collision);
    test::set_faces(s, 1, FaceType::Wall, FaceType::Wall);
    s.equilibrium = physics::EquilibriumKind::Incompressible;
    s.smagorinsky = smagorinsky;
    s.force[0] = g;
    auto e = backend::make_cpu_engine(s);
    test::initialize_at_rest(*e, s);
    // ~10 viscous times H^2 / nu_eff (nu_eff between 0.005 and 0.0075): the start-up
    // transient has decayed below 1e-6 of u_max.
    e->step(600000);
    std::vector<double> rho, u;
    e->fields(rho, u);
    std::vector<double> ux(H);
    for (int y = 0; y < H; ++y) ux[std::size_t(y)] = u[3 * std::size_t(y)];
    return ux;
}

class SmagorinskyEvery : public ::testing::TestWithParam<CollisionKind> {};

TEST_P(SmagorinskyEvery, PoiseuilleWithEddyViscosityMatchesTheClosedForm) {
    const auto u = run_channel(C, GetParam());
    const double umax = exact_u(H / 2);
    double worst = 0;
    for (int y = 0; y < H; ++y) worst = std::max(worst, std::abs(u[std::size_t(y)] - exact_u(y)) / umax);
    std::printf("  LES Poiseuille (%s): u_max exact %.5f, LBM %.5f; max |u - u_exact| / u_max = %.2e\n",
                physics::name_of(GetParam()), umax, u[H / 2], worst);
    // 1%: the scheme's O(1/H^2) discretisation and wall-slip error (0.2% for the
    // laminar channel at this H) plus the eddy viscosity sampled at the nodes of a
    // profile whose curvature is largest at the wall (measured: BGK 0.19%, TRT 0.28%,
    // MRT 0.19%, regularized 0.18%); the closure switched off gives 35% here.
    EXPECT_LT(worst, 0.01);
    // The same channel without the closure is the laminar parabola (0.2% at this H),
    // 35% faster at the centre: the check above is not met by accident.
    const auto laminar = run_channel(0.0, GetParam());
    double worst_laminar = 0;
    for (int y = 0; y < H; ++y) {
        const double yy = y + 0.5;
        worst_laminar = std::max(worst_laminar, std::abs(laminar[std::size_t(y)] - g * yy * (H - yy) / (2 * nu0)));
    }
    EXPECT_LT(worst_laminar / (g * H * H / (8 * nu0)), 0.01);
    EXPECT_GT(laminar[H / 2] / u[H / 2], 1.3);
}

INSTANTIATE_TEST_SUITE_P(Collisions, SmagorinskyEvery,
                         ::testing::Values(CollisionKind::BGK, CollisionKind::TRT, CollisionKind::MRT,
                                           CollisionKind::Regularized),
                         [](const auto& info) { return std::string(physics::name_of(info.param)); });

// The stress from one pass over f (physics::non_equilibrium_stress) equals
// sum_i c_i c_i (f_i - f_i^eq) with the equilibria evaluated, on every lattice and
// equilibrium: the closure of BGK, TRT and MRT sees the regularized collision's stress.
template <class L, class Eq>
void check_stress_identity() {
    const physics::CellState<double> st{0.013, {0.04, -0.03, L::D == 3 ? 0.02 : 0.0}};
    double f[L::Q];
    for (int i = 0; i < L::Q; ++i)
        f[i] = physics::equilibrium_shifted<L, Eq>(i, st.drho, st.u) + 1e-3 * std::sin(1.7 * i + 0.3);
    double fast[6], slow[6] = {0, 0, 0, 0, 0, 0};
    physics::non_equilibrium_stress<L, Eq>(f, st, fast);
    for (int i = 0; i < L::Q; ++i) {
        const double d = f[i] - physics::equilibrium_shifted<L, Eq>(i, st.drho, st.u);
        const int ab[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
        for (int k = 0; k < 6; ++k) slow[k] += L::c(i, ab[k][0]) * L::c(i, ab[k][1]) * d;
    }
    for (int k = 0; k < 6; ++k) EXPECT_NEAR(fast[k], slow[k], 1e-15) << L::name << " " << Eq::name << " " << k;
}

TEST(Smagorinsky, OnePassStressEqualsTheNonEquilibriumMoment) {
    check_stress_identity<lattice::D2Q9, physics::Compressible>();
    check_stress_identity<lattice::D2Q9, physics::Incompressible>();
    check_stress_identity<lattice::D3Q15, physics::Compressible>();
    check_stress_identity<lattice::D3Q19, physics::Incompressible>();
    check_stress_identity<lattice::D3Q27, physics::Compressible>();
}

// The closure reads only the cell's own stress: at rest it is inactive, and a
// constant C > 0 never lowers the relaxation time below tau0 (nu_t >= 0).
TEST(Smagorinsky, EddyViscosityIsNonNegativeAndVanishesAtEquilibrium) {
    using L = lattice::D3Q19;
    using Eq = physics::Compressible;
    backend::EngineSetup s;
    s.tau = 0.51;
    s.smagorinsky = 0.17;
    const auto les = backend::CollisionFactory<physics::Regularized<L, Eq, double>>::make(s);
    s.smagorinsky = 0;
    const auto plain = backend::CollisionFactory<physics::Regularized<L, Eq, double>>::make(s);
    const double none[3] = {0, 0, 0};
    physics::CellState<double> st{0.01, {0.03, -0.02, 0.01}};
    double feq[L::Q], a[L::Q], b[L::Q];
    for (int i = 0; i < L::Q; ++i) feq[i] = a[i] = b[i] = physics::equilibrium_shifted<L, Eq>(i, st.drho, st.u);
    les(a, st, none, false);
    for (int i = 0; i < L::Q; ++i) EXPECT_NEAR(a[i], feq[i], 1e-16);
    // A sheared state: the LES relaxes it with a larger tau than plain regularized.
    const double pi[6] = {0, 0, 0, 2e-3, 0, 0};
    for (int i = 0; i < L::Q; ++i) a[i] = b[i] = feq[i] + physics::hermite2_non_equilibrium<L>(i, pi);
    les(a, st, none, false);
    plain(b, st, none, false);
    double na = 0, nb = 0;
    for (int i = 0; i < L::Q; ++i) na += (a[i] - feq[i]) * (a[i] - feq[i]), nb += (b[i] - feq[i]) * (b[i] - feq[i]);
    // Post-collision non-equilibrium = (1 - 1/tau) x pre, and |1 - 1/tau| shrinks as tau
    // grows from 1/2 towards 1: less of it is left.
    EXPECT_LT(na, nb);
}

}  // namespace
}  // namespace barracuda
