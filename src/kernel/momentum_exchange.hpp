// Force on a resting obstacle by momentum exchange (seed 000 §4.2, eq. 10-11;
// Nguyen & Ladd 2004). A link k from a fluid node x to a solid node x + c_i of
// the obstacle carries f*_i(x, t) (post-collision) into the wall, and half-way
// bounce-back returns it as f_opp(i)(x, t + 1) = f*_i(x, t). The momentum the
// fluid loses across the link in one step is handed to the obstacle:
//   F_k = V c_i (f*_i(x, t) + f_opp(i)(x, t + 1)) = 2 V c_i f*_i(x, t)   (eq. 10, dt = 1)
// with V the volume a node stands for: 1, or 2 on D3Q13's sub-lattice (eq. 12).
//   F   = sum over the links cut by the obstacle of F_k              (eq. 11)
// Stored populations are shifted (f - w_i), so w_i is added back: the weights
// do not cancel when an obstacle touches a wall face (its links into the
// obstacle are then not matched by links out of it, and the resting fluid's
// pressure on the free side is a real force).
//
// The sum runs over a list built once on the host (sim/force_links.cpp): the fluid
// cells next to the obstacle, each with a mask of the directions whose link
// ends in it. Populations are read with Gather::posted, so both streaming
// patterns and every precision give f*_i of the last completed step with no
// further code. This is a separate pass at sample times; the stream-collide
// kernels do no extra work.
#pragma once
#include <cstdint>

#include "common/hd.hpp"
#include "lattice/lattice.hpp"
#include "storage/grid.hpp"

namespace barracuda::kernel {

/// A fluid cell next to an obstacle and the directions i (bit i) whose link x -> x + c_i ends in it.
struct ForceLink {
    storage::index_t cell;
    std::uint32_t mask;
};

/// Adds the momentum exchanged across the links of one entry to F (double accumulation).
template <class L, class G>
BARRACUDA_HD void add_exchange(const G& g, const ForceLink& link, double (&F)[3]) {
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) {
        if (!(link.mask & (1u << i))) continue;
        // f*_i = stored + w_i; the factor 2 is the return trip of eq. (10).
        constexpr double twice_volume = 2.0 * lattice::cell_volume<L>();
        const double f = double(g.posted(link.cell, i)) + L::w(i);
        if (L::c(i, 0)) F[0] += twice_volume * L::c(i, 0) * f;
        if (L::c(i, 1)) F[1] += twice_volume * L::c(i, 1) * f;
        if (L::c(i, 2)) F[2] += twice_volume * L::c(i, 2) * f;
    }
}

}  // namespace barracuda::kernel
