// Cases for the sparse storage's tests (tests/test_sparse.cpp, tests/gpu/test_gpu_sparse.cpp):
// a porous box and a duct with every kind of boundary, as case text, and the same
// case with a given domain.storage.
#pragma once
#include <algorithm>
#include <random>
#include <string>

#include "io/case_file.hpp"
#include "sim/case_spec.hpp"

namespace barracuda::test {

/// A porous box: spheres at random places (some tiles wholly solid), a body force.
inline std::string porous_case(const std::string& model, int steps) {
    std::string text = "[model]\n" + model +
                       "\nviscosity = 0.05\n[domain]\nsize = [26, 22, 18]\nperiodic = [true, true, true]\n"
                       "[force]\nbody = [2e-5, 1e-6, 0]\n[run]\nsteps = " +
                       std::to_string(std::max(steps, 1)) + "\n[output]\nformats = []\n";
    std::mt19937 random(11);
    std::uniform_real_distribution<double> at(0, 1);
    for (int k = 0; k < 12; ++k) {
        text += "[[obstacle]]\nname = \"s" + std::to_string(k) + "\"\nshape = \"sphere\"\ncenter = [" +
                std::to_string(2 + 22 * at(random)) + ", " + std::to_string(2 + 18 * at(random)) + ", " +
                std::to_string(2 + 14 * at(random)) + "]\nradius = " + std::to_string(2.5 + 3 * at(random)) + "\n";
    }
    // A wholly solid slab: whole tiles to drop.
    text += "[[obstacle]]\nname = \"slab\"\nshape = \"box\"\nmin = [0, 0, 8]\nmax = [25, 21, 13]\n";
    return text;
}

/// A duct: walls, a Zou-He velocity inlet, a pressure outlet, a sphere with forces
/// (interpolated bounce-back), a moving box, and a solid block filling tiles.
inline std::string duct_case(const std::string& model, int steps) {
    return "[model]\n" + model +
           "\nviscosity = 0.04\n[domain]\nsize = [30, 14, 17]\n"
           "[boundary.x_min]\ntype = \"velocity\"\nvelocity = [0.04, 0, 0]\n"
           "[boundary.x_max]\ntype = \"pressure\"\n"
           "[[obstacle]]\nname = \"ball\"\nshape = \"sphere\"\ncenter = [9.3, 6.6, 8.1]\nradius = 3.2\n"
           "bounce_back = \"interpolated\"\n"
           "[[obstacle]]\nname = \"belt\"\nshape = \"box\"\nmin = [0, 0, 0]\nmax = [29, 1, 16]\nvelocity = [0.01, 0, 0]\n"
           "[[obstacle]]\nname = \"block\"\nshape = \"box\"\nmin = [0, 8, 10]\nmax = [29, 13, 16]\n"
           "[forces]\nobstacles = [\"ball\", \"block\"]\nreference_velocity = 0.04\nreference_area = 32\n[run]\nsteps = " +
           std::to_string(std::max(steps, 1)) + "\n[output]\nformats = []\n";
}

/// The porous box with a multiphase model (issue 23; two-phase flow in a rock, seed 001
/// with seed 003), D3Q19 fp32 at tau = 1 (these sharp blobs at a density ratio of 12-17
/// are the models' stable regime): a blob of one phase across the spheres, the body
/// force pushing it. `model`: "shan-chen" (G = -5), "shan-chen-binary" (G = 1.5) or
/// "free-energy" (wetting the obstacles at 60 degrees).
inline std::string multiphase_porous_case(const std::string& model, int steps) {
    const std::string blob = "(x - 12.5)^2 + (y - 10.5)^2 + (z - 3.5)^2 < 30";
    std::string text = porous_case("lattice = \"D3Q19\"\nprecision = \"fp32\"\ncollision = \"bgk\"", steps);
    text.replace(text.find("viscosity = 0.05"), 16, "viscosity = 0.16666666666666666");
    text += "[multiphase]\nmodel = \"" + model + "\"\n";
    if (model == "shan-chen") return text + "g = -5.0\n[initial]\ndensity = \"" + blob + " ? 1.93 : 0.16\"\n";
    if (model == "shan-chen-binary")
        return text + "g = 1.5\nviscosity_b = 0.125\n[initial]\ndensity = \"" + blob + " ? 0.06 : 1.0\"\ndensity_b = \"" +
               blob + " ? 1.0 : 0.06\"\n";
    return text + "viscosity_b = 0.1\ncontact_angle = 60\n[initial]\nphi = \"" + blob + " ? -1 : 1\"\n";
}

inline sim::CaseSpec with_storage(std::string text, const char* storage) {
    const auto at = text.find("[domain]\n") + 9;
    text.insert(at, std::string("storage = \"") + storage + "\"\n");
    return io::parse_case_string(text);
}

/// The duct with a coupled temperature (D3Q7, TRT flow): an inflow temperature, a
/// cooled wall and a heated sphere (anti-bounce-back) in place of the interpolated one.
inline std::string heated_duct_case(const std::string& streaming, int steps) {
    std::string text = duct_case("lattice = \"D3Q19\"\ncollision = \"trt\"\nstreaming = \"" + streaming + "\"", steps);
    text.replace(text.find("[boundary.x_max]"), 0, "temperature = 0.5\n");  // x_min's inflow
    text.replace(text.find("[[obstacle]]\nname = \"ball\""), 0,
                 "[boundary.y_max]\ntype = \"wall\"\ntemperature = -0.5\n"
                 "[thermal]\nlattice = \"D3Q7\"\nprandtl = 0.71\nexpansion = 0.01\ngravity = [0, -0.001, 0]\n");
    const std::string interpolated = "bounce_back = \"interpolated\"\n";
    text.replace(text.find(interpolated), interpolated.size(), "temperature = 1.0\n");
    return text;
}

}  // namespace barracuda::test
