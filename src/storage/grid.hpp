// The box a lattice's populations fill: its sizes, periodic axes and layout
// (storage/layout.hpp: every node, D3Q13's one sub-lattice when `sublattice`, or
// the tiles of a sparse geometry when `tiles` is set: storage/tiles.hpp).
// Host code that holds the lattice as a run-time choice asks the grid; kernels
// ask the layout of their lattice, fixed at compile time (layout_of). Both
// answer with the same layout code.
#pragma once
#include <cstdint>

#include <stdexcept>
#include <type_traits>

#include "common/hd.hpp"
#include "storage/layout.hpp"
#include "storage/tiles.hpp"

namespace barracuda::storage {

struct Grid {
    int n[3];
    bool periodic[3];
    bool sublattice = false;  // one sub-lattice stored (SublatticeBox), for D3Q13
    /// Sparse storage (TiledBox): the tile tables in the memory of whoever reads them
    /// (host tables on the host; a GPU engine's layout points at its copies). Null: dense.
    const TileTables* tiles = nullptr;

    BARRACUDA_HD DenseBox dense_box() const { return {{n[0], n[1], n[2]}, {periodic[0], periodic[1], periodic[2]}}; }
    BARRACUDA_HD SublatticeBox sublattice_box() const { return {{n[0], n[1], n[2]}, {periodic[0], periodic[1], periodic[2]}}; }
    TiledBox tiled_box() const { return tiles->layout(n, periodic); }

    /// Stored nodes per row along x (dense and sub-lattice grids).
    int row() const { return sublattice ? n[0] / 2 : n[0]; }
    index_t cells() const {
        return tiles ? tiled_box().cells() : sublattice ? sublattice_box().cells() : dense_box().cells();
    }
    /// Whether the node (x, y, z) of the box is stored.
    bool holds(int x, int y, int z) const {
        return tiles ? tiled_box().holds(x, y, z) : sublattice ? sublattice_box().holds(x, y, z) : true;
    }
    index_t index(int x, int y, int z) const {
        return tiles ? tiled_box().index(x, y, z) : sublattice ? sublattice_box().index(x, y, z) : dense_box().index(x, y, z);
    }
    /// (x, y, z) of a cell index (a sparse grid's cells outside the box give positions outside it).
    void coordinates(index_t cell, int (&pos)[3]) const {
        if (tiles) tiled_box().position(cell, pos);
        else if (sublattice) sublattice_box().position(cell, pos);
        else dense_box().position(cell, pos);
    }
};

/// The layout Layout (DenseBox, SublatticeBox or TiledBox: storage::LayoutFor) of a grid,
/// with the host's tile tables.
template <class Layout>
Layout layout_of(const Grid& g) {
    if constexpr (std::is_same_v<Layout, TiledBox>) {
        if (!g.tiles) throw std::logic_error("layout_of: a tiled layout of a grid without tiles");
        return g.tiled_box();
    } else {
        return {{g.n[0], g.n[1], g.n[2]}, {g.periodic[0], g.periodic[1], g.periodic[2]}};
    }
}

}  // namespace barracuda::storage
