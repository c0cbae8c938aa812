// Interpolated bounce-back (Bouzidi, Firdaouss & Lallemand 2001, eqs. 5-6; the
// moving-wall term as in Lallemand & Luo 2003): a curved wall where it is, not
// half a spacing beyond the last fluid node.
//
// A link from the fluid node x_f to the solid node x_f + c_i is cut by the
// surface at x_f + q c_i, 0 < q <= 1 (geometry::wall_fraction). With f* the
// post-collision populations of the step just done, the population returning to
// x_f along c_opp(i) = -c_i is
//   q <  1/2:  f_opp(i)(x_f, t+1) = 2q f*_i(x_f) + (1 - 2q) f*_i(x_f - c_i)       + B
//   q >= 1/2:  f_opp(i)(x_f, t+1) = f*_i(x_f) / 2q + (1 - 1/2q) f*_opp(i)(x_f)    + B / 2q
// with B = 2 w_i rho0 (c_opp(i) . U_wall) / cs2, the half-way rule's moving-wall
// term (boundary/bounce_back.hpp). q = 1/2 is half-way bounce-back. Both lines
// are affine with weights adding up to 1, so they hold for the shifted stored
// values f - w_i as they are. Where x_f - c_i is not a fluid node the first line
// lacks its second point: that link keeps half-way bounce-back.
//
// The fused kernel stays as it is: this pass runs over the list of interpolated
// links after each step, when every f* of the step is in memory (in the AA
// pattern the kernel itself could not read f*_opp(i)(x_f): the neighbour
// x_f - c_i overwrites that slot in the same step). It reads through the store of
// the next step and writes only the slot the next step reads as the bounced-back
// population of x_f (Store::reflected). The two other values it reads are
// populations streaming between fluid nodes, which no link of the pass writes, so
// links may run in any order, in parallel.
//
// Output of populations (Engine::populations) reads, for these links, the slot the
// pass rewrote: the returning value (less B) rather than f*_i itself.
//
// Forces: the momentum the link hands the obstacle is V c_i (f*_i(x_f) +
// f_opp(i)(x_f, t+1)) (kernel/momentum_exchange.hpp with the returning value no longer equal
// to the leaving one); the pass keeps that sum per link for the force report.
#pragma once
#include <cstdint>

#include "common/hd.hpp"
#include "lattice/lattice.hpp"
#include "storage/grid.hpp"

namespace barracuda::kernel {

/// One link into an obstacle with interpolated bounce-back (host-built: sim/wall_links.hpp).
struct WallLink {
    storage::index_t cell;  // the fluid node x_f
    storage::index_t from;  // x_f - c_i when the population along c_i streams from a fluid node there; else -1
    double q;               // the surface cuts the link at x_f + q c_i
    double term;            // the moving-wall term B of the returning direction (0 at rest), as the
                            // fused kernel adds it to what it reads (kernel/stream_collide.hpp)
    std::int32_t dir;       // i: x_f + c_i is solid
    std::int32_t list;      // the force report's list of the obstacle (EngineSetup::force_links order), or -1
};

template <class L, class Store>
struct InterpolatedWall {
    using T = typename Store::compute_type;
    Store store;  // the store of the next step
    const WallLink* links;
    double* exchanged;  // per link: f*_i(x_f) + f_opp(i)(x_f, t+1), unshifted

    BARRACUDA_HD void apply(storage::index_t k) const {
        const WallLink l = links[k];
        const int i = l.dir, back = L::opposite(i);
        const T leaving = store.reflected(back, l.cell);  // f*_i(x_f)
        T value = leaving, term = T(l.term);
        if (l.from >= 0) {
            if (l.q < 0.5) {
                const T behind = store.streamed(i, l.cell, l.from);  // f*_i(x_f - c_i)
                value = T(2 * l.q) * leaving + T(1 - 2 * l.q) * behind;
            } else {
                const T r = T(0.5 / l.q);
                const T other = store.streamed(back, l.from, l.cell);  // f*_opp(i)(x_f)
                value = r * leaving + (T(1) - r) * other;
                term *= r;
            }
        }
        // The fused kernel adds the full term B to what it reads back.
        store.overwrite_reflected(back, l.cell, value + term - T(l.term));
        if (exchanged) exchanged[k] = double(leaving) + double(value + term) + 2 * L::w(i);
    }
};

}  // namespace barracuda::kernel
