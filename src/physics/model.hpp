// Run-time names of the physics choices. The registry (backend/registry.hpp)
// maps them to the compile-time types that exist.
#pragma once

namespace barracuda::physics {

enum class CollisionKind { BGK, TRT, MRT };
enum class EquilibriumKind { Compressible, Incompressible };

constexpr const char* name_of(CollisionKind c) {
    return c == CollisionKind::BGK ? "bgk" : (c == CollisionKind::TRT ? "trt" : "mrt");
}
constexpr const char* name_of(EquilibriumKind e) {
    return e == EquilibriumKind::Compressible ? "compressible" : "incompressible";
}

}  // namespace barracuda::physics
