// The registry: maps an EngineSetup's run-time choices to the compile-time
// types of the fused kernel, and says which combinations are offered.
// The CPU backend instantiates one lattice per translation unit, the CUDA
// backend one lattice and precision per unit (compile time: the device build
// runs on 16 cores, CI on 2).
#pragma once
#include <cmath>
#include <string>

#include "backend/engine.hpp"
#include "common/error.hpp"
#include <string_view>
#include <type_traits>

#include "physics/collision_bgk.hpp"
#include "physics/collision_entropic.hpp"
#include "physics/collision_mrt.hpp"
#include "physics/collision_regularized.hpp"
#include "physics/collision_trt.hpp"
#include "physics/equilibrium.hpp"
#include "storage/half.hpp"
#include "storage/in_place.hpp"
#include "storage/two_copy.hpp"

namespace barracuda::backend {

/// Collision operator of type C with the parameters of the setup.
template <class C>
struct CollisionFactory;

template <class L, class Eq, class T>
struct CollisionFactory<physics::Bgk<L, Eq, T>> {
    static physics::Bgk<L, Eq, T> make(const EngineSetup& s) {
        return {T(1.0 / s.tau), T(physics::smagorinsky_factor<L>(s.smagorinsky)), T(s.tau)};
    }
};
template <class L, class Eq, class T>
struct CollisionFactory<physics::Trt<L, Eq, T>> {
    static physics::Trt<L, Eq, T> make(const EngineSetup& s) {
        return physics::Trt<L, Eq, T>::from_tau(s.tau, s.trt_magic, physics::smagorinsky_factor<L>(s.smagorinsky));
    }
};
template <class L, class Eq, class T>
struct CollisionFactory<physics::Regularized<L, Eq, T>> {
    static physics::Regularized<L, Eq, T> make(const EngineSetup& s) {
        return {T(1.0 / s.tau), T(physics::smagorinsky_factor<L>(s.smagorinsky)), T(s.tau)};
    }
};
template <class L, class T>
struct CollisionFactory<physics::Entropic<L, T>> {
    static physics::Entropic<L, T> make(const EngineSetup& s) { return {T(0.5 / s.tau)}; }
};
template <class L, class Eq, class T>
struct CollisionFactory<physics::Mrt<L, Eq, T>> {
    static physics::Mrt<L, Eq, T> make(const EngineSetup& s) {
        physics::MrtRateSet r = s.mrt;
        r.shear = 1.0 / s.tau;
        return physics::Mrt<L, Eq, T>::from_rates(r, physics::smagorinsky_factor<L>(s.smagorinsky));
    }
};

/// Why the entropic collision is not offered for a lattice / equilibrium (empty: it is).
inline std::string entropic_refusal(std::string_view lattice, std::string_view equilibrium) {
    if (lattice != "D2Q9" && lattice != "D3Q27")
        return "model.collision = \"entropic\": offered for D2Q9 and D3Q27 (whose entropic equilibrium has a closed "
               "form), not for " + std::string(lattice);
    if (equilibrium != "compressible")
        return "model.collision = \"entropic\": has its own (compressible) equilibrium; model.equilibrium = \"" +
               std::string(equilibrium) + "\" does not apply";
    return "";
}

/// Calls make.template operator()<S, T>() for the storage precision p: S is the
/// storage type, T the arithmetic type (FP16 storage computes in FP32).
template <class Make>
auto on_storage(storage::Precision p, Make&& make) {
    switch (p) {
        case storage::Precision::FP64: return make.template operator()<double, double>();
        case storage::Precision::FP32: break;
        case storage::Precision::FP16: return make.template operator()<storage::Half, float>();
    }
    return make.template operator()<float, float>();
}

/// Calls maker.template operator()<L, Eq, Collision, Store>() for the setup's
/// choices on lattice L with storage type S and arithmetic type T, where Store is
/// the streaming pattern over them (storage/two_copy.hpp, storage/in_place.hpp);
/// throws CaseError for a combination not offered. The CUDA backend instantiates
/// one (L, S, T) per translation unit, so that its build spreads over the cores.
template <class L, class S, class T, class Maker>
auto dispatch_on_storage(const EngineSetup& s, Maker&& maker) {
    auto with_eq = [&]<class Eq>() {
        // Lat is L made dependent: Entropic<L, T> must only be formed for the lattices
        // that offer it, and with L and T both known here it would be checked at once.
        auto with_store = [&]<class Store, class Lat = L>() {
            switch (s.collision) {
                case physics::CollisionKind::BGK:
                    return maker.template operator()<L, Eq, physics::Bgk<L, Eq, T>, Store>();
                case physics::CollisionKind::TRT:
                    return maker.template operator()<L, Eq, physics::Trt<L, Eq, T>, Store>();
                case physics::CollisionKind::Regularized:
                    return maker.template operator()<L, Eq, physics::Regularized<L, Eq, T>, Store>();
                case physics::CollisionKind::Entropic:
                    // The closed-form entropic equilibrium: D2Q9 and D3Q27, compressible only.
                    if constexpr (physics::HasEntropic<Lat> && std::is_same_v<Eq, physics::Compressible>)
                        return maker.template operator()<L, Eq, physics::Entropic<Lat, T>, Store>();
                    else
                        throw CaseError(entropic_refusal(L::name, Eq::name));
                case physics::CollisionKind::MRT: break;
            }
            static_assert(physics::HasMrt<L>, "every lattice has an MRT basis (physics/mrt_basis.hpp)");
            return maker.template operator()<L, Eq, physics::Mrt<L, Eq, T>, Store>();
        };
        if constexpr (std::is_same_v<L, lattice::D3Q13>) {
            // Only MRT gives D3Q13 an isotropic viscosity (lattice/d3q13.hpp): no other collision is built for it.
            auto d3q13_store = [&]<class Store>() {
                if (s.collision != physics::CollisionKind::MRT) throw CaseError(physics::d3q13_refusal(s.collision));
                return maker.template operator()<L, Eq, physics::Mrt<L, Eq, T>, Store>();
            };
            if (s.pattern == storage::Pattern::InPlace)
                return d3q13_store.template operator()<storage::InPlace<L, S, T>>();
            return d3q13_store.template operator()<storage::TwoCopy<L, S, T>>();
        } else {
            if (s.pattern == storage::Pattern::InPlace)
                return with_store.template operator()<storage::InPlace<L, S, T>>();
            return with_store.template operator()<storage::TwoCopy<L, S, T>>();
        }
    };
    if (s.equilibrium == physics::EquilibriumKind::Incompressible)
        return with_eq.template operator()<physics::Incompressible>();
    return with_eq.template operator()<physics::Compressible>();
}

/// dispatch_on_storage for every precision on lattice L (the CPU backend: one
/// translation unit per lattice).
template <class L, class Maker>
auto dispatch_on_lattice(const EngineSetup& s, Maker&& maker) {
    return on_storage(s.precision, [&]<class S, class T>() { return dispatch_on_storage<L, S, T>(s, maker); });
}

}  // namespace barracuda::backend
