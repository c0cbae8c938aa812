// Velocity components packed two bits each into one 64-bit constant per axis.
// c(i, axis) is then a shift and a mask: a compile-time constant in unrolled
// loops on both compilers, and never a table copied into local memory or onto
// the stack (which a constexpr local array becomes when indexed at run time).
#pragma once
#include <cstdint>

#include "common/hd.hpp"

namespace barracuda::lattice {

template <int Q>
constexpr std::uint64_t pack_axis(const int (&v)[Q][3], int axis) {
    static_assert(Q <= 32, "two bits per velocity in 64 bits");
    std::uint64_t r = 0;
    for (int i = 0; i < Q; ++i) r |= std::uint64_t(v[i][axis] + 1) << (2 * i);
    return r;
}

BARRACUDA_HD constexpr int unpack(std::uint64_t code, int i) { return int((code >> (2 * i)) & 3u) - 1; }

}  // namespace barracuda::lattice
