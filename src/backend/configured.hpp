// The compile-time types of a configuration (backend/configuration.hpp): what
// the generated engine units instantiate for each row of the configuration
// table, and the collision operators made from an EngineSetup's parameters.
// Only this header turns run-time names into types; nothing dispatches over
// a product of choices any more.
#pragma once
#include <memory>
#include <type_traits>

#include "backend/configuration.hpp"
#include "backend/engine.hpp"
#include "physics/collision_bgk.hpp"
#include "physics/collision_entropic.hpp"
#include "physics/collision_mrt.hpp"
#include "physics/collision_regularized.hpp"
#include "physics/collision_trt.hpp"
#include "physics/equilibrium.hpp"
#include "physics/les.hpp"
#include "storage/half.hpp"
#include "storage/in_place.hpp"
#include "storage/two_copy.hpp"

namespace barracuda::backend {

/// Storage type S and arithmetic type T of a precision (FP16 storage computes in FP32).
template <storage::Precision P>
struct PrecisionTypes {
    using storage_type = float;
    using compute_type = float;
};
template <>
struct PrecisionTypes<storage::Precision::FP64> {
    using storage_type = double;
    using compute_type = double;
};
template <>
struct PrecisionTypes<storage::Precision::FP16> {
    using storage_type = storage::Half;
    using compute_type = float;
};

template <physics::EquilibriumKind E>
using EquilibriumType =
    std::conditional_t<E == physics::EquilibriumKind::Compressible, physics::Compressible, physics::Incompressible>;

template <physics::CollisionKind C, class L, class Eq, class T>
struct CollisionType;
template <class L, class Eq, class T>
struct CollisionType<physics::CollisionKind::BGK, L, Eq, T> {
    using type = physics::Bgk<L, Eq, T>;
};
template <class L, class Eq, class T>
struct CollisionType<physics::CollisionKind::TRT, L, Eq, T> {
    using type = physics::Trt<L, Eq, T>;
};
template <class L, class Eq, class T>
struct CollisionType<physics::CollisionKind::MRT, L, Eq, T> {
    using type = physics::Mrt<L, Eq, T>;
};
template <class L, class Eq, class T>
struct CollisionType<physics::CollisionKind::Regularized, L, Eq, T> {
    using type = physics::Regularized<L, Eq, T>;
};
template <class L, class Eq, class T>
struct CollisionType<physics::CollisionKind::Entropic, L, Eq, T> {
    static_assert(physics::HasEntropic<L> && std::is_same_v<Eq, physics::Compressible>,
                  "configuration table: entropic is offered on D2Q9 and D3Q27 with the compressible equilibrium only");
    using type = physics::Entropic<L, T>;
};

/// The types of one configuration. A row of the table that names a combination
/// the physics does not have fails here, at build time, with the reason.
template <lattice::Kind K, storage::Precision P, physics::EquilibriumKind E, physics::CollisionKind C,
          storage::Pattern Pat, lattice::CoupledKind X = lattice::CoupledKind::None,
          storage::Storage St = storage::Storage::Dense>
struct Configured {
    using Lattice = lattice::Type<K>;
    using Scalar = lattice::ScalarType<X>;  // lattice::NoScalar: flow only
    static_assert(lattice::dimensions_of(X) == 0 || lattice::dimensions_of(X) == lattice::dimensions_of(K),
                  "configuration table: a scalar lattice has the flow lattice's dimensions");
    static_assert(X == lattice::CoupledKind::None || K != lattice::Kind::D3Q13,
                  "configuration table: D3Q13 has no axis velocities for a scalar's links");
    using S = typename PrecisionTypes<P>::storage_type;
    using T = typename PrecisionTypes<P>::compute_type;
    using Equilibrium = EquilibriumType<E>;
    static_assert(K != lattice::Kind::D3Q13 || C == physics::CollisionKind::MRT,
                  "configuration table: D3Q13 offers mrt only (lattice/d3q13.hpp)");
    using Collision = typename CollisionType<C, Lattice, Equilibrium, T>::type;
    static_assert(St == storage::Storage::Dense || (Lattice::D == 3 && !lattice::sublattice_v<Lattice>),
                  "configuration table: sparse storage (4x4x4 tiles) is for 3D lattices that store every node");
    using Layout = storage::LayoutFor<Lattice, St>;
    using Store = std::conditional_t<Pat == storage::Pattern::TwoCopy, storage::TwoCopy<Lattice, S, T, Layout>,
                                     storage::InPlace<Lattice, S, T, -1, Layout>>;
};

/// The engine Engine<lattice, equilibrium, collision, store, scalar> of one configuration
/// (each backend's make_cpu / make_cuda, backend/makers.hpp).
template <template <class, class, class, class, class> class EngineOf, lattice::Kind K, storage::Precision P,
          physics::EquilibriumKind E, physics::CollisionKind C, storage::Pattern Pat, lattice::CoupledKind Sc,
          storage::Storage St>
std::unique_ptr<Engine> make_configured(const EngineSetup& s) {
    using X = Configured<K, P, E, C, Pat, Sc, St>;
    return std::make_unique<EngineOf<typename X::Lattice, typename X::Equilibrium, typename X::Collision,
                                     typename X::Store, typename X::Scalar>>(s);
}

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

}  // namespace barracuda::backend
