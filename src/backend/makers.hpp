// The engine makers of the generated units: one explicit instantiation per
// configuration of the table (src/configurations.txt), in translation units
// of one lattice, precision and streaming pattern each (CMake generates them
// from cpu/cpu_unit.cpp.in and cuda/cuda_unit.cu.in), so that they compile
// in parallel. The offered table (offered.cpp) sees only these declarations and
// instantiates no kernel itself.
#pragma once
#include <memory>

#include "backend/configuration.hpp"
#include "backend/engine.hpp"

namespace barracuda::backend {

template <lattice::Kind K, storage::Precision P, physics::EquilibriumKind E, physics::CollisionKind C,
          storage::Pattern S, lattice::CoupledKind X, storage::Storage St>
std::unique_ptr<Engine> make_cpu(const EngineSetup& s);

template <lattice::Kind K, storage::Precision P, physics::EquilibriumKind E, physics::CollisionKind C,
          storage::Pattern S, lattice::CoupledKind X, storage::Storage St>
std::unique_ptr<Engine> make_cuda(const EngineSetup& s);

}  // namespace barracuda::backend
