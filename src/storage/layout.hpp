// Layouts: where the cells of a box are in memory, and where a link from a
// cell goes. Only a layout knows addresses of cells; a store (two_copy.hpp,
// in_place.hpp) knows where population i of a cell is; kernels ask both and
// compute no index themselves.
//
// A layout answers, for positions (x, y, z) inside the box of n[0] x n[1] x n[2]
// nodes with periodic axes `periodic`:
//   cells()                      cells stored
//   holds(x, y, z)               whether the node is stored
//   index(x, y, z)               its cell index
//   position(cell, pos)          the node of a cell index
//   hop<L>(pos, i, sign)         the link from pos along sign * c_i: the cell it
//                                reaches (wrapped on periodic axes), or the faces of
//                                the box it leaves through (Hop::exits, bit f for face
//                                f = 2 axis + (high side)); which boundary lies there
//                                is the kernel's business (kernel/links.hpp)
//   cursor(pos), neighbour<L>(cursor, cell, i, sign)
//                                the bulk path's neighbours: every hop inside the box
//                                or across a periodic axis, with the index arithmetic
//                                of the cell done once
// Implementations: DenseBox (every node, x fastest) and SublatticeBox (D3Q13's one
// sub-lattice, seed 000 §5.1). The tiled layout of sparse geometries (seed 001)
// is a third: a tile map behind the same questions.
#pragma once
#include <concepts>
#include <cstdint>
#include <type_traits>

#include "common/hd.hpp"
#include "lattice/lattice.hpp"

namespace barracuda::storage {

using index_t = std::int64_t;

/// A link as a layout answers it: the cell reached, or the box faces left through.
struct Hop {
    index_t cell;    // valid when exits == 0
    unsigned exits;  // bit f: leaves through face f (x_min, x_max, y_min, ...)
};

/// The bulk path's neighbour steps: index steps of -1 and +1 along each axis from
/// a node, wrapped on periodic axes (both box layouts).
struct StepCursor {
    index_t minus[3], plus[3];
};

/// The neighbour at sign * c_i through a StepCursor (i a compile-time constant after unrolling).
template <class L>
BARRACUDA_HD index_t step_neighbour(const StepCursor& s, index_t cell, int i, int sign) {
    index_t d = 0;
    BARRACUDA_UNROLL
    for (int a = 0; a < 3; ++a) {
        const int c = sign * L::c(i, a);
        d += c > 0 ? s.plus[a] : (c < 0 ? s.minus[a] : 0);
    }
    return cell + d;
}

namespace detail {
/// Moves pos along the displacement d, wrapping periodic axes; marks the faces left through.
BARRACUDA_HD unsigned displace(const int (&n)[3], const bool (&periodic)[3], const int (&pos)[3],
                                      const int (&d)[3], int (&to)[3]) {
    unsigned exits = 0;
    BARRACUDA_UNROLL
    for (int a = 0; a < 3; ++a) {
        to[a] = pos[a] + d[a];
        if (to[a] < 0 || to[a] >= n[a]) {
            if (periodic[a]) to[a] += to[a] < 0 ? n[a] : -n[a];
            else exits |= 1u << (2 * a + (to[a] < 0 ? 0 : 1));
        }
    }
    return exits;
}

/// (x, y, z) of cell in a box of rows of `row` stored nodes along x; 32-bit division
/// where the box allows it (64-bit division costs a GPU tens of instructions a call).
BARRACUDA_HD void row_position(index_t cell, int row, int ny, int nz, int (&pos)[3]) {
    if (index_t(row) * ny * nz <= index_t(UINT32_MAX)) {
        const auto c = std::uint32_t(cell), ux = std::uint32_t(row), uy = std::uint32_t(ny);
        const std::uint32_t yz = c / ux;
        pos[0] = int(c - yz * ux);
        pos[1] = int(yz % uy);
        pos[2] = int(yz / uy);
    } else {
        const index_t yz = cell / row;
        pos[0] = int(cell - yz * row);
        pos[1] = int(yz % ny);
        pos[2] = int(yz / ny);
    }
}
}  // namespace detail

/// Every node of the box, x fastest: cell = x + n[0] (y + n[1] z).
struct DenseBox {
    int n[3];
    bool periodic[3];

    BARRACUDA_HD index_t cells() const { return index_t(n[0]) * n[1] * n[2]; }
    BARRACUDA_HD bool holds(int, int, int) const { return true; }
    BARRACUDA_HD index_t index(int x, int y, int z) const { return x + index_t(n[0]) * (y + index_t(n[1]) * z); }
    BARRACUDA_HD void position(index_t cell, int (&pos)[3]) const { detail::row_position(cell, n[0], n[1], n[2], pos); }

    template <class L>
    BARRACUDA_HD Hop hop(const int (&pos)[3], int i, int sign) const {
        const int d[3] = {sign * L::c(i, 0), sign * L::c(i, 1), sign * L::c(i, 2)};
        int to[3];
        const unsigned exits = detail::displace(n, periodic, pos, d, to);
        return {exits ? 0 : index(to[0], to[1], to[2]), exits};
    }

    using Cursor = StepCursor;
    BARRACUDA_HD Cursor cursor(const int (&pos)[3]) const {
        Cursor s;
        index_t stride = 1;
        BARRACUDA_UNROLL
        for (int a = 0; a < 3; ++a) {
            const index_t span = index_t(n[a] - 1) * stride;
            s.plus[a] = pos[a] == n[a] - 1 ? -span : stride;
            s.minus[a] = pos[a] == 0 ? span : -stride;
            stride *= n[a];
        }
        return s;
    }
    template <class L>
    BARRACUDA_HD static index_t neighbour(const Cursor& s, index_t cell, int i, int sign) {
        return step_neighbour<L>(s, cell, i, sign);
    }
};

/// One sub-lattice of the box, the nodes with x + y + z even (D3Q13, seed 000 §5.1):
/// each row (y, z) holds n[0]/2 nodes at x = 2 k + ((y + z) & 1), k = 0 .. n[0]/2 - 1,
/// and cell = k + n[0]/2 (y + n[1] z) (seed 000 eq. 13). n[0] is even, and so is the
/// size of every periodic axis (parity survives the wrap). Every c_i of D3Q13 has an
/// even sum, so a link never leaves the sub-lattice.
struct SublatticeBox {
    int n[3];
    bool periodic[3];

    BARRACUDA_HD int row() const { return n[0] / 2; }
    BARRACUDA_HD index_t cells() const { return index_t(row()) * n[1] * n[2]; }
    BARRACUDA_HD bool holds(int x, int y, int z) const { return ((x + y + z) & 1) == 0; }
    BARRACUDA_HD index_t index(int x, int y, int z) const { return (x >> 1) + index_t(row()) * (y + index_t(n[1]) * z); }
    BARRACUDA_HD void position(index_t cell, int (&pos)[3]) const {
        detail::row_position(cell, row(), n[1], n[2], pos);
        pos[0] = 2 * pos[0] + ((pos[1] + pos[2]) & 1);
    }

    template <class L>
    BARRACUDA_HD Hop hop(const int (&pos)[3], int i, int sign) const {
        const int d[3] = {sign * L::c(i, 0), sign * L::c(i, 1), sign * L::c(i, 2)};
        int to[3];
        const unsigned exits = detail::displace(n, periodic, pos, d, to);
        return {exits ? 0 : index(to[0], to[1], to[2]), exits};
    }

    /// A step along x changes the row (y + z changes parity with it), and the index
    /// within the new row moves by 0 or 1 depending on the parity of x.
    using Cursor = StepCursor;
    BARRACUDA_HD Cursor cursor(const int (&pos)[3]) const {
        Cursor s;
        const index_t span0 = index_t(row() - 1);
        const bool odd = pos[0] & 1;
        s.plus[0] = pos[0] == n[0] - 1 ? -span0 : index_t(odd);
        s.minus[0] = pos[0] == 0 ? span0 : -index_t(!odd);
        index_t stride = row();
        BARRACUDA_UNROLL
        for (int a = 1; a < 3; ++a) {
            const index_t span = index_t(n[a] - 1) * stride;
            s.plus[a] = pos[a] == n[a] - 1 ? -span : stride;
            s.minus[a] = pos[a] == 0 ? span : -stride;
            stride *= n[a];
        }
        return s;
    }
    template <class L>
    BARRACUDA_HD static index_t neighbour(const Cursor& s, index_t cell, int i, int sign) {
        return step_neighbour<L>(s, cell, i, sign);
    }
};

/// What every layout offers the kernels.
template <class Layout>
concept CellLayout = requires(const Layout& l, int x, index_t c, int (&p)[3], const int (&q)[3]) {
    { l.cells() } -> std::same_as<index_t>;
    { l.holds(x, x, x) } -> std::same_as<bool>;
    { l.index(x, x, x) } -> std::same_as<index_t>;
    l.position(c, p);
    { l.template hop<lattice::D3Q19>(q, x, x) } -> std::same_as<Hop>;
    { l.cursor(q) } -> std::same_as<typename Layout::Cursor>;
};
static_assert(CellLayout<DenseBox> && CellLayout<SublatticeBox>);

/// The layout of lattice L's populations: one sub-lattice for D3Q13, every node otherwise.
template <class L>
using LayoutOf = std::conditional_t<lattice::sublattice_v<L>, SublatticeBox, DenseBox>;

}  // namespace barracuda::storage
