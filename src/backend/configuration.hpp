// A configuration: the compile-time choices of a fused stream-collide
// engine (lattice, storage precision, equilibrium, collision, streaming
// pattern, and the lattice of a coupled scalar, if any). Which configurations exist is declared once, in the table
// src/configurations.txt; backend/offered.hpp reads it.
#pragma once
#include <array>
#include <string>
#include <string_view>

#include "lattice/lattice.hpp"
#include "lattice/scalar_sets.hpp"
#include "physics/model.hpp"
#include "storage/layout.hpp"
#include "storage/pattern.hpp"
#include "storage/precision.hpp"

namespace barracuda::backend {

struct Configuration {
    lattice::Kind lattice = lattice::Kind::D3Q19;
    storage::Precision precision = storage::Precision::FP32;
    physics::EquilibriumKind equilibrium = physics::EquilibriumKind::Compressible;
    physics::CollisionKind collision = physics::CollisionKind::BGK;
    storage::Pattern pattern = storage::Pattern::TwoCopy;
    lattice::CoupledKind scalar = lattice::CoupledKind::None;
    storage::Storage storage = storage::Storage::Dense;  // sparse: 4x4x4 tiles (storage/layout.hpp)

    friend constexpr bool operator==(const Configuration&, const Configuration&) = default;
};

/// "D3Q19 fp32 compressible bgk two-copy" (and " D3Q7" with a scalar): the table's
/// words, in its column order.
inline std::string name_of(const Configuration& c) {
    std::string s = std::string(lattice::name_of(c.lattice)) + " " + storage::name_of(c.precision) + " " +
                    physics::name_of(c.equilibrium) + " " + physics::name_of(c.collision) + " " +
                    storage::name_of(c.pattern);
    if (c.scalar != lattice::CoupledKind::None) s += " " + std::string(lattice::name_of(c.scalar));
    if (c.storage != storage::Storage::Dense) s += std::string(" ") + storage::name_of(c.storage);
    return s;
}

/// Every value of each column, for messages and for loops over alternatives.
inline constexpr std::array all_lattices{lattice::Kind::D2Q9, lattice::Kind::D3Q13, lattice::Kind::D3Q15,
                                         lattice::Kind::D3Q19, lattice::Kind::D3Q27};
inline constexpr std::array all_precisions{storage::Precision::FP64, storage::Precision::FP32,
                                           storage::Precision::FP16};
inline constexpr std::array all_equilibria{physics::EquilibriumKind::Compressible,
                                           physics::EquilibriumKind::Incompressible};
inline constexpr std::array all_collisions{physics::CollisionKind::BGK, physics::CollisionKind::TRT,
                                           physics::CollisionKind::MRT, physics::CollisionKind::Regularized,
                                           physics::CollisionKind::Entropic};
inline constexpr std::array all_patterns{storage::Pattern::TwoCopy, storage::Pattern::InPlace};
inline constexpr std::array all_storages{storage::Storage::Dense, storage::Storage::Sparse};
inline constexpr std::array all_scalars{lattice::CoupledKind::None, lattice::CoupledKind::D2Q4, lattice::CoupledKind::D2Q5,
                                        lattice::CoupledKind::D3Q6, lattice::CoupledKind::D3Q7,
                                        lattice::CoupledKind::ShanChen, lattice::CoupledKind::ShanChenBinary,
                                        lattice::CoupledKind::FreeEnergy};

}  // namespace barracuda::backend
