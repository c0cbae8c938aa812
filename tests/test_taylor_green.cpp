// 2D Taylor-Green vortex on a periodic D2Q9 box through the CPU engine
// (analytic solution: ../shared/reference/README.md, "2D Taylor-Green vortex"):
//   u = -u0 cos(kx) sin(ky) e^{-2 nu k^2 t},  v = u0 sin(kx) cos(ky) e^{-2 nu k^2 t},
//   p = -(rho0 u0^2 / 4)(cos 2kx + cos 2ky) e^{-4 nu k^2 t},   k = 2 pi / N,
// scaled from [0, 2 pi)^2 to N nodes. Node (i, j) sits at x = i, y = j; the
// initial density is rho = 1 + p / cs2 (rho0 = 1), the populations start at
// equilibrium. nu = cs2 (tau - 1/2).
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <vector>

#include "backend/engine.hpp"
#include "support.hpp"

namespace barracuda {
namespace {

using physics::CollisionKind;
using physics::EquilibriumKind;

constexpr double kPi = 3.14159265358979323846;
constexpr double kCs2 = 1.0 / 3.0;

backend::EngineSetup periodic_square(int N, double tau, CollisionKind col, EquilibriumKind eq) {
    auto s = test::periodic_box(lattice::Kind::D2Q9, N, N, 1, tau, storage::Precision::FP64, col);
    s.equilibrium = eq;  // MRT rates of Lallemand & Luo 2000 come with periodic_box
    return s;
}

/// The vortex of amplitude u0 on an N x N box: an engine started at t = 0.
struct Vortex {
    int N;
    double u0, tau, k, nu;
    std::unique_ptr<backend::Engine> engine;

    Vortex(int n, double amplitude, double relaxation, CollisionKind col = CollisionKind::BGK,
           EquilibriumKind eq = EquilibriumKind::Compressible)
        : N(n), u0(amplitude), tau(relaxation), k(2 * kPi / n), nu(kCs2 * (relaxation - 0.5)) {
        const auto s = periodic_square(N, tau, col, eq);
        std::vector<double> rho(s.grid.cells()), u(3 * s.grid.cells(), 0.0);
        for (int y = 0; y < N; ++y)
            for (int x = 0; x < N; ++x) {
                const auto c = s.grid.index(x, y, 0);
                const double p = -(u0 * u0 / 4) * (std::cos(2 * k * x) + std::cos(2 * k * y));
                rho[c] = 1 + p / kCs2;
                u[3 * c] = -u0 * std::cos(k * x) * std::sin(k * y);
                u[3 * c + 1] = u0 * std::sin(k * x) * std::cos(k * y);
            }
        engine = backend::make_cpu_engine(s);
        engine->initialize(rho, u);
    }

    /// sum over the nodes of |u|^2 (twice the kinetic energy for rho = 1).
    double energy() {
        std::vector<double> rho, u;
        engine->fields(rho, u);
        double e = 0;
        for (int c = 0; c < N * N; ++c) e += u[3 * c] * u[3 * c] + u[3 * c + 1] * u[3 * c + 1];
        return e;
    }

    /// ||u - u_exact(t)||_2 / ||u_exact(t)||_2 over the nodes.
    double velocity_error(std::int64_t t) {
        std::vector<double> rho, u;
        engine->fields(rho, u);
        const double decay = std::exp(-2 * nu * k * k * double(t));
        double num = 0, den = 0;
        for (int y = 0; y < N; ++y)
            for (int x = 0; x < N; ++x) {
                const int c = x + N * y;
                const double ue = -u0 * decay * std::cos(k * x) * std::sin(k * y);
                const double ve = u0 * decay * std::sin(k * x) * std::cos(k * y);
                num += (u[3 * c] - ue) * (u[3 * c] - ue) + (u[3 * c + 1] - ve) * (u[3 * c + 1] - ve);
                den += ue * ue + ve * ve;
            }
        return std::sqrt(num / den);
    }
};

/// Decay rate of the kinetic energy, -d ln E / dt, between t1 and t2.
double energy_decay_rate(Vortex& v, std::int64_t t1, std::int64_t t2) {
    v.engine->step(t1);
    const double e1 = v.energy();
    v.engine->step(t2 - t1);
    const double e2 = v.energy();
    return -std::log(e2 / e1) / double(t2 - t1);
}

TEST(TaylorGreen, KineticEnergyDecayRate) {
    // E ~ exp(-4 nu k^2 t). N = 64, u0 = 0.01 (Ma = 0.017), BGK, FP64. The rate
    // is measured between t = 100 and t = 1000 (E falls by e^-3.5): the equilibrium
    // start excites non-hydrodynamic modes that die within a few tens of steps;
    // with the pressure field set, the sound it leaves is O(Ma^2) weak and lives
    // at wave numbers (2k, 0), (0, 2k), orthogonal to the vortex, so its share
    // of E is O(Ma^4).
    // What remains is the O(k^2) truncation error of the scheme, ~1e-3 at N = 64;
    // the bound is the brief's 1%.
    for (double tau : {0.8, 0.6}) {
        for (auto eq : {EquilibriumKind::Compressible, EquilibriumKind::Incompressible}) {
            Vortex v(64, 0.01, tau, CollisionKind::BGK, eq);
            const double rate = energy_decay_rate(v, 100, 1000);
            const double want = 4 * v.nu * v.k * v.k;
            const double err = std::abs(rate / want - 1);
            std::cout << "  Taylor-Green N=64 BGK " << physics::name_of(eq) << " tau " << tau
                      << ": energy decay rate " << rate << ", expected " << want << ", relative error " << err
                      << "\n";
            EXPECT_LT(err, 0.01) << physics::name_of(eq) << " tau " << tau;
        }
    }
}

/// L2 velocity error at the physical time where the velocity has decayed by
/// e^{-0.1 pi^2} (t = N^2 / 8 steps at nu = 0.1), diffusive scaling: tau fixed,
/// u0 = 0.02 * 32 / N (Re = u0 N / nu fixed, Ma ~ 1/N).
double convergence_error(int N, double tau, CollisionKind col) {
    Vortex v(N, 0.02 * 32.0 / N, tau, col);
    const std::int64_t steps = std::int64_t(N) * N / 8;
    v.engine->step(steps);
    return v.velocity_error(steps);
}

void check_second_order(CollisionKind col) {
    // In diffusive scaling every error of the scheme is O(1/N^2): the truncation
    // error O(k^2), the compressibility error O(Ma^2) and the initial layer of the
    // equilibrium start (missing non-equilibrium part ~ tau u0 k, acting for O(1)
    // steps on a force ~ k: O(k^2) relative). Observed order >= 1.8 is the bound.
    const double tau = 0.8;
    double prev = 0;
    for (int N : {16, 32, 64, 128}) {
        const double err = convergence_error(N, tau, col);
        std::cout << "  Taylor-Green " << physics::name_of(col) << " N=" << N << " L2 velocity error " << err;
        if (prev > 0) {
            const double order = std::log2(prev / err);
            std::cout << " observed order " << order;
            EXPECT_GE(order, 1.8) << physics::name_of(col) << " N = " << N / 2 << " -> " << N;
        }
        std::cout << "\n";
        prev = err;
    }
}

TEST(TaylorGreen, SecondOrderConvergenceBgk) { check_second_order(CollisionKind::BGK); }

}  // namespace
}  // namespace barracuda
