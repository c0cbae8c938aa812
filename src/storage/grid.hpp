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
};

}  // namespace barracuda::storage
