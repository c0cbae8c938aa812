// Output of a lattice that stores one sub-lattice (D3Q13, storage::Grid::sublattice)
// on every node of the box.
#pragma once
#include <cstdint>
#include <vector>

#include "storage/grid.hpp"

namespace barracuda::sim {

/// Fields over the stored nodes of a sub-lattice (rho: one value per node, u: three)
/// -> fields over every node of the box, x-fastest. A stored node keeps its values;
/// a node of the other sub-lattice (its six axis neighbours are all stored) takes the
/// mean of its fluid axis neighbours, a second-order interpolation in the bulk. Nodes
/// that `kind` (over the whole box, boundary::NodeKind) marks solid get rho = 1, u = 0,
/// as the engines report solids; so does a fluid node with no fluid axis neighbour.
void expand_sublattice(const storage::Grid& stored, const std::vector<std::uint8_t>& kind, const std::vector<double>& rho_stored,
                 const std::vector<double>& u_stored, std::vector<double>& rho, std::vector<double>& u);

}  // namespace barracuda::sim
