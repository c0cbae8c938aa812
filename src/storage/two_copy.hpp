// Two copies of the populations ("AB"), structure of arrays: population i of
// cell c at [i * cells + c], so that a warp's loads and stores of one
// direction are contiguous. Pull streaming reads neighbours from `src` and
// writes the cell's own slots in `dst`; the copies swap after each step.
// Stored values are shifted, f_i - w_i. The storage type S may be narrower
// than the arithmetic type T (FP16 storage is added behind this interface).
#pragma once
#include "common/hd.hpp"
#include "storage/grid.hpp"

namespace barracuda::storage {

template <class S, class T = S>
struct TwoCopy {
    using storage_type = S;
    using compute_type = T;
    static constexpr const char* pattern = "two-copy pull";
    static constexpr int copies = 2;

    const S* src;
    S* dst;
    index_t cells;

    BARRACUDA_HD T load(int i, index_t cell) const { return T(src[i * cells + cell]); }
    BARRACUDA_HD void store(int i, index_t cell, T v) const { dst[i * cells + cell] = S(v); }
};

}  // namespace barracuda::storage
