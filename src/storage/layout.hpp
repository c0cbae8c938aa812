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
// Implementations: DenseBox (every node, x fastest), SublatticeBox (D3Q13's one
// sub-lattice, seed 000 §5.1) and TiledBox (seed 001's sparse storage: 4x4x4
// tiles, only those holding a non-solid node stored, a tile map behind the same
// questions).
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

/// The most cells a box layout holds: its neighbour arithmetic is 32-bit (StepCursor),
/// its stores address a cell's populations from a 32-bit count of cells (access.hpp's
/// DirectionArrays), and the engines refuse a subdomain with more cells
/// (sim/simulation.cpp: more ranks split it). An H200's 141 GB hold at most 3.8e9
/// D3Q19 cells even in FP16 and in place (`barracuda bench`'s largest grid, 1565^3);
/// only 2D lattices in FP16 reach beyond.
inline constexpr index_t max_box_cells = (index_t(1) << 32) - 1;

/// The bulk path's neighbour steps: index steps of -1 and +1 along each axis from
/// a node, wrapped on periodic axes (both box layouts), as 32-bit words (a negative
/// step in two's complement). A neighbour is the cell's index plus up to three steps
/// modulo 2^32, which is the neighbour itself since both lie below max_box_cells.
/// Why 32 bits: FP16 storage is bound by instruction issue (issue 20), and a 64-bit
/// neighbour index and its byte offset cost about six instructions a link where the
/// 32-bit add and the address's two cost three (H100 SASS of the in-place odd step,
/// which addresses 18 neighbours; docs/performance.md).
struct StepCursor {
    std::uint32_t minus[3], plus[3];
};

/// The neighbour at sign * c_i through a StepCursor (i a compile-time constant after unrolling).
template <class L>
BARRACUDA_HD index_t step_neighbour(const StepCursor& s, index_t cell, int i, int sign) {
    std::uint32_t to = std::uint32_t(cell);
    BARRACUDA_UNROLL
    for (int a = 0; a < 3; ++a) {
        const int c = sign * L::c(i, a);
        to += c > 0 ? s.plus[a] : (c < 0 ? s.minus[a] : 0u);
    }
    return index_t(to);
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

/// Every layout's hop<L>: the node at pos + sign c_i, wrapped on periodic axes, by the
/// layout's own index(), or the faces of the box the link leaves through.
template <class L, class Layout>
BARRACUDA_HD Hop hop(const Layout& layout, const int (&pos)[3], int i, int sign) {
    const int d[3] = {sign * L::c(i, 0), sign * L::c(i, 1), sign * L::c(i, 2)};
    int to[3];
    const unsigned exits = displace(layout.n, layout.periodic, pos, d, to);
    return {exits ? 0 : layout.index(to[0], to[1], to[2]), exits};
}

/// Exact division of 32-bit numbers by a divisor fixed when a layout is made, by
/// two multiplications (Lemire, Kaser & Kurz 2019, "Faster remainder by direct
/// computation", Softw. Pract. Exper. 49: with M = ceil(2^64 / d), floor(n / d) is
/// the high 64 bits of M n for every n < 2^32 and 1 < d < 2^32). A GPU divides a
/// 32-bit number by one known only at run time in about 20 instructions (a
/// reciprocal and its corrections), and the bulk kernel's position took two
/// divisions: 50 of FP16 storage's 836 instructions a cell (Nsight Compute, issue
/// 20). Host and GPU run the same arithmetic; tests/test_storage.cpp checks it
/// against the division.
struct Divisor {
    std::uint64_t magic = 0;  // ceil(2^64 / d); 0 for d = 1
    std::uint32_t d = 1;

    Divisor() = default;
    BARRACUDA_HD explicit Divisor(std::uint32_t divisor)
        : magic(divisor > 1 ? ~std::uint64_t(0) / divisor + 1 : 0), d(divisor) {}
    BARRACUDA_HD std::uint32_t quotient(std::uint32_t n) const {
        // The high 64 bits of the 96-bit product, from two 32 x 32 -> 64 multiplications.
        const std::uint64_t low = std::uint64_t(std::uint32_t(magic)) * n;
        const std::uint64_t high = std::uint64_t(std::uint32_t(magic >> 32)) * n + (low >> 32);
        return d > 1 ? std::uint32_t(high >> 32) : n;
    }
};

/// The divisors of a box's cell index: the stored nodes of a row along x, and n[1].
struct RowDivisors {
    Divisor row, ny;
};

/// (x, y, z) of cell in a box of rows of `row` stored nodes along x; 32-bit division
/// (by the box's divisors) where the box allows it.
BARRACUDA_HD void row_position(index_t cell, int row, int ny, int nz, const RowDivisors& by, int (&pos)[3]) {
    if (index_t(row) * ny * nz <= index_t(UINT32_MAX)) {
        const auto c = std::uint32_t(cell);
        const std::uint32_t yz = by.row.quotient(c), z = by.ny.quotient(yz);
        pos[0] = int(c - yz * std::uint32_t(row));
        pos[1] = int(yz - z * std::uint32_t(ny));
        pos[2] = int(z);
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
    detail::RowDivisors by;  // n[0] and n[1], for position()
    static constexpr bool narrow = true;  // fewer than 2^32 cells: indices in 32 bits (max_box_cells)

    DenseBox() = default;
    BARRACUDA_HD DenseBox(const int (&size)[3], const bool (&per)[3])
        : n{size[0], size[1], size[2]},
          periodic{per[0], per[1], per[2]},
          by{detail::Divisor(std::uint32_t(size[0])), detail::Divisor(std::uint32_t(size[1]))} {}

    BARRACUDA_HD index_t cells() const { return index_t(n[0]) * n[1] * n[2]; }
    BARRACUDA_HD bool holds(int, int, int) const { return true; }
    BARRACUDA_HD index_t index(int x, int y, int z) const { return x + index_t(n[0]) * (y + index_t(n[1]) * z); }
    BARRACUDA_HD void position(index_t cell, int (&pos)[3]) const { detail::row_position(cell, n[0], n[1], n[2], by, pos); }

    template <class L>
    BARRACUDA_HD Hop hop(const int (&pos)[3], int i, int sign) const {
        return detail::hop<L>(*this, pos, i, sign);
    }

    using Cursor = StepCursor;
    BARRACUDA_HD Cursor cursor(const int (&pos)[3]) const {
        Cursor s;
        std::uint32_t stride = 1;  // modulo 2^32 (StepCursor)
        BARRACUDA_UNROLL
        for (int a = 0; a < 3; ++a) {
            const std::uint32_t span = std::uint32_t(n[a] - 1) * stride;
            s.plus[a] = pos[a] == n[a] - 1 ? 0u - span : stride;
            s.minus[a] = pos[a] == 0 ? span : 0u - stride;
            stride *= std::uint32_t(n[a]);
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
    detail::RowDivisors by;  // n[0] / 2 and n[1], for position()
    static constexpr bool narrow = true;  // fewer than 2^32 cells (max_box_cells)

    SublatticeBox() = default;
    BARRACUDA_HD SublatticeBox(const int (&size)[3], const bool (&per)[3])
        : n{size[0], size[1], size[2]},
          periodic{per[0], per[1], per[2]},
          by{detail::Divisor(std::uint32_t(size[0] / 2)), detail::Divisor(std::uint32_t(size[1]))} {}

    BARRACUDA_HD int row() const { return n[0] / 2; }
    BARRACUDA_HD index_t cells() const { return index_t(row()) * n[1] * n[2]; }
    BARRACUDA_HD bool holds(int x, int y, int z) const { return ((x + y + z) & 1) == 0; }
    BARRACUDA_HD index_t index(int x, int y, int z) const { return (x >> 1) + index_t(row()) * (y + index_t(n[1]) * z); }
    BARRACUDA_HD void position(index_t cell, int (&pos)[3]) const {
        detail::row_position(cell, row(), n[1], n[2], by, pos);
        pos[0] = 2 * pos[0] + ((pos[1] + pos[2]) & 1);
    }

    template <class L>
    BARRACUDA_HD Hop hop(const int (&pos)[3], int i, int sign) const {
        return detail::hop<L>(*this, pos, i, sign);
    }

    /// A step along x changes the row (y + z changes parity with it), and the index
    /// within the new row moves by 0 or 1 depending on the parity of x.
    using Cursor = StepCursor;
    BARRACUDA_HD Cursor cursor(const int (&pos)[3]) const {
        Cursor s;
        const std::uint32_t span0 = std::uint32_t(row() - 1);
        const bool odd = pos[0] & 1;
        s.plus[0] = pos[0] == n[0] - 1 ? 0u - span0 : std::uint32_t(odd);
        s.minus[0] = pos[0] == 0 ? span0 : 0u - std::uint32_t(!odd);
        std::uint32_t stride = std::uint32_t(row());  // modulo 2^32 (StepCursor)
        BARRACUDA_UNROLL
        for (int a = 1; a < 3; ++a) {
            const std::uint32_t span = std::uint32_t(n[a] - 1) * stride;
            s.plus[a] = pos[a] == n[a] - 1 ? 0u - span : stride;
            s.minus[a] = pos[a] == 0 ? span : 0u - stride;
            stride *= std::uint32_t(n[a]);
        }
        return s;
    }
    template <class L>
    BARRACUDA_HD static index_t neighbour(const Cursor& s, index_t cell, int i, int sign) {
        return step_neighbour<L>(s, cell, i, sign);
    }
};

/// Seed 001's sparse storage (Tomczak & Szafran, §3): the box is cut into tiles of
/// 4 x 4 x 4 nodes (two warps), tile (tx, ty, tz) holding x in [4 tx, 4 tx + 4) and so
/// on; only tiles with a non-solid node are stored, 64 cells each, cell = 64 tile +
/// (x & 3) + 4 (y & 3) + 16 (z & 3). `map` gives each tile of the box its stored
/// index; every tile that is not stored maps to one extra stored tile, `absent`, the
/// last, whose cells are all solid: a link into a solid region then reaches a solid
/// cell as on a dense box, and neither kernels nor link classification ask whether a
/// tile exists. The tiles on the high faces of a box whose size is no multiple of 4
/// reach out of the box; those cells are solid too (and no link reaches them: a link
/// leaving the box is classified by its position). storage/tiles.hpp builds the
/// tables from the node kinds.
struct TiledBox {
    int n[3];
    bool periodic[3];
    int t[3];                     // tiles along each axis, (n + 3) / 4
    const std::int32_t* map;      // per tile of the box, tx + t0 (ty + t1 tz): its stored index
    const std::int32_t* origin;   // per stored tile: its tile of the box, packed as map's index
    std::int32_t absent;          // the stored index of the tile every absent tile maps to
    /// Per stored tile, its 3 x 3 x 3 neighbour tiles' stored indices (wrapped on periodic
    /// axes), tile k at (ox + 1) + 3 (oy + 1) + 9 (oz + 1); null where a periodic axis's
    /// size is no multiple of 4 (a wrap then falls inside a tile).
    const std::int32_t* near;

    static constexpr int edge = 4;
    static constexpr int tile_cells = 64;
    static constexpr bool narrow = false;  // up to 2^31 - 1 tiles of 64 cells: 64-bit cell indices

    BARRACUDA_HD static std::int32_t read(const std::int32_t* p, index_t at) {
#if defined(__CUDA_ARCH__)
        return __ldg(p + at);
#else
        return p[at];
#endif
    }
    BARRACUDA_HD index_t tile_of(int x, int y, int z) const { return (x >> 2) + index_t(t[0]) * ((y >> 2) + index_t(t[1]) * (z >> 2)); }
    BARRACUDA_HD static index_t local(int x, int y, int z) { return (x & 3) + 4 * (y & 3) + 16 * (z & 3); }

    BARRACUDA_HD index_t cells() const { return (index_t(absent) + 1) * tile_cells; }
    BARRACUDA_HD bool holds(int x, int y, int z) const { return read(map, tile_of(x, y, z)) != absent; }
    BARRACUDA_HD index_t index(int x, int y, int z) const {
        return index_t(read(map, tile_of(x, y, z))) * tile_cells + local(x, y, z);
    }
    BARRACUDA_HD void position(index_t cell, int (&pos)[3]) const {
        const auto packed = std::uint32_t(read(origin, cell >> 6));
        const auto t0 = std::uint32_t(t[0]), t1 = std::uint32_t(t[1]);
        const std::uint32_t yz = packed / t0;
        const auto l = std::uint32_t(cell & 63);
        pos[0] = int(4 * (packed - yz * t0) + (l & 3));
        pos[1] = int(4 * (yz % t1) + ((l >> 2) & 3));
        pos[2] = int(4 * (yz / t1) + (l >> 4));
    }

    template <class L>
    BARRACUDA_HD Hop hop(const int (&pos)[3], int i, int sign) const {
        return detail::hop<L>(*this, pos, i, sign);
    }

    /// The bulk path's neighbours (a bulk cell never crosses a face of a non-periodic
    /// axis). With the neighbour-tile table: the link's tile among the 27 around the
    /// cell's is known from the cell's place in its tile, one read of the table (the
    /// same entries for a whole warp: cached), no branch. Without it (a periodic axis
    /// of a size no multiple of 4): a link staying in the cell's tile and the box is an
    /// index step, one leaving it reads the tile map at the wrapped position. The
    /// cursor is the same for the 64 cells of a tile (a cell's place in it comes from
    /// its index), so the CPU backend's runs of cells sharing a cursor are a tile's
    /// bulk cells. No padding: the CPU backend compares cursors bytewise.
    struct Cursor {
        const std::int32_t* map;
        const std::int32_t* near;  // the cell's tile's 27 neighbours (global or shared memory), or null
        int n[3];
        int t[2];
        int base[3];  // the tile's first node
    };
    BARRACUDA_HD Cursor cursor(const int (&pos)[3]) const {
        const std::int32_t* around = near ? near + 27 * index_t(read(map, tile_of(pos[0], pos[1], pos[2]))) : nullptr;
        return {map, around, {n[0], n[1], n[2]}, {t[0], t[1]}, {pos[0] & ~3, pos[1] & ~3, pos[2] & ~3}};
    }
    template <class L>
    BARRACUDA_HD static index_t neighbour(const Cursor& s, index_t cell, int i, int sign) {
        const int l[3] = {int(cell & 3), int((cell >> 2) & 3), int((cell >> 4) & 3)};
        if (s.near) {
            // Along each axis the link steps to the next cell of the tile, or from a tile's
            // last cell to the next tile's first: the neighbour tile's entry (k, 13 the
            // cell's own tile) moves by 3^a and the place in the tile by -3 4^a instead of
            // 4^a. Written as sums of per-cell terms (the same for every link of the cell,
            // computed once after unrolling), a link costs two additions and the table's
            // read, where computing the place and the entry from l + c_i took shifts and
            // masks per axis and link. H200, bench --sparse --size 192 against the per-link
            // form: FP16 in place +3.3% at porosity 0.3, two-copy +0.6%; FP32 within 0.5%
            // (docs/performance.md).
            int k = 13, local = int(cell & 63);
            BARRACUDA_UNROLL
            for (int a = 0; a < 3; ++a) {
                const int c = sign * L::c(i, a), tiles = a == 0 ? 1 : a == 1 ? 3 : 9, step = 1 << (2 * a);
                if (c > 0) {
                    const bool leaves = l[a] == 3;
                    k += leaves ? tiles : 0;
                    local += leaves ? -3 * step : step;
                } else if (c < 0) {
                    const bool leaves = l[a] == 0;
                    k -= leaves ? tiles : 0;
                    local += leaves ? 3 * step : -step;
                }
            }
            // A plain load: on a GPU, s.near may point into shared memory (backend/cuda's bulk kernel).
            return index_t(s.near[k]) * tile_cells + local;
        }
        int d[3];
        bool inside = true;
        BARRACUDA_UNROLL
        for (int a = 0; a < 3; ++a) {
            d[a] = sign * L::c(i, a);
            // In the tile and in the box: a tile on a high face may reach beyond it.
            inside = inside && unsigned(l[a] + d[a]) < 4u && s.base[a] + l[a] + d[a] < s.n[a];
        }
        if (inside) return cell + d[0] + 4 * d[1] + 16 * d[2];
        int p[3];
        BARRACUDA_UNROLL
        for (int a = 0; a < 3; ++a) {
            p[a] = s.base[a] + l[a] + d[a];
            if (p[a] < 0) p[a] += s.n[a];
            else if (p[a] >= s.n[a]) p[a] -= s.n[a];
        }
        const index_t tile = (p[0] >> 2) + index_t(s.t[0]) * ((p[1] >> 2) + index_t(s.t[1]) * (p[2] >> 2));
        return index_t(read(s.map, tile)) * tile_cells + local(p[0], p[1], p[2]);
    }
};
static_assert(sizeof(TiledBox::Cursor) == 2 * sizeof(void*) + 8 * sizeof(int), "TiledBox::Cursor has no padding");

/// What every layout offers the kernels.
template <class Layout>
concept CellLayout = requires(const Layout& l, int x, index_t c, int (&p)[3], const int (&q)[3]) {
    { l.cells() } -> std::same_as<index_t>;
    { l.holds(x, x, x) } -> std::same_as<bool>;
    { l.index(x, x, x) } -> std::same_as<index_t>;
    l.position(c, p);
    { l.template hop<lattice::D3Q19>(q, x, x) } -> std::same_as<Hop>;
    { l.cursor(q) } -> std::same_as<typename Layout::Cursor>;
    { Layout::narrow } -> std::convertible_to<bool>;  // every cell index below 2^32 - 1 (max_box_cells)
};
static_assert(CellLayout<DenseBox> && CellLayout<SublatticeBox> && CellLayout<TiledBox>);

/// The layout of lattice L's populations on a dense box: one sub-lattice for D3Q13,
/// every node otherwise.
template <class L>
using LayoutOf = std::conditional_t<lattice::sublattice_v<L>, SublatticeBox, DenseBox>;

/// How a case stores its box: every node (or D3Q13's sub-lattice), or the tiles with
/// fluid (TiledBox). A column of the configuration table (src/configurations.txt).
enum class Storage { Dense, Sparse };
constexpr const char* name_of(Storage s) { return s == Storage::Dense ? "dense" : "sparse"; }

/// The layout of lattice L's populations under storage choice S.
template <class L, Storage S>
using LayoutFor = std::conditional_t<S == Storage::Sparse, TiledBox, LayoutOf<L>>;

}  // namespace barracuda::storage
