// The box a lattice's populations fill: its sizes, periodic axes and layout
// (storage/layout.hpp: every node, or D3Q13's one sub-lattice when `sublattice`).
// Host code that holds the lattice as a run-time choice asks the grid; kernels
// ask the layout of their lattice, fixed at compile time (layout_of). Both
// answer with the same layout code.
#pragma once
#include <cstdint>

#include "common/hd.hpp"
#include "storage/layout.hpp"

namespace barracuda::storage {

struct Grid {
    int n[3];
    bool periodic[3];
    bool sublattice = false;  // one sub-lattice stored (SublatticeBox), for D3Q13

    BARRACUDA_HD DenseBox dense_box() const { return {{n[0], n[1], n[2]}, {periodic[0], periodic[1], periodic[2]}}; }
    BARRACUDA_HD SublatticeBox sublattice_box() const { return {{n[0], n[1], n[2]}, {periodic[0], periodic[1], periodic[2]}}; }

    /// Stored nodes per row along x.
    BARRACUDA_HD int row() const { return sublattice ? n[0] / 2 : n[0]; }
    BARRACUDA_HD index_t cells() const { return sublattice ? sublattice_box().cells() : dense_box().cells(); }
    /// Whether the node (x, y, z) of the box is stored.
    BARRACUDA_HD bool holds(int x, int y, int z) const { return sublattice ? sublattice_box().holds(x, y, z) : true; }
    BARRACUDA_HD index_t index(int x, int y, int z) const {
        return sublattice ? sublattice_box().index(x, y, z) : dense_box().index(x, y, z);
    }
    /// (x, y, z) of a cell index.
    BARRACUDA_HD void coordinates(index_t cell, int (&pos)[3]) const {
        if (sublattice) sublattice_box().position(cell, pos);
        else dense_box().position(cell, pos);
    }
};

/// The layout Layout (DenseBox or SublatticeBox, storage::LayoutOf<L>) of a grid.
template <class Layout>
BARRACUDA_HD Layout layout_of(const Grid& g) {
    return {{g.n[0], g.n[1], g.n[2]}, {g.periodic[0], g.periodic[1], g.periodic[2]}};
}

}  // namespace barracuda::storage
