// The dense box: sizes, periodicity and the x-fastest cell index.
#pragma once
#include <cstdint>

#include "common/hd.hpp"

namespace barracuda::storage {

using index_t = std::int64_t;

struct Grid {
    int n[3];
    bool periodic[3];

    BARRACUDA_HD index_t cells() const { return index_t(n[0]) * n[1] * n[2]; }
    BARRACUDA_HD index_t index(int x, int y, int z) const { return x + index_t(n[0]) * (y + index_t(n[1]) * z); }
    /// (x, y, z) of a cell index. 32-bit division where the box allows it:
    /// 64-bit division costs a GPU tens of instructions per call.
    BARRACUDA_HD void coordinates(index_t cell, int (&pos)[3]) const {
        if (cells() <= index_t(UINT32_MAX)) {
            const auto c = std::uint32_t(cell), nx = std::uint32_t(n[0]), ny = std::uint32_t(n[1]);
            const std::uint32_t yz = c / nx;
            pos[0] = int(c - yz * nx);
            pos[1] = int(yz % ny);
            pos[2] = int(yz / ny);
        } else {
            const index_t yz = cell / n[0];
            pos[0] = int(cell - yz * n[0]);
            pos[1] = int(yz % n[1]);
            pos[2] = int(yz / n[1]);
        }
    }
};

}  // namespace barracuda::storage
