// A sum of doubles that does not depend on the order of the terms: each term is
// rounded once to a multiple of 2^-62 and the multiples are added as integers.
// Obstacle forces use it so that 1, 2 or 4 ranks (and any GPU block layout)
// give bit-identical results (issue 5's decomposition independence): a
// floating-point sum would change with the order in which partial sums meet.
// Range: each term |v| < 2^33, the total |sum| < 2^53 * 2^-30 = 2^23 for an exact
// conversion of the integer part; rounding per term <= 2^-63.
#pragma once
#include <cmath>
#include <cstdint>

#include "common/hd.hpp"

namespace barracuda::kernel {

struct FixedSum {
    std::int64_t hi = 0;  // units of 2^-30
    std::int64_t lo = 0;  // units of 2^-62 (each term adds less than 2^32 of them)

    BARRACUDA_HD void add(double v) {
        const double t = v * 0x1p30;  // exact: a power of two
        const double h = floor(t);
        hi += std::int64_t(h);
        lo += std::int64_t(rint((t - h) * 0x1p32));  // t - h in [0, 1) is exact
    }
    BARRACUDA_HD void merge(const FixedSum& o) {
        hi += o.hi;
        lo += o.lo;
    }
    double value() const { return double(hi) * 0x1p-30 + double(lo) * 0x1p-62; }
};

}  // namespace barracuda::kernel
