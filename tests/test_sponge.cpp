// Absorbing layers in front of open faces (boundary/sponge.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "boundary/sponge.hpp"
#include "lattice/d2q9.hpp"
#include "physics/moments.hpp"
#include "support.hpp"

namespace barracuda {
namespace {

using boundary::FaceType;
using physics::CollisionKind;

TEST(Sponge, RateFallsQuadraticallyToZeroAtTheLayersDepth) {
    boundary::SpongeLayer layer;
    layer.width = 8, layer.strength = 0.04;
    EXPECT_DOUBLE_EQ(layer.rate(0), 0.04);
    EXPECT_DOUBLE_EQ(layer.rate(4), 0.04 * 0.25);
    EXPECT_DOUBLE_EQ(layer.rate(7), 0.04 / 64);
    EXPECT_EQ(layer.rate(8), 0.0);
    EXPECT_EQ(layer.rate(-1), 0.0);
}

/// The cell state (compressible) of a non-equilibrium cell at rho = 1.013 and u, before
/// and after one application of the layer with rate sigma.
template <class L>
auto absorb_once(const double (&u)[3], double sigma, const boundary::SpongeLayer& layer) {
    using Eq = physics::Compressible;
    double f[L::Q];
    for (int i = 0; i < L::Q; ++i) f[i] = physics::equilibrium_shifted<L, Eq>(i, 1.013 - 1, u) + 1e-3 * std::sin(i);
    const double none[3] = {0, 0, 0};
    const auto before = physics::cell_state<L, Eq>(f, none);
    boundary::absorb<L, Eq>(f, sigma, layer);
    return std::pair{before, physics::cell_state<L, Eq>(f, none)};
}

TEST(Sponge, RelaxesDensityAndMomentumTowardsTheTargetBySigma) {
    // Equilibria carry exactly their density and momentum, so one application moves
    // rho and j = rho u by sigma of their distance to the target: to round-off.
    const double sigma = 0.25;
    boundary::SpongeLayer layer;
    layer.width = 1, layer.strength = sigma, layer.density = 0.998, layer.velocity[0] = 0.02;
    const auto [before, after] = absorb_once<lattice::D2Q9>({0.031, -0.012, 0}, sigma, layer);
    const double rho0 = 1 + before.drho, rho1 = 1 + after.drho;
    EXPECT_NEAR(rho1, rho0 - sigma * (rho0 - 0.998), 1e-15);
    EXPECT_NEAR(rho1 * after.u[0], rho0 * before.u[0] - sigma * (rho0 * before.u[0] - 0.998 * 0.02), 1e-15);
    EXPECT_NEAR(rho1 * after.u[1], (1 - sigma) * rho0 * before.u[1], 1e-15);
}

TEST(Sponge, KeepingTheDensityConservesMassAndRelaxesMomentumTowardsRhoUTarget) {
    // keep_density (velocity and outflow faces without a target density): f relaxes towards
    // f^eq(rho, u_t) with the node's own rho, so rho is unchanged and j moves by sigma of its
    // distance to rho u_t; to round-off.
    const double sigma = 0.25;
    boundary::SpongeLayer layer;
    layer.width = 1, layer.strength = sigma, layer.density = 0.5, layer.keep_density = true, layer.velocity[2] = 0.02;
    const auto [before, after] = absorb_once<lattice::D3Q19>({0.031, -0.012, 0.004}, sigma, layer);
    const double rho0 = 1 + before.drho;
    EXPECT_NEAR(after.drho, before.drho, 1e-16);  // the target density 0.5 is not used
    EXPECT_NEAR(rho0 * after.u[0], (1 - sigma) * rho0 * before.u[0], 1e-15);
    EXPECT_NEAR(rho0 * after.u[2], rho0 * before.u[2] - sigma * rho0 * (before.u[2] - 0.02), 1e-15);
}

TEST(Sponge, LeavesItsTargetFlowExactlyAsItIs) {
    // Plug flow through a duct with bounce-back inflow and outflow at u0 and layers whose
    // target is that flow: nothing may change (round-off over 200 steps).
    for (auto lat : {lattice::Kind::D2Q9, lattice::Kind::D3Q13, lattice::Kind::D3Q19}) {
        const double u0 = 0.03;
        auto s = test::periodic_box(lat, 32, 6, lat == lattice::Kind::D2Q9 ? 1 : 6, 0.51, storage::Precision::FP64,
                                    CollisionKind::MRT);
        test::set_faces(s, 0, FaceType::Velocity, FaceType::Velocity);
        for (int f : {boundary::XMin, boundary::XMax}) {
            s.faces.method[f] = boundary::Method::BounceBack;
            s.faces.velocity[f][0] = u0;
            s.faces.sponge[f] = {8, 0.1, 1.0, false, {u0, 0, 0}};
        }
        s.faces.has_sponge = true;
        auto e = backend::make_cpu_engine(s);
        e->initialize_uniform(1.0, {u0, 0, 0});
        e->step(200);
        std::vector<double> rho, u;
        e->fields(rho, u);
        double worst = 0;
        for (std::size_t c = 0; c < rho.size(); ++c)
            worst = std::max({worst, std::abs(rho[c] - 1), std::abs(u[3 * c] - u0), std::abs(u[3 * c + 1])});
        EXPECT_LT(worst, 1e-13) << lattice::name_of(lat);
    }
}

/// The peak of |rho - 1| when a density pulse started in the middle of a channel
/// between two resting bounce-back faces has gone to both faces and come back.
double returning_pulse(double strength, int width) {
    const int n = 300;
    auto s = test::periodic_box(lattice::Kind::D2Q9, n, 2, 1, 0.8);
    test::set_faces(s, 0, FaceType::Velocity, FaceType::Velocity);
    for (int f : {boundary::XMin, boundary::XMax}) {
        s.faces.method[f] = boundary::Method::BounceBack;
        if (strength > 0) s.faces.sponge[f] = {width, strength, 1.0, false, {0, 0, 0}};
    }
    s.faces.has_sponge = strength > 0;
    auto e = backend::make_cpu_engine(s);
    const auto cells = s.grid.cells();
    std::vector<double> rho(cells), u(3 * cells, 0.0);
    const double centre = 0.5 * (n - 1), half_width = 6, amplitude = 1e-4;
    for (std::int64_t c = 0; c < cells; ++c) {
        const double x = double(c % n) - centre;
        rho[c] = 1 + amplitude * std::exp(-x * x / (2 * half_width * half_width));
    }
    e->initialize(rho, u);
    // The faces lie half a spacing beyond the end nodes: each half of the pulse travels
    // n / 2 there and back, meeting the other half in the middle at t = n / cs.
    const auto meet = std::int64_t(n * std::sqrt(3.0));
    e->step(meet - 40);
    double peak = 0;
    for (int k = 0; k < 80; ++k) {
        e->step(1);
        e->fields(rho, u);
        for (double r : rho) peak = std::max(peak, std::abs(r - 1));
    }
    return peak;
}

TEST(Sponge, AbsorbsASoundPulseAsTheDampedWaveEquationPredicts) {
    // In the layer the density and momentum perturbations both decay at the rate sigma, so
    // the characteristic variables rho' +- j'/cs decouple: each travels at cs, damped by
    // exp(-int sigma dt) and not reflected by the layer's gradient. Across the layer and back
    // the amplitude falls by exp(-(2 / cs) sum_d sigma(d)) (one node per 1/cs steps). The run
    // without layers gives the same pulse's viscous and dispersive losses, which cancel in
    // the ratio. Tolerance 5% of the predicted ratio: the pulse (half-width 6) is not short
    // against the layer's ramp, and the discrete sum stands for the path integral.
    const int width = 40;
    const double strength = 0.02, cs = 1 / std::sqrt(3.0);
    boundary::SpongeLayer layer;
    layer.width = width, layer.strength = strength;
    double sum = 0;
    for (int d = 0; d < width; ++d) sum += std::log(1 - layer.rate(d));
    const double predicted = std::exp(2 * sum / cs);
    const double ratio = returning_pulse(strength, width) / returning_pulse(0, width);
    std::printf("  returning pulse with/without layers: %.4f, predicted %.4f\n", ratio, predicted);
    EXPECT_NEAR(ratio, predicted, 0.05 * predicted);
    // A stronger layer absorbs more, and the pulse does come back without one.
    EXPECT_LT(returning_pulse(0.1, width), 0.5 * returning_pulse(strength, width));
}

}  // namespace
}  // namespace barracuda
