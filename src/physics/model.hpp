// Run-time names of the physics choices. The registry (backend/registry.hpp)
// maps them to the compile-time types that exist.
#pragma once

namespace barracuda::physics {

enum class CollisionKind { BGK, TRT, MRT, Regularized };
enum class EquilibriumKind { Compressible, Incompressible };

constexpr const char* name_of(CollisionKind c) {
    switch (c) {
        case CollisionKind::BGK: return "bgk";
        case CollisionKind::TRT: return "trt";
        case CollisionKind::MRT: return "mrt";
        case CollisionKind::Regularized: break;
    }
    return "regularized";
}
constexpr const char* name_of(EquilibriumKind e) {
    return e == EquilibriumKind::Compressible ? "compressible" : "incompressible";
}

}  // namespace barracuda::physics
