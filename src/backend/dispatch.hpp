// The registry: maps an EngineSetup's run-time choices to the compile-time
// types of the fused kernel, and says which combinations are offered.
// Each backend instantiates one lattice per translation unit (compile time
// on a 2-core CI machine).
#pragma once
#include <string>

#include "backend/engine.hpp"
#include "common/error.hpp"
#include "physics/collision_bgk.hpp"
#include "physics/collision_mrt.hpp"
#include "physics/collision_trt.hpp"
#include "physics/equilibrium.hpp"

namespace barracuda::backend {

/// Collision operator of type C with the parameters of the setup.
template <class C>
struct CollisionFactory;

template <class L, class Eq, class T>
struct CollisionFactory<physics::Bgk<L, Eq, T>> {
    static physics::Bgk<L, Eq, T> make(const EngineSetup& s) { return {T(1.0 / s.tau)}; }
};
template <class L, class Eq, class T>
struct CollisionFactory<physics::Trt<L, Eq, T>> {
    static physics::Trt<L, Eq, T> make(const EngineSetup& s) {
        return physics::Trt<L, Eq, T>::from_tau(s.tau, s.trt_magic);
    }
};
template <class L, class Eq, class T>
struct CollisionFactory<physics::Mrt<L, Eq, T>> {
    static physics::Mrt<L, Eq, T> make(const EngineSetup& s) {
        physics::MrtRateSet r = s.mrt;
        r.shear = 1.0 / s.tau;
        return physics::Mrt<L, Eq, T>::from_rates(r);
    }
};

/// Calls maker.template operator()<L, Eq, Collision, StorageType>() for the setup's
/// choices on lattice L; throws CaseError for a combination not offered.
template <class L, class Maker>
auto dispatch_on_lattice(const EngineSetup& s, Maker&& maker) {
    auto with_eq = [&]<class Eq>() {
        auto with_precision = [&]<class S>() {
            using T = S;  // arithmetic in the storage precision (FP16 storage will compute in FP32)
            switch (s.collision) {
                case physics::CollisionKind::BGK:
                    return maker.template operator()<L, Eq, physics::Bgk<L, Eq, T>, S>();
                case physics::CollisionKind::TRT:
                    return maker.template operator()<L, Eq, physics::Trt<L, Eq, T>, S>();
                case physics::CollisionKind::MRT: break;
            }
            if constexpr (physics::HasMrt<L>) {
                return maker.template operator()<L, Eq, physics::Mrt<L, Eq, T>, S>();
            } else {
                throw CaseError(std::string("model.collision = \"mrt\": offered for D2Q9 and D3Q19, not for ") +
                                L::name);
                return maker.template operator()<L, Eq, physics::Bgk<L, Eq, T>, S>();  // unreachable; fixes the type
            }
        };
        if (s.precision == storage::Precision::FP64) return with_precision.template operator()<double>();
        return with_precision.template operator()<float>();
    };
    if (s.equilibrium == physics::EquilibriumKind::Incompressible)
        return with_eq.template operator()<physics::Incompressible>();
    return with_eq.template operator()<physics::Compressible>();
}

}  // namespace barracuda::backend
