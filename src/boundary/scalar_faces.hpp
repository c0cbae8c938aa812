// The scalar's (temperature's) boundary conditions: per box face and per
// numbered obstacle, as plain data the fused kernel takes by value. Where the
// flow has a wall, an open face or an obstacle, the scalar's link is completed
// by one of these rules (kernel/scalar.hpp), at the half-way point of the link
// as the flow's bounce-back:
//   Adiabatic     bounce-back, g_i = g*_opp(i): no flux through the link
//   Fixed         anti-bounce-back, g_i = -g*_opp(i) + 2 w_i theta_w: the value
//                 theta_w at the wall, second order (Ginzburg 2005; Zhang et al.
//                 2012, "General bounce-back scheme for concentration boundary
//                 condition in the lattice-Boltzmann method", PRE 85, 016701)
//   Flux          bounce-back plus the flux q entering the fluid through the link
//                 per step and per unit of wall area: g_i = g*_opp(i) + q (each
//                 scalar set has exactly one link through a face, its normal one)
//   ZeroGradient  where the flow leaves, the unknown g_i at its equilibrium with the
//                 node's own theta and u, theta solved from the known populations:
//                 what flows out is advected out, no diffusive flux crosses (an
//                 outlet); where the flow enters (backflow), g_i at equilibrium with
//                 `value` (the temperature outside). Local, so it is the same for
//                 both streaming patterns.
#pragma once
#include "common/hd.hpp"

namespace barracuda::boundary {

enum class ScalarRule : unsigned char { Adiabatic, Fixed, Flux, ZeroGradient };

inline constexpr const char* name_of(ScalarRule r) {
    switch (r) {
        case ScalarRule::Adiabatic: return "adiabatic";
        case ScalarRule::Fixed: return "fixed";
        case ScalarRule::Flux: return "flux";
        case ScalarRule::ZeroGradient: break;
    }
    return "zero_gradient";
}

struct ScalarCondition {
    ScalarRule rule = ScalarRule::Adiabatic;
    double value = 0;  // Fixed: theta_w; Flux: q (lattice units); ZeroGradient: theta of backflow
    bool operator==(const ScalarCondition&) const = default;
};

struct ScalarFaces {
    ScalarCondition face[6];
    /// Faces whose Fixed value varies over the face (an expression, sim/face_values.hpp):
    /// theta per node of the face's layer (boundary::Parameters::face_node); device memory
    /// on the GPU. Null: face[f].value everywhere.
    const double* values[6] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    /// Obstacles: row 0 for solid nodes without a number, row m for numbered obstacle m
    /// (kernel::moving_solid, bits 3-5 of the node class).
    static constexpr int rows = 8;
    ScalarCondition obstacle[rows];
};

}  // namespace barracuda::boundary
