// The CUDA backend against the CPU oracle: every configuration offered
// (src/configurations.txt), with every boundary kind, a solid obstacle
// and a body force, runs a few steps on both and compares the populations.
// Skipped (GTEST_SKIP, reported) on machines without a CUDA GPU.
//
// Tolerances (max |f_gpu - f_cpu| / max |f_cpu| over all shifted populations):
//  - FP64: 1e-12. Both run the same operations; only the order of
//    floating-point contractions (FMA on the GPU) differs, ~1e-16 per
//    operation over a few hundred operations per cell and 60 steps.
//  - FP32: 2e-5. The scale is the largest *shifted* population (~1e-2 here),
//    while roundings happen on O(1) quantities (rho = 1 + drho, the Guo term,
//    the Zou-He balance): eps = 6e-8 on those is ~6e-6 of the scale, and the
//    CPU and GPU differ in FMA contraction. Measured on the H100: at most
//    1.1e-5 over the 40 FP32 combinations (docs/bench/gpu_tests.md); since
//    the channel has absorbing layers (an extra relaxation on O(1) densities),
//    1.74e-5 (D3Q27 TRT incompressible, bounce-back faces) and, with the
//    mass-conserving layer at the outlet, 1.80e-5 (the same on D3Q19;
//    docs/bench/gpu_tests.md): 10% below the tolerance.
//  - FP16 storage: 5e-3. One binary16 unit is 2^-11 = 4.9e-4 of a stored value;
//    both backends draw the same stochastic-rounding numbers, but a float that
//    FMA contraction moves across a rounding threshold lands one unit apart,
//    and such differences spread over 60 steps. Measured on the H100: at most
//    1.7e-3 over the 80 FP16 combinations (docs/bench/gpu_tests.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../support.hpp"
#include "backend/device_info.hpp"
#include "backend/offered.hpp"
#include "gpu_support.hpp"
#include "sim/force_links.hpp"

namespace barracuda {
namespace {

using boundary::FaceType;

struct Combo {
    lattice::Kind lattice;
    physics::CollisionKind collision;
    physics::EquilibriumKind equilibrium;
    storage::Precision precision;
    boundary::Method method;
    storage::Pattern pattern = storage::Pattern::TwoCopy;
    lattice::CoupledKind scalar = lattice::CoupledKind::None;
    storage::Storage storage = storage::Storage::Dense;
};

std::string name_of(const Combo& c) {
    return std::string(lattice::name_of(c.lattice)) + " " + physics::name_of(c.collision) + " " +
           physics::name_of(c.equilibrium) + " " + storage::name_of(c.precision) + " " +
           (c.method == boundary::Method::ZouHe         ? "zou_he"
            : c.method == boundary::Method::Equilibrium ? "equilibrium"
            : c.method == boundary::Method::BounceBack  ? "bounce_back"
                                                        : "regularized") + " " + storage::name_of(c.pattern) +
           (c.scalar != lattice::CoupledKind::None ? " + " + std::string(lattice::name_of(c.scalar)) : "") +
           (c.storage != storage::Storage::Dense ? " sparse" : "");
}

backend::EngineSetup setup_for(const Combo& c) {
    auto s = test::every_boundary_channel(c.lattice, c.collision, c.equilibrium, c.precision, c.method, c.pattern);
    s.storage = c.storage;
    if (c.scalar == lattice::CoupledKind::ShanChen) {
        // The interaction at G = -3 (above the critical -4: strong forces, no phase
        // separation within the steps compared) with wetting walls and obstacle: by a wall
        // density, or (the bounce-back and regularized open faces) by the mirror image and
        // an adhesion (kernel/pseudopotential.hpp).
        s.scalar = c.scalar;
        s.shan_chen.g = -3.0;
        const bool imaged = c.method == boundary::Method::BounceBack || c.method == boundary::Method::Regularized;
        s.wall_density = imaged ? -1.0 : 0.7;
        s.adhesion = imaged ? 0.05 : 0.0;
        // The equilibrium faces' variant takes the inverse-exponential pseudopotential at
        // G = -6 (above its critical -e^2: strong forces, no separation): its branch of psi
        // (physics/shan_chen.hpp) on the GPU.
        if (c.method == boundary::Method::Equilibrium) {
            s.shan_chen.psi = physics::Pseudopotential::InverseExponential;
            s.shan_chen.g = -6.0;
        }
        // Every variant but the bounce-back faces' takes the mixed force (beta = 1.2:
        // its psi^2 sum, kernel/pseudopotential.hpp, at bulk, wall, image and open links).
        if (c.method != boundary::Method::BounceBack) s.shan_chen.mixing = 1.2;
    } else if (c.scalar == lattice::CoupledKind::ShanChenBinary) {
        // Two components with the faces the model offers (walls, free slip; no open or
        // moving faces: sim/case_check.cpp), the obstacle and the body force; B's density
        // wavy too (compare()), so that strong forces act from the first step and keep the
        // populations' scale near 1e-2, which the tolerances assume (with B uniform, the
        // flow died down to a scale of 1.4e-3 by step 60 and fp32's round-off on the O(1)
        // densities came out at 4e-4 of it). G = 0.6 keeps the mixture stable (G rho
        // below 2), so that no phase separation amplifies the round-off. Walls and obstacle
        // wet (adhesion 0.05: the images and the obstacle's normal of kernel/binary.hpp).
        using boundary::FaceType;
        s.scalar = c.scalar;
        s.shan_chen.psi = physics::Pseudopotential::Linear;
        s.shan_chen.g = 0.6;
        s.adhesion = 0.05;
        s.tau_b = 0.55;
        s.density_b = 0.3;
        s.forcing = physics::ForcingKind::Edm;
        test::set_faces(s, 0, FaceType::Wall, FaceType::FreeSlip);
        s.faces.type[boundary::YMax] = FaceType::Wall;
        s.faces.has_sponge = false;
        for (auto& layer : s.faces.sponge) layer = {};
    } else if (c.scalar == lattice::CoupledKind::FreeEnergy) {
        // The free energy with the faces the model offers (walls, free slip), the obstacle and
        // the body force; phi wavy (compare()), so that the chemical potential and the
        // pressure tensor act from the first step. Gamma (2a + 16 kappa / 3) = 0.3, inside the
        // stable range. Walls and obstacle wet at 60 degrees (the images and the
        // obstacle's normal of kernel/free_energy.hpp).
        using boundary::FaceType;
        s.scalar = c.scalar;
        s.free_energy = {0.02, 0.04, 1.0};
        s.wetting = physics::wetting_potential(s.free_energy, 3.14159265358979323846 / 3);
        s.tau_b = 0.55;
        s.tau_phi = 0.8;
        s.forcing = physics::ForcingKind::Edm;
        test::set_faces(s, 0, FaceType::Wall, FaceType::FreeSlip);
        s.faces.type[boundary::YMax] = FaceType::Wall;
        s.faces.has_sponge = false;
        for (auto& layer : s.faces.sponge) layer = {};
    } else if (c.scalar != lattice::CoupledKind::None) {
        // A coupled temperature with every thermal rule: an inflow temperature, a zero-gradient
        // outlet, a fixed-temperature wall, a heat-flux wall, a fixed-temperature obstacle,
        // and buoyancy.
        s.scalar = c.scalar;
        s.thermal.diffusivity = 0.03;
        s.thermal.lambda = 3.0 / 16.0;
        s.thermal.buoyancy[1] = 2e-4;
        s.thermal.initial = 0.25;
        using R = boundary::ScalarRule;
        s.thermal.faces.face[boundary::XMin] = {R::Fixed, 1.0};
        s.thermal.faces.face[boundary::XMax] = {R::ZeroGradient, 0};
        s.thermal.faces.face[boundary::YMin] = {R::Fixed, 0.5};
        s.thermal.faces.face[boundary::YMax] = {R::Flux, 1e-4};
        s.thermal.faces.obstacle[0] = {R::Fixed, -0.5};
    }
    return s;
}

double compare(const Combo& c, int steps) {
    const auto s = setup_for(c);
    auto cpu = backend::make_cpu_engine(s);
    auto gpu = backend::make_cuda_engine(s);
    test::initialize_wavy(*cpu, s);
    test::initialize_wavy(*gpu, s);
    if (c.scalar == lattice::CoupledKind::ShanChenBinary) {
        const auto n = s.grid.cells();
        std::vector<double> rho_b(n), rest(3 * n, 0.0);
        for (std::int64_t k = 0; k < n; ++k) rho_b[k] = 0.3 * (1 + 0.3 * std::sin(0.29 * double(k)));
        cpu->initialize_scalar(rho_b, rest);
        gpu->initialize_scalar(rho_b, rest);
    } else if (c.scalar == lattice::CoupledKind::FreeEnergy) {
        const auto n = s.grid.cells();
        std::vector<double> phi(n), rest(3 * n, 0.0);
        for (std::int64_t k = 0; k < n; ++k) phi[k] = 0.9 * std::sin(0.29 * double(k));
        cpu->initialize_scalar(phi, rest);
        gpu->initialize_scalar(phi, rest);
    }
    cpu->step(steps);
    gpu->step(steps);
    std::vector<double> fc, fg;
    cpu->populations(fc);
    gpu->populations(fg);
    EXPECT_EQ(fc.size(), fg.size());
    double diff = 0, scale = 0;
    for (std::size_t i = 0; i < fc.size(); ++i) {
        if (!std::isfinite(fg[i])) return INFINITY;
        diff = std::max(diff, std::abs(fg[i] - fc[i]));
        scale = std::max(scale, std::abs(fc[i]));
    }
    // The fields (computed on each backend) must agree too.
    std::vector<double> rc, uc, rg, ug;
    cpu->fields(rc, uc);
    gpu->fields(rg, ug);
    for (std::size_t i = 0; i < uc.size(); ++i) diff = std::max(diff, std::abs(ug[i] - uc[i]));
    if (lattice::is_multiphase(c.scalar)) {
        // The multiphase models' observers run the macro-field pass first on each backend: the reductions
        // and the probes' samples (velocities with the interaction's half force) agree too.
        const auto oc = cpu->observe(1e-6, 10, false), og = gpu->observe(1e-6, 10, false);
        diff = std::max({diff, std::abs(og.u_max - oc.u_max), std::abs(og.rho_max - oc.rho_max) / oc.rho_max,
                         std::abs(og.mass - oc.mass) / oc.mass});
        const std::vector<std::int64_t> cells = {0, std::int64_t(rc.size() / 2), std::int64_t(rc.size()) - 1};
        const auto sc = cpu->sample(cells), sg = gpu->sample(cells);
        for (std::size_t i = 0; i < sc.size(); ++i) diff = std::max(diff, std::abs(sg[i] - sc[i]));
    }
    // A coupled scalar's field, relative to its own scale (theta ~ 1 here).
    std::vector<double> tc, tg;
    cpu->scalar_field(tc);
    gpu->scalar_field(tg);
    EXPECT_EQ(tc.size(), tg.size());
    double tdiff = 0, tscale = 0;
    for (std::size_t i = 0; i < tc.size() && i < tg.size(); ++i) {
        if (!std::isfinite(tg[i])) return INFINITY;
        tdiff = std::max(tdiff, std::abs(tg[i] - tc[i]));
        tscale = std::max(tscale, std::abs(tc[i]));
    }
    return std::max(diff / scale, tscale > 0 ? tdiff / tscale : 0.0);
}

double tolerance(storage::Precision p) {
    switch (p) {
        case storage::Precision::FP64: return 1e-12;
        case storage::Precision::FP32: return 2e-5;
        case storage::Precision::FP16: break;
    }
    return 5e-3;
}

TEST(GpuOracle, EveryCombinationMatchesCpu) {
    const auto gpus = backend::cuda_devices();
    if (gpus.empty()) GTEST_SKIP() << "no CUDA GPU on this machine: GPU-vs-CPU tests skipped";
    std::cout << "  GPU: " << gpus[0].name << "\n";
    // Every configuration of the table (src/configurations.txt) with every open-face method.
    int count = 0, skipped = 0;
    for (const backend::Configuration& config : backend::offered_configurations())
        for (auto method : {boundary::Method::ZouHe, boundary::Method::Equilibrium, boundary::Method::Regularized,
                            boundary::Method::BounceBack}) {
            if (!backend::cuda_engine_built(config)) {
                ++skipped;
                continue;
            }
            // D3Q13 has no regularized faces (its Hermite projection needs fourth moments).
            if (config.lattice == lattice::Kind::D3Q13 && method == boundary::Method::Regularized) continue;
            // Binary fluids: no open faces, so one method stands for all.
            if (lattice::is_binary_fluid(config.scalar) && method != boundary::Method::ZouHe) continue;
            // Entropic's alpha is the root of the H-condition to rounding (a continuous function
            // of f), so the backends agree like the other collisions do.
            const Combo c{config.lattice, config.collision, config.equilibrium, config.precision,
                          method,         config.pattern,   config.scalar,      config.storage};
            const double err = compare(c, 60);
            // Two components: the collision divides by each component's density and trades
            // momentum between them, which amplifies round-off (a 1e-15 change of the initial
            // density grew 14-fold in 60 steps on the CPU alone; this run on the H100: fp64
            // 2.2e-14 where one component gives 4e-15, fp32 5.6e-5). The free energy does not
            // amplify (a 1e-9 change of phi left 1.2e-10 after 60 steps, CPU), but its order
            // parameter sits at the rest velocity (g_0 ~ phi, up to 0.9 here), 20 times the
            // population scale the difference is measured against (0.04): each fp32 rounding
            // of it is 1.5e-6 of that scale (H100: fp64 2.8e-14, fp32 6.9e-5). fp32's
            // tolerance for both is 2e-4.
            const double tol = lattice::is_binary_fluid(config.scalar) && config.precision == storage::Precision::FP32
                                   ? 2e-4
                                   : tolerance(config.precision);
            EXPECT_LT(err, tol) << name_of(c);
            std::printf("  %-62s max rel diff %.2e (tol %.0e)\n", name_of(c).c_str(), err, tol);
            ++count;
        }
    std::cout << "  " << count << " combinations compared\n";
    // A build with a subset of the CUDA engines (BARRACUDA_CUDA_UNITS) compares what it holds.
    if (skipped) std::cout << "  " << skipped << " combinations skipped: their engines are not in this build\n";
    EXPECT_GT(count, 0) << "this build holds no CUDA engine the oracle covers";
}

TEST(GpuOracle, ObservationsMatchCpu) {
    if (backend::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU on this machine";
    if (!test::gpu_engine_built({lattice::Kind::D3Q19, storage::Precision::FP64, physics::EquilibriumKind::Compressible, physics::CollisionKind::BGK, storage::Pattern::TwoCopy})) GTEST_SKIP() << "D3Q19 FP64 not built";
    const Combo c{lattice::Kind::D3Q19, physics::CollisionKind::BGK, physics::EquilibriumKind::Compressible,
                  storage::Precision::FP64, boundary::Method::ZouHe};
    const auto s = setup_for(c);
    auto cpu = backend::make_cpu_engine(s);
    auto gpu = backend::make_cuda_engine(s);
    test::initialize_at_rest(*cpu, s);
    test::initialize_at_rest(*gpu, s);
    cpu->step(40), gpu->step(40);
    const auto a = cpu->observe(0.5, 1.5, true), b = gpu->observe(0.5, 1.5, true);
    EXPECT_NEAR(a.rho_min, b.rho_min, 1e-12);
    EXPECT_NEAR(a.rho_max, b.rho_max, 1e-12);
    EXPECT_NEAR(a.u_max, b.u_max, 1e-12);
    EXPECT_NEAR(a.norm_l2, b.norm_l2, 1e-10 * a.norm_l2);
    EXPECT_EQ(a.bad_cell, b.bad_cell);
}

}  // namespace
}  // namespace barracuda

namespace barracuda {
namespace {

// The GPU's uniform initialisation (filled on the device, for grids too large
// to stage on the host) against the CPU's, through both patterns, with every
// boundary rule: the same tolerances as above.
TEST(GpuOracle, UniformInitialisationMatchesCpu) {
    if (backend::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU on this machine";
    for (auto pattern : {storage::Pattern::TwoCopy, storage::Pattern::InPlace})
        for (auto prec : {storage::Precision::FP64, storage::Precision::FP16}) {
            if (!test::gpu_engine_built({lattice::Kind::D3Q19, prec, physics::EquilibriumKind::Compressible, physics::CollisionKind::BGK, pattern})) continue;
            const auto s = test::every_boundary_channel(lattice::Kind::D3Q19, physics::CollisionKind::BGK,
                                                        physics::EquilibriumKind::Compressible, prec,
                                                        boundary::Method::ZouHe, pattern);
            auto cpu = backend::make_cpu_engine(s);
            auto gpu = backend::make_cuda_engine(s);
            cpu->initialize_uniform(1.01, {0.03, -0.01, 0.02});
            gpu->initialize_uniform(1.01, {0.03, -0.01, 0.02});
            cpu->step(7), gpu->step(7);
            EXPECT_LT(test::max_relative_population_difference(*cpu, *gpu), tolerance(prec)) << storage::name_of(pattern) << " " << storage::name_of(prec);
        }
}

}  // namespace
}  // namespace barracuda


namespace barracuda {
namespace {

// Obstacle forces by momentum exchange (kernel/momentum_exchange.hpp) on both backends, for
// both streaming patterns and every precision, from the same non-uniform state
// after 40 steps with every boundary rule in play. The solid block of the
// channel is split into two obstacles (x = 8..9 and x = 10), so two link lists
// are reduced. Two checks:
//  1. Each backend's reduction equals the sum 2 c_i (f_i + w_i) over its links
//     computed here from that backend's own populations (the same stored values,
//     only the order of the double additions differs): 1e-12 of the sum of |terms|.
//  2. GPU against CPU: every population agrees to tolerance(prec) of the largest
//     shifted population (EveryCombinationMatchesCpu), so each force component
//     agrees to tolerance(prec) * max|f| * sum over the links of 2 |c_ia|.
template <class L>
void check_forces_against_populations(const char* what, backend::Engine& e, const backend::EngineSetup& s,
                                      double& max_f, std::vector<std::array<double, 3>>& link_weight) {
    std::vector<double> f;
    e.populations(f);
    const auto cells = s.grid.cells();
    max_f = 0;
    for (double v : f) max_f = std::max(max_f, std::abs(v));
    const auto forces = e.obstacle_forces();
    ASSERT_EQ(forces.size(), s.force_links.size()) << what;
    link_weight.assign(forces.size(), {0, 0, 0});
    for (std::size_t k = 0; k < forces.size(); ++k) {
        double sum[3] = {0, 0, 0}, abs_sum[3] = {0, 0, 0};
        for (const auto& link : s.force_links[k])
            for (int i = 0; i < L::Q; ++i) {
                if (!(link.mask & (1u << i))) continue;
                const double fi = f[std::size_t(i) * std::size_t(cells) + std::size_t(link.cell)] + L::w(i);
                for (int a = 0; a < 3; ++a) {
                    constexpr double v2 = 2.0 * lattice::cell_volume<L>();  // node volume 2 on D3Q13 (seed 000 eq. 12)
                    sum[a] += v2 * L::c(i, a) * fi;
                    abs_sum[a] += std::abs(v2 * L::c(i, a) * fi);
                    link_weight[k][std::size_t(a)] += v2 * std::abs(L::c(i, a));
                }
            }
        for (int a = 0; a < 3; ++a)
            EXPECT_NEAR(forces[k][std::size_t(a)], sum[a], 1e-12 * abs_sum[a] + 1e-300)
                << what << " obstacle " << k << " axis " << a;
    }
}

TEST(GpuOracle, ObstacleForcesMatchCpu) {
    if (backend::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU on this machine";
    for (auto lat : {lattice::Kind::D2Q9, lattice::Kind::D3Q19, lattice::Kind::D3Q13})
        for (auto pattern : {storage::Pattern::TwoCopy, storage::Pattern::InPlace})
            for (auto prec : {storage::Precision::FP64, storage::Precision::FP32, storage::Precision::FP16}) {
                if (!test::gpu_engine_built({lat, prec, physics::EquilibriumKind::Compressible, lat == lattice::Kind::D3Q13 ? physics::CollisionKind::MRT : physics::CollisionKind::BGK, pattern})) continue;
                auto s = test::every_boundary_channel(lat, lat == lattice::Kind::D3Q13 ? physics::CollisionKind::MRT : physics::CollisionKind::BGK,
                                                      physics::EquilibriumKind::Compressible, prec,
                                                      boundary::Method::ZouHe, pattern);
                std::vector<std::int32_t> owner(s.node_kind.size(), -1);
                for (int z = 0; z < s.grid.n[2]; ++z)
                    for (int y = 0; y < s.grid.n[1]; ++y)
                        for (int x = 0; x < s.grid.n[0]; ++x) {
                            if (!s.grid.holds(x, y, z)) continue;
                            const auto c = s.grid.index(x, y, z);
                            if (s.node_kind[c] == boundary::Solid) owner[c] = x < 10 ? 0 : 1;
                        }
                s.force_links = sim::force_links(lat, s.grid, s.node_kind, owner, {0, 1}, 2);
                ASSERT_FALSE(s.force_links[0].empty());
                ASSERT_FALSE(s.force_links[1].empty());
                auto cpu = backend::make_cpu_engine(s);
                auto gpu = backend::make_cuda_engine(s);
                test::initialize_wavy(*cpu, s);
                test::initialize_wavy(*gpu, s);
                cpu->step(40), gpu->step(40);
                const std::string what = std::string(lattice::name_of(lat)) + " " + storage::name_of(pattern) + " " +
                                         storage::name_of(prec);
                double max_cpu = 0, max_gpu = 0;
                std::vector<std::array<double, 3>> weight;
                lattice::visit(lat, [&](auto l) {
                    using L = decltype(l);
                    check_forces_against_populations<L>((what + " cpu").c_str(), *cpu, s, max_cpu, weight);
                    check_forces_against_populations<L>((what + " gpu").c_str(), *gpu, s, max_gpu, weight);
                });
                const auto fc = cpu->obstacle_forces(), fg = gpu->obstacle_forces();
                double worst = 0;
                for (std::size_t k = 0; k < 2; ++k)
                    for (std::size_t a = 0; a < 3; ++a) {
                        const double bound = tolerance(prec) * max_cpu * weight[k][a];
                        EXPECT_LE(std::abs(fg[k][a] - fc[k][a]), bound + 1e-300) << what << " obstacle " << k;
                        if (bound > 0) worst = std::max(worst, std::abs(fg[k][a] - fc[k][a]) / bound);
                    }
                std::printf("  forces %-22s cpu (%.6e, %.6e)  gpu (%.6e, %.6e)  diff %.2f of the bound\n",
                            what.c_str(), fc[0][0], fc[1][0], fg[0][0], fg[1][0], worst);
            }
}

}  // namespace
}  // namespace barracuda
