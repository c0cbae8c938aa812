// Run-time names of the physics choices. The registry (backend/registry.hpp)
// maps them to the compile-time types that exist.
#pragma once

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

}  // namespace barracuda::physics
