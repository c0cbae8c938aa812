// The dense box: sizes, periodicity and the x-fastest cell index.
//
// half: only the nodes with x + y + z even are stored (D3Q13's one sub-lattice,
// seed 000 §5.1). Each row (y, z) then holds n[0] / 2 nodes at x = 2 i + ((y + z) & 1),
// i = 0 .. n[0]/2 - 1, and a node's index is i + n[0]/2 (y + n[1] z) (seed 000 eq. 13).
// n[0] is even, and so is the size of every periodic axis (parity survives the wrap).
// Kernels use the *_as<Half> forms with the lattice's choice fixed at compile time;
// host code the run-time ones.
#pragma once
#include <cstdint>

#include "common/hd.hpp"

namespace barracuda::storage {

using index_t = std::int64_t;

struct Grid {
    int n[3];
    bool periodic[3];
    bool half = false;

    /// Stored nodes per row along x.
    BARRACUDA_HD int row() const { return half ? n[0] / 2 : n[0]; }
    BARRACUDA_HD index_t cells() const { return index_t(row()) * n[1] * n[2]; }
    /// Whether the node (x, y, z) of the box is stored.
    BARRACUDA_HD bool holds(int x, int y, int z) const { return !half || ((x + y + z) & 1) == 0; }

    template <bool Half>
    BARRACUDA_HD index_t index_as(int x, int y, int z) const {
        if constexpr (Half) return (x >> 1) + index_t(n[0] / 2) * (y + index_t(n[1]) * z);
        else return x + index_t(n[0]) * (y + index_t(n[1]) * z);
    }
    BARRACUDA_HD index_t index(int x, int y, int z) const { return half ? index_as<true>(x, y, z) : index_as<false>(x, y, z); }

    /// (x, y, z) of a cell index. 32-bit division where the box allows it:
    /// 64-bit division costs a GPU tens of instructions per call.
    template <bool Half>
    BARRACUDA_HD void coordinates_as(index_t cell, int (&pos)[3]) const {
        const int nx = Half ? n[0] / 2 : n[0];
        if (index_t(nx) * n[1] * n[2] <= index_t(UINT32_MAX)) {
            const auto c = std::uint32_t(cell), ux = std::uint32_t(nx), ny = std::uint32_t(n[1]);
            const std::uint32_t yz = c / ux;
            pos[0] = int(c - yz * ux);
            pos[1] = int(yz % ny);
            pos[2] = int(yz / ny);
        } else {
            const index_t yz = cell / nx;
            pos[0] = int(cell - yz * nx);
            pos[1] = int(yz % n[1]);
            pos[2] = int(yz / n[1]);
        }
        if constexpr (Half) pos[0] = 2 * pos[0] + ((pos[1] + pos[2]) & 1);
    }
    BARRACUDA_HD void coordinates(index_t cell, int (&pos)[3]) const {
        if (half) coordinates_as<true>(cell, pos);
        else coordinates_as<false>(cell, pos);
    }
};

}  // namespace barracuda::storage
