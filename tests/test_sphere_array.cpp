// Stokes flow through a periodic simple cubic array of spheres against Zick &
// Homsy (1982), J. Fluid Mech. 115, 13-26, Table 2 (the dimensionless drag K of a
// simple cubic array at solid fraction c; values as published): one sphere of
// radius a = L (3c / 4 pi)^(1/3) centred in a periodic cube of side L, driven by a
// body force g along x, stored sparse (seed 001's validation: flow through a
// sphere array, its Table 4).
//
// K = F / (6 pi mu a U), F the force per sphere that the mean pressure gradient
// G = rho g balances over the whole cell, F = rho g L^3 (Zick & Homsy's n F = G:
// a body force on the fluid only gives the same flow as the pressure gradient G,
// and the sphere's force differs only by the buoyancy G V_s that the body-force
// formulation leaves out), U the superficial velocity (the mean of u_x over the
// cell, solid nodes counted as zero).
//
// TRT with Lambda = 3/16 (walls where bounce-back puts them, for any tau) and
// interpolated bounce-back on the sphere (Bouzidi et al. 2001): the sphere's
// surface where it cuts each link, not a staircase.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "io/case_file.hpp"
#include "sim/simulation.hpp"

namespace barracuda {
namespace {

constexpr double pi = 3.14159265358979323846;

struct ArrayRun {
    double K = 0;
    std::int64_t steps = 0;
};

/// The drag coefficient of the array at solid fraction c in a cube of n nodes.
ArrayRun simple_cubic(double c, int n, const char* storage) {
    const double nu = 1.0 / 6.0, g = 1e-6;
    const double a = n * std::cbrt(3.0 * c / (4.0 * pi)), mid = 0.5 * (n - 1);
    char text[1024];
    std::snprintf(text, sizeof text,
                  "[model]\nlattice = \"D3Q19\"\ncollision = \"trt\"\nprecision = \"fp64\"\nviscosity = %.17g\n"
                  "[domain]\nsize = [%d, %d, %d]\nperiodic = [true, true, true]\nstorage = \"%s\"\n"
                  "[force]\nbody = [%.17g, 0, 0]\n"
                  "[[obstacle]]\nname = \"sphere\"\nshape = \"sphere\"\ncenter = [%.17g, %.17g, %.17g]\n"
                  "radius = %.17g\nbounce_back = \"interpolated\"\n[output]\nformats = []\n",
                  nu, n, n, n, storage, g, mid, mid, mid, a);
    sim::Simulation s(io::parse_case_string(text), sim::BackendChoice::Cpu);
    ArrayRun out;
    double previous = 0;
    std::vector<double> rho, u;
    for (int chunk = 0; chunk < 200; ++chunk) {
        s.advance(250);
        out.steps += 250;
        s.engine().fields(rho, u);
        double sum = 0;
        for (std::size_t k = 0; k < rho.size(); ++k) sum += u[3 * k];  // solids report u = 0
        const double U = sum / double(rho.size());
        out.K = g * double(n) * n * n / (6 * pi * nu * a * U);
        // Steady: U changes by less than 1e-4 of itself over 250 steps. It approaches its
        // limit as exp(-t / T); measured, T is about 560 steps at c = 0.064 (6,500 steps took
        // U's change to 1e-5), so what is left is at most about 1.8 times the last change:
        // ~2e-4 of K, a hundredth of the 2% compared. (nu stays 1/6: interpolated
        // bounce-back's wall position depends on tau even with TRT; at nu = 1/2, K moved by
        // 1.3-1.4% towards the bar.)
        if (std::abs(U - previous) < 1e-4 * std::abs(U)) break;
        previous = U;
    }
    return out;
}

TEST(SphereArray, SimpleCubicDragAgainstZickHomsy) {
    // Zick & Homsy 1982, Table 2, simple cubic: (c, K).
    const double table[][2] = {{0.064, 2.810}, {0.125, 4.292}, {0.216, 7.442}};
    for (const auto& row : table) {
        const ArrayRun r = simple_cubic(row[0], 32, "sparse");
        const double err = r.K / row[1] - 1;
        std::printf("  c = %.3f: K = %.4f (Zick & Homsy %.3f), %+.2f%%, %lld steps\n", row[0], r.K, row[1], 100 * err,
                    static_cast<long long>(r.steps));
        // 2% (issue 22's bar) at 32^3: the sphere's radius is 7.8 to 11.3 cells here,
        // where interpolated bounce-back's second-order wall error is below 1%.
        EXPECT_LT(std::abs(err), 0.02) << "c = " << row[0];
    }
}

}  // namespace
}  // namespace barracuda
