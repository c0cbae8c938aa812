// Run-time names of the physics choices. The configuration table
// (src/configurations.txt, backend/offered.hpp) says which combinations exist;
// backend/configured.hpp maps them to the compile-time types.
#pragma once
#include <string>

namespace barracuda::physics {

enum class CollisionKind { BGK, TRT, MRT, Regularized, Entropic };
enum class EquilibriumKind { Compressible, Incompressible };
/// How a body force enters: Guo's source term (physics/forcing.hpp) or Kupershtokh's
/// exact difference method (physics/forcing.hpp, edm_source).
enum class ForcingKind { Guo, Edm };

constexpr const char* name_of(CollisionKind c) {
    switch (c) {
        case CollisionKind::BGK: return "bgk";
        case CollisionKind::TRT: return "trt";
        case CollisionKind::MRT: return "mrt";
        case CollisionKind::Regularized: return "regularized";
        case CollisionKind::Entropic: break;
    }
    return "entropic";
}
constexpr const char* name_of(ForcingKind f) { return f == ForcingKind::Guo ? "guo" : "edm"; }
constexpr const char* name_of(EquilibriumKind e) {
    return e == EquilibriumKind::Compressible ? "compressible" : "incompressible";
}

/// Why a collision is not offered on D3Q13 (lattice/d3q13.hpp).
inline std::string d3q13_refusal(CollisionKind c) {
    return std::string("model.collision = \"") + name_of(c) +
           "\": lattice D3Q13 offers \"mrt\" only (its 13 velocities need MRT's two stress rates for an isotropic "
           "viscosity; d'Humieres, Bouzidi & Lallemand 2001)";
}

}  // namespace barracuda::physics
