// Properties of the velocity sets, the equilibria and the collision operators,
// checked cell by cell (no streaming):
//  - Lattice: the moment identities every velocity set must satisfy for the
//    second-order equilibrium to recover Navier-Stokes (Krüger et al., "The
//    Lattice Boltzmann Method", 2017, ch. 3, velocity sets), and the
//    opposite-pair structure the bounce-back and TRT rely on (src/lattice/*.hpp).
//  - Equilibrium: mass, momentum and momentum-flux moments of
//    physics::equilibrium_shifted (src/physics/equilibrium.hpp), compressible
//    and incompressible (He & Luo 1997).
//  - Collision: BGK, TRT and MRT (src/physics/collision_*.hpp) conserve mass and
//    change the momentum by exactly the Guo force (Guo, Zheng & Shi 2002), and
//    reduce to BGK for the parameter choices where they must.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <type_traits>

#include "backend/configured.hpp"
#include "lattice/lattice.hpp"
#include "physics/collision_bgk.hpp"
#include "physics/collision_mrt.hpp"
#include "physics/collision_trt.hpp"
#include "physics/equilibrium.hpp"
#include "physics/moments.hpp"

namespace barracuda {
namespace {

using lattice::D2Q9;
using lattice::D3Q15;
using lattice::D3Q19;
using lattice::D3Q27;

using AllLattices = ::testing::Types<D2Q9, D3Q15, D3Q19, D3Q27>;

struct LatticeName {
    template <class L>
    static std::string GetName(int) {
        return L::name;
    }
};

double delta(int a, int b) {
    return a == b ? 1.0 : 0.0;
}

// ---------------------------------------------------------------- Lattice

template <class L>
class Lattice : public ::testing::Test {};
TYPED_TEST_SUITE(Lattice, AllLattices, LatticeName);

// The weights are rationals with denominators up to 216; the moment sums below
// have at most 27 terms of magnitude <= 1, so their round-off is below
// 27 * 2^-53 ~ 3e-15. 1e-14 leaves a margin and still catches any wrong weight
// (the smallest weight is 1/216 ~ 5e-3).
constexpr double kMomentTol = 1e-14;

TYPED_TEST(Lattice, WeightsSumToOne) {
    using L = TypeParam;
    double s = 0;
    for (int i = 0; i < L::Q; ++i) {
        EXPECT_GT(L::w(i), 0.0) << "i = " << i;
        s += L::w(i);
    }
    EXPECT_NEAR(s, 1.0, kMomentTol);
}

TYPED_TEST(Lattice, VelocitiesLieInTheLatticeDimensions) {
    // c(i, axis) is zero on unused axes (src/lattice/lattice.hpp), so that 2D
    // lattices can be handled with three-component vectors.
    using L = TypeParam;
    for (int i = 0; i < L::Q; ++i)
        for (int a = 0; a < 3; ++a) {
            EXPECT_LE(std::abs(L::c(i, a)), 1);
            if (a >= L::D) EXPECT_EQ(L::c(i, a), 0) << "i = " << i << " axis " << a;
        }
    EXPECT_EQ(L::c(0, 0), 0);
    EXPECT_EQ(L::c(0, 1), 0);
    EXPECT_EQ(L::c(0, 2), 0);
}

TYPED_TEST(Lattice, FirstAndThirdMomentsVanish) {
    using L = TypeParam;
    for (int a = 0; a < 3; ++a) {
        double m1 = 0;
        for (int i = 0; i < L::Q; ++i) m1 += L::w(i) * L::c(i, a);
        EXPECT_NEAR(m1, 0.0, kMomentTol) << "axis " << a;
        for (int b = 0; b < 3; ++b)
            for (int c = 0; c < 3; ++c) {
                double m3 = 0;
                for (int i = 0; i < L::Q; ++i) m3 += L::w(i) * L::c(i, a) * L::c(i, b) * L::c(i, c);
                EXPECT_NEAR(m3, 0.0, kMomentTol) << a << b << c;
            }
    }
}

TYPED_TEST(Lattice, SecondMomentIsIsotropic) {
    // sum_i w_i c_ia c_ib = cs2 delta_ab on the lattice axes.
    using L = TypeParam;
    for (int a = 0; a < L::D; ++a)
        for (int b = 0; b < L::D; ++b) {
            double m2 = 0;
            for (int i = 0; i < L::Q; ++i) m2 += L::w(i) * L::c(i, a) * L::c(i, b);
            EXPECT_NEAR(m2, L::cs2 * delta(a, b), kMomentTol) << a << b;
        }
}

TYPED_TEST(Lattice, FourthMomentIsIsotropic) {
    // sum_i w_i c_ia c_ib c_ic c_id = cs2^2 (d_ab d_cd + d_ac d_bd + d_ad d_bc):
    // true for all four sets (D3Q15 included: 2/9 + 8/72 = 3 cs4 on the diagonal).
    using L = TypeParam;
    const double cs4 = L::cs2 * L::cs2;
    for (int a = 0; a < L::D; ++a)
        for (int b = 0; b < L::D; ++b)
            for (int c = 0; c < L::D; ++c)
                for (int d = 0; d < L::D; ++d) {
                    double m4 = 0;
                    for (int i = 0; i < L::Q; ++i)
                        m4 += L::w(i) * L::c(i, a) * L::c(i, b) * L::c(i, c) * L::c(i, d);
                    const double want = cs4 * (delta(a, b) * delta(c, d) + delta(a, c) * delta(b, d) +
                                               delta(a, d) * delta(b, c));
                    EXPECT_NEAR(m4, want, kMomentTol) << a << b << c << d;
                }
}

TYPED_TEST(Lattice, OppositeIsAnInvolutionReversingTheVelocity) {
    using L = TypeParam;
    for (int i = 0; i < L::Q; ++i) {
        const int o = L::opposite(i);
        ASSERT_GE(o, 0);
        ASSERT_LT(o, L::Q);
        EXPECT_EQ(L::opposite(o), i) << "i = " << i;
        for (int a = 0; a < 3; ++a) EXPECT_EQ(L::c(o, a), -L::c(i, a)) << "i = " << i << " axis " << a;
        EXPECT_EQ(L::w(o), L::w(i)) << "i = " << i;  // exact: the same rational constant
    }
}

TYPED_TEST(Lattice, VelocitiesAreDistinct) {
    using L = TypeParam;
    for (int i = 0; i < L::Q; ++i)
        for (int j = i + 1; j < L::Q; ++j)
            EXPECT_FALSE(L::c(i, 0) == L::c(j, 0) && L::c(i, 1) == L::c(j, 1) && L::c(i, 2) == L::c(j, 2))
                    << "c_" << i << " == c_" << j;
}

// ---------------------------------------------------------------- Equilibrium

struct Sample {
    double drho;
    double u[3];
};

/// Random density and velocity with |drho| < 0.05 and |u| < 0.1 (zero on unused axes).
template <class L>
Sample random_state(std::mt19937_64& rng) {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    Sample s{0.05 * d(rng), {0, 0, 0}};
    for (int a = 0; a < L::D; ++a) s.u[a] = 0.099 / std::sqrt(3.0) * d(rng);
    return s;
}

template <class L>
class Equilibrium : public ::testing::Test {};
TYPED_TEST_SUITE(Equilibrium, AllLattices, LatticeName);

template <class L, class Eq>
void check_equilibrium_moments() {
    SCOPED_TRACE(std::string(L::name) + " " + Eq::name);
    std::mt19937_64 rng(20240611);
    // Tolerance: the shifted populations are <= 0.1 in magnitude and each moment
    // sums at most 27 of them, so round-off is < 27 * 0.1 * 2^-53 ~ 3e-16 per
    // product; 1e-14 is 1e-14 relative to the density (and to cs2 for the
    // momentum flux), the "round-off only" level of the brief.
    constexpr double tol = 1e-14;
    for (int trial = 0; trial < 200; ++trial) {
        const Sample s = random_state<L>(rng);
        const double rho = 1.0 + s.drho;
        const double rho_u = Eq::compressible ? rho : 1.0;  // factor of the velocity terms
        double f[L::Q];
        for (int i = 0; i < L::Q; ++i) f[i] = physics::equilibrium_shifted<L, Eq>(i, s.drho, s.u);

        // Zeroth moment: sum (f_eq - w) = drho.
        double m0 = 0;
        for (int i = 0; i < L::Q; ++i) m0 += f[i];
        EXPECT_NEAR(m0, s.drho, tol) << "trial " << trial;

        // First moment: sum f_eq c = rho u (compressible) or rho0 u = u (incompressible);
        // the shift w has zero first moment.
        for (int a = 0; a < 3; ++a) {
            double m1 = 0;
            for (int i = 0; i < L::Q; ++i) m1 += f[i] * L::c(i, a);
            EXPECT_NEAR(m1, rho_u * s.u[a], tol) << "trial " << trial << " axis " << a;
        }

        // Second moment: sum f_eq c_a c_b = rho cs2 d_ab + rho u_a u_b (compressible),
        // rho cs2 d_ab + rho0 u_a u_b (incompressible). The shift w carries cs2 d_ab.
        for (int a = 0; a < L::D; ++a)
            for (int b = 0; b < L::D; ++b) {
                double m2 = 0;
                for (int i = 0; i < L::Q; ++i) m2 += (f[i] + L::w(i)) * L::c(i, a) * L::c(i, b);
                const double want = rho * L::cs2 * delta(a, b) + rho_u * s.u[a] * s.u[b];
                EXPECT_NEAR(m2, want, tol) << "trial " << trial << " ab " << a << b;
            }
    }
}

TYPED_TEST(Equilibrium, MomentsCompressible) { check_equilibrium_moments<TypeParam, physics::Compressible>(); }
TYPED_TEST(Equilibrium, MomentsIncompressible) { check_equilibrium_moments<TypeParam, physics::Incompressible>(); }

TYPED_TEST(Equilibrium, RestStateIsTheWeights) {
    // drho = 0, u = 0 gives f_eq = w exactly, i.e. shifted populations of zero.
    using L = TypeParam;
    const double u[3] = {0, 0, 0};
    for (int i = 0; i < L::Q; ++i) {
        EXPECT_EQ((physics::equilibrium_shifted<L, physics::Compressible>(i, 0.0, u)), 0.0);
        EXPECT_EQ((physics::equilibrium_shifted<L, physics::Incompressible>(i, 0.0, u)), 0.0);
    }
}

// ---------------------------------------------------------------- Collision

template <class L>
class Collision : public ::testing::Test {};
TYPED_TEST_SUITE(Collision, AllLattices, LatticeName);

constexpr double kTau = 0.8;

/// The setup of the brief: tau, magic parameter 3/16 and the MRT rates of
/// Lallemand & Luo 2000 (D2Q9) and d'Humieres et al. 2002 (D3Q19).
template <class L>
backend::EngineSetup collision_setup(double tau = kTau) {
    backend::EngineSetup s;
    s.precision = storage::Precision::FP64;
    s.tau = tau;
    s.trt_magic = 3.0 / 16.0;
    if constexpr (L::Q == 9)
        s.mrt = physics::MrtRateSet{1 / tau, 1.64, 1.54, 1.9, 1.0, 1.0};  // pi, m unused on D2Q9
    else
        s.mrt = physics::MrtRateSet{1 / tau, 1.19, 1.4, 1.2, 1.4, 1.98};
    return s;
}

/// Shifted populations away from equilibrium: f_eq(drho, u) - w + 0.01 w r_i,
/// r_i uniform in [-1, 1] (a non-equilibrium part larger than in any flow we run).
template <class L>
void random_populations(std::mt19937_64& rng, double (&f)[L::Q]) {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    const Sample s = random_state<L>(rng);
    for (int i = 0; i < L::Q; ++i)
        f[i] = physics::equilibrium_shifted<L, physics::Compressible>(i, s.drho, s.u) + 0.01 * L::w(i) * d(rng);
}

template <class L>
void random_force(std::mt19937_64& rng, double (&force)[3]) {
    std::uniform_real_distribution<double> d(-1e-3, 1e-3);
    force[0] = force[1] = force[2] = 0;
    for (int a = 0; a < L::D; ++a) force[a] = d(rng);
}

template <class L>
void moments(const double (&f)[L::Q], double& m0, double (&m1)[3]) {
    m0 = 0;
    m1[0] = m1[1] = m1[2] = 0;
    for (int i = 0; i < L::Q; ++i) {
        m0 += f[i];
        for (int a = 0; a < 3; ++a) m1[a] += f[i] * L::c(i, a);
    }
}

/// One collision of C on f with the state the kernel would give it
/// (cell_state includes the half-force shift of the velocity).
template <class L, class Eq, class C>
void collide(const C& op, double (&f)[L::Q], const double (&force)[3], bool forced) {
    const auto state = physics::cell_state<L, Eq>(f, force);
    op(f, state, force, forced);
}

template <class L, class Eq, class C>
void check_conservation(const char* what, const C& op) {
    SCOPED_TRACE(std::string(L::name) + " " + Eq::name + " " + what);
    std::mt19937_64 rng(7);
    // Tolerance: the populations are O(0.1) and the collision adds a handful of
    // O(0.1) terms per population (Q^2 ~ 400 products with entries <= 30 for
    // MRT on D3Q19, but on non-equilibrium parts of 1e-3); the observed
    // round-off is ~3e-17. 1e-14 is round-off relative to the unit density,
    // while a source with a wrong weight would be off by ~1e-4 (the force).
    constexpr double tol = 1e-14;
    for (int trial = 0; trial < 100; ++trial) {
        for (bool forced : {false, true}) {
            double f[L::Q], force[3] = {0, 0, 0};
            random_populations<L>(rng, f);
            if (forced) random_force<L>(rng, force);
            double m0_before, m1_before[3], m0_after, m1_after[3];
            moments<L>(f, m0_before, m1_before);
            collide<L, Eq>(op, f, force, forced);
            moments<L>(f, m0_after, m1_after);
            EXPECT_NEAR(m0_after, m0_before, tol) << "trial " << trial << " forced " << forced;
            for (int a = 0; a < 3; ++a)
                EXPECT_NEAR(m1_after[a] - m1_before[a], force[a], tol)
                        << "trial " << trial << " forced " << forced << " axis " << a;
        }
    }
}

template <class L, class Eq>
void check_all_collisions() {
    const auto setup = collision_setup<L>();
    using Bgk = physics::Bgk<L, Eq, double>;
    using Trt = physics::Trt<L, Eq, double>;
    check_conservation<L, Eq>("bgk", backend::CollisionFactory<Bgk>::make(setup));
    check_conservation<L, Eq>("trt", backend::CollisionFactory<Trt>::make(setup));
    check_conservation<L, Eq>("regularized", backend::CollisionFactory<physics::Regularized<L, Eq, double>>::make(setup));
    if constexpr (physics::HasMrt<L>) {
        using Mrt = physics::Mrt<L, Eq, double>;
        check_conservation<L, Eq>("mrt", backend::CollisionFactory<Mrt>::make(setup));
    }
    if constexpr (physics::HasEntropic<L> && std::is_same_v<Eq, physics::Compressible>)
        check_conservation<L, Eq>("entropic", backend::CollisionFactory<physics::Entropic<L, double>>::make(setup));
}

TYPED_TEST(Collision, ConservesMassAndAddsForceCompressible) {
    check_all_collisions<TypeParam, physics::Compressible>();
}
TYPED_TEST(Collision, ConservesMassAndAddsForceIncompressible) {
    check_all_collisions<TypeParam, physics::Incompressible>();
}

/// Max |a_i - b_i| after one collision of each operator on the same random
/// populations, with and without force, over many samples.
template <class L, class Eq, class A, class B>
double max_difference(const A& a, const B& b) {
    std::mt19937_64 rng(11);
    double worst = 0;
    for (int trial = 0; trial < 100; ++trial) {
        for (bool forced : {false, true}) {
            double fa[L::Q], fb[L::Q], force[3] = {0, 0, 0};
            random_populations<L>(rng, fa);
            if (forced) random_force<L>(rng, force);
            for (int i = 0; i < L::Q; ++i) fb[i] = fa[i];
            collide<L, Eq>(a, fa, force, forced);
            collide<L, Eq>(b, fb, force, forced);
            for (int i = 0; i < L::Q; ++i) worst = std::max(worst, std::abs(fa[i] - fb[i]));
        }
    }
    return worst;
}

// Equivalences hold algebraically; what differs is the order of operations
// (MRT goes through M and M^T with entries up to 30), so round-off on O(0.1)
// populations. 1e-14 is that; a wrong rate anywhere would give differences of
// the order of the non-equilibrium part, 0.01 w >= 5e-5.
constexpr double kEquivalenceTol = 1e-14;

template <class L, class Eq>
void check_trt_reduces_to_bgk() {
    SCOPED_TRACE(std::string(L::name) + " " + Eq::name);
    for (double tau : {0.55, 0.8, 1.3}) {
        // Lambda = (tau+ - 1/2)(tau- - 1/2) = (tau - 1/2)^2 makes tau- = tau+.
        auto setup = collision_setup<L>(tau);
        setup.trt_magic = (tau - 0.5) * (tau - 0.5);
        const auto trt = backend::CollisionFactory<physics::Trt<L, Eq, double>>::make(setup);
        const auto bgk = backend::CollisionFactory<physics::Bgk<L, Eq, double>>::make(setup);
        EXPECT_NEAR(trt.omega_minus, trt.omega_plus, 1e-15) << "tau " << tau;
        EXPECT_LE((max_difference<L, Eq>(trt, bgk)), kEquivalenceTol) << "tau " << tau;
    }
}

TYPED_TEST(Collision, TrtWithEqualRatesIsBgk) {
    check_trt_reduces_to_bgk<TypeParam, physics::Compressible>();
    check_trt_reduces_to_bgk<TypeParam, physics::Incompressible>();
}

// Regularized BGK (Latt & Chopard 2006) against BGK: (1) at omega = 1 both
// discard the non-equilibrium part entirely, so they agree on any populations;
// (2) at any omega they agree on populations whose non-equilibrium part is
// already a second-order Hermite term w_i/(2 cs4) Q_i:Pi (the projection is then
// the identity); (3) on general populations they differ (by the higher-order
// content BGK keeps), which a regularization that did nothing would not.
template <class L, class Eq>
void check_regularized_against_bgk() {
    SCOPED_TRACE(std::string(L::name) + " " + Eq::name);
    const auto reg1 = backend::CollisionFactory<physics::Regularized<L, Eq, double>>::make(collision_setup<L>(1.0));
    const auto bgk1 = backend::CollisionFactory<physics::Bgk<L, Eq, double>>::make(collision_setup<L>(1.0));
    EXPECT_LE((max_difference<L, Eq>(reg1, bgk1)), kEquivalenceTol);
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> d(-1e-3, 1e-3);
    for (double tau : {0.52, 0.8, 1.7}) {
        const auto reg = backend::CollisionFactory<physics::Regularized<L, Eq, double>>::make(collision_setup<L>(tau));
        const auto bgk = backend::CollisionFactory<physics::Bgk<L, Eq, double>>::make(collision_setup<L>(tau));
        for (int trial = 0; trial < 20; ++trial) {
            const Sample st = random_state<L>(rng);
            double pi[6] = {d(rng), d(rng), L::D == 3 ? d(rng) : 0.0, d(rng), L::D == 3 ? d(rng) : 0.0,
                            L::D == 3 ? d(rng) : 0.0};
            double fa[L::Q], fb[L::Q];
            for (int i = 0; i < L::Q; ++i)
                fa[i] = fb[i] = physics::equilibrium_shifted<L, Eq>(i, st.drho, st.u) +
                                physics::hermite2_non_equilibrium<L>(i, pi);
            const double none[3] = {0, 0, 0};
            collide<L, Eq>(reg, fa, none, false);
            collide<L, Eq>(bgk, fb, none, false);
            for (int i = 0; i < L::Q; ++i) EXPECT_NEAR(fa[i], fb[i], kEquivalenceTol) << "tau " << tau << " i " << i;
        }
        EXPECT_GT((max_difference<L, Eq>(reg, bgk)), 1e-6) << "tau " << tau;
    }
}

TYPED_TEST(Collision, RegularizedAgreesWithBgkOnItsHermiteSpace) {
    check_regularized_against_bgk<TypeParam, physics::Compressible>();
    check_regularized_against_bgk<TypeParam, physics::Incompressible>();
}

template <class L, class Eq>
void check_mrt_reduces_to_bgk() {
    SCOPED_TRACE(std::string(L::name) + " " + Eq::name);
    for (double tau : {0.55, 0.8, 1.3}) {
        // Every non-conserved moment relaxes with 1/tau. The conserved ones keep
        // rate 1 in Mrt::from_rates, which does not matter: their non-equilibrium
        // part is 0 (mass) or -F/2 (momentum), and s F/2 + (1 - s/2) F = F for any s.
        auto setup = collision_setup<L>(tau);
        const double s = 1 / tau;
        setup.mrt = physics::MrtRateSet{s, s, s, s, s, s};
        const auto mrt = backend::CollisionFactory<physics::Mrt<L, Eq, double>>::make(setup);
        const auto bgk = backend::CollisionFactory<physics::Bgk<L, Eq, double>>::make(setup);
        EXPECT_LE((max_difference<L, Eq>(mrt, bgk)), kEquivalenceTol) << "tau " << tau;
    }
}

TYPED_TEST(Collision, MrtWithEqualRatesIsBgk) {
    if constexpr (physics::HasMrt<TypeParam>) {
        check_mrt_reduces_to_bgk<TypeParam, physics::Compressible>();
        check_mrt_reduces_to_bgk<TypeParam, physics::Incompressible>();
    } else {
        GTEST_SKIP() << "no MRT basis for this lattice";
    }
}

TYPED_TEST(Collision, MrtBasisIsOrthogonal) {
    // Mrt computes M^-1 as M^T diag(1/|M_k|^2), valid only for orthogonal rows.
    // The rows are integers or halves: the products are exact.
    using L = TypeParam;
    if constexpr (physics::HasMrt<L>) {
        using B = physics::MrtBasis<L>;
        for (int k = 0; k < L::Q; ++k)
            for (int l = k + 1; l < L::Q; ++l) {
                double dot = 0;
                for (int i = 0; i < L::Q; ++i)
                    dot += B::row(k, L::c(i, 0), L::c(i, 1), L::c(i, 2)) * B::row(l, L::c(i, 0), L::c(i, 1), L::c(i, 2));
                EXPECT_EQ(dot, 0.0) << "rows " << k << ", " << l;
            }
    } else {
        GTEST_SKIP() << "no MRT basis for this lattice";
    }
}

/// The MRT collision written out as dense Q x Q products over the basis rows,
///   f* = f + M^T diag(1/|M_k|^2) [-S (M f - M f^eq) + (I - S/2) M F~],
/// which Mrt evaluates with compile-time tables, pair sums and closed-form
/// equilibrium and source moments (src/physics/collision_mrt.hpp).
template <class L, class Eq>
void dense_mrt(const physics::MrtRateSet& r, double (&f)[L::Q], const double (&force)[3], bool forced) {
    using B = physics::MrtBasis<L>;
    const auto state = physics::cell_state<L, Eq>(f, force);
    double df[L::Q] = {};
    for (int k = 0; k < L::Q; ++k) {
        double s = 1;
        switch (B::rate_class(k)) {
            case physics::RateClass::Conserved: s = 1; break;
            case physics::RateClass::Shear: s = r.shear; break;
            case physics::RateClass::Energy: s = r.energy; break;
            case physics::RateClass::EnergySquare: s = r.energy_square; break;
            case physics::RateClass::HeatFlux: s = r.heat_flux; break;
            case physics::RateClass::Pi: s = r.pi; break;
            case physics::RateClass::M: s = r.m; break;
            case physics::RateClass::ShearDiagonal:  // D3Q13 only (tests/test_d3q13.cpp)
            case physics::RateClass::ShearOffDiagonal: break;
        }
        double row[L::Q], n2 = 0, m = 0, meq = 0, msrc = 0;
        for (int i = 0; i < L::Q; ++i) {
            row[i] = B::row(k, L::c(i, 0), L::c(i, 1), L::c(i, 2));
            n2 += row[i] * row[i];
            m += row[i] * f[i];
            meq += row[i] * physics::equilibrium_shifted<L, Eq>(i, state.drho, state.u);
            if (forced) msrc += row[i] * physics::guo_source<L>(i, state.u, force);
        }
        const double coef = (-s * (m - meq) + (1 - 0.5 * s) * msrc) / n2;
        for (int i = 0; i < L::Q; ++i) df[i] += row[i] * coef;
    }
    for (int i = 0; i < L::Q; ++i) f[i] += df[i];
}

template <class L, class Eq>
void check_mrt_matches_dense() {
    SCOPED_TRACE(std::string(L::name) + " " + Eq::name);
    // A different rate for every class, so that a moment relaxed with the wrong
    // rate, or a wrong equilibrium or source moment, shows as a difference of
    // the order of its non-equilibrium part (>= 1e-5); round-off is ~1e-16.
    const physics::MrtRateSet r{1 / 0.7, 1.1, 1.3, 1.5, 1.7, 1.9};
    const auto mrt = physics::Mrt<L, Eq, double>::from_rates(r);
    std::mt19937_64 rng(5);
    double worst = 0;
    for (int trial = 0; trial < 200; ++trial) {
        for (bool forced : {false, true}) {
            double fa[L::Q], fb[L::Q], force[3] = {0, 0, 0};
            random_populations<L>(rng, fa);
            if (forced) random_force<L>(rng, force);
            for (int i = 0; i < L::Q; ++i) fb[i] = fa[i];
            collide<L, Eq>(mrt, fa, force, forced);
            dense_mrt<L, Eq>(r, fb, force, forced);
            for (int i = 0; i < L::Q; ++i) worst = std::max(worst, std::abs(fa[i] - fb[i]));
        }
    }
    EXPECT_LE(worst, kEquivalenceTol);
}

TYPED_TEST(Collision, MrtMatchesTheDenseMomentSpaceProduct) {
    if constexpr (physics::HasMrt<TypeParam>) {
        check_mrt_matches_dense<TypeParam, physics::Compressible>();
        check_mrt_matches_dense<TypeParam, physics::Incompressible>();
    } else {
        GTEST_SKIP() << "no MRT basis for this lattice";
    }
}

TYPED_TEST(Collision, EquilibriumIsAFixedPoint) {
    // Without force, every operator leaves f = f_eq(rho, u) unchanged (to round-off):
    // the collision acts only on the non-equilibrium part.
    using L = TypeParam;
    using Eq = physics::Compressible;
    const auto setup = collision_setup<L>();
    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 20; ++trial) {
        const Sample s = random_state<L>(rng);
        double f0[L::Q];
        for (int i = 0; i < L::Q; ++i) f0[i] = physics::equilibrium_shifted<L, Eq>(i, s.drho, s.u);
        const double none[3] = {0, 0, 0};
        auto check = [&](const char* what, const auto& op) {
            double f[L::Q];
            for (int i = 0; i < L::Q; ++i) f[i] = f0[i];
            collide<L, Eq>(op, f, none, false);
            for (int i = 0; i < L::Q; ++i) EXPECT_NEAR(f[i], f0[i], 1e-15) << what << " i = " << i;
        };
        check("bgk", backend::CollisionFactory<physics::Bgk<L, Eq, double>>::make(setup));
        check("trt", backend::CollisionFactory<physics::Trt<L, Eq, double>>::make(setup));
        check("regularized", backend::CollisionFactory<physics::Regularized<L, Eq, double>>::make(setup));
        if constexpr (physics::HasMrt<L>) check("mrt", backend::CollisionFactory<physics::Mrt<L, Eq, double>>::make(setup));
    }
}

}  // namespace
}  // namespace barracuda

namespace {
// The packed mirror table (lattice::mirrored_along, free-slip faces) equals the
// direct search, and mirrors c_i: component along the axis negated, the rest kept.
template <class L>
void check_mirrors() {
    for (int a = 0; a < 3; ++a)
        for (int i = 0; i < L::Q; ++i) {
            const int m = barracuda::lattice::mirrored_along<L>(i, a);
            EXPECT_EQ(m, barracuda::lattice::mirrored<L>(i, a)) << L::name;
            for (int b = 0; b < 3; ++b) EXPECT_EQ(L::c(m, b), b == a ? -L::c(i, b) : L::c(i, b)) << L::name << " " << i;
        }
}
TEST(Lattice, MirroredVelocities) {
    check_mirrors<barracuda::lattice::D2Q9>();
    check_mirrors<barracuda::lattice::D3Q15>();
    check_mirrors<barracuda::lattice::D3Q19>();
    check_mirrors<barracuda::lattice::D3Q27>();
}
}  // namespace
