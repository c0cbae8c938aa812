// One copy of the populations, updated in place by the AA pattern (Bailey et
// al. 2009; seed 003 §3.3 and Fig. 4), structure of arrays as in two_copy.hpp.
// Slot A[i][x] is population i stored at cell x.
//   even step: read A[i][x] (the arrivals), write f*_i to A[opp(i)][x];
//   odd step:  read A[opp(i)][x - c_i], write f*_i to A[i][x + c_i].
// Each cell reads and writes exactly the same slots, so no two threads touch
// one slot and no second copy is needed. After an odd step the layout is the
// natural one again (A[i][x] = population arriving at x along c_i).
//
// Boundaries: when x + c_i is solid or outside the box (not periodic), the odd
// step writes f*_i to A[opp(i)][x] instead, the slot x reads on the next even
// step: the bounce-back is done by the store, and no ghost layer is needed.
// So the value reflected back to a cell is always in its own slot A[i][x],
// after either parity.
#pragma once
#include "common/hd.hpp"
#include "storage/access.hpp"
#include "storage/grid.hpp"

namespace barracuda::storage {

/// Parity: -1 read from `odd` at run time; 0 or 1 fixed at compile time (the
/// GPU kernels, so that the bulk path carries no parity selects).
template <class L, class S, class T, int Parity = -1, class Layout = LayoutOf<L>>
struct InPlace {
    using storage_type = S;
    using compute_type = T;
    using layout_type = Layout;  // where cells are (storage/layout.hpp)
    using lattice_type = L;
    static constexpr const char* pattern = "in-place";
    static constexpr int copies = 1;
    static constexpr int E = half_exponent<L>;  // binary16's scale (access.hpp)
    template <int P>
    using with_parity = InPlace<L, S, T, P, Layout>;
    /// The same pattern and precision over another velocity set (a coupled scalar, kernel/scalar.hpp).
    template <class L2>
    using rebind = InPlace<L2, S, T, Parity, Layout>;

    S* f;
    index_t cells;
    bool odd;                              // parity of the step about to run (used when Parity < 0)
    const std::uint32_t* clock = nullptr;  // step counter for stochastic FP16 rounding (null: draw() gives nearest_word)
    // f + i cells (access.hpp), a pointer a direction: the narrow form, which the two-copy
    // pattern takes, ran FP16 in place 0.4% slower (H200, D3Q19 BGK 256^3: 39,071 against
    // 39,212 MLUPS), though it cut the even step's path by 99 of 526 instructions.
    DirectionArrays<S, L::Q, false> f_at;

    InPlace() = default;
    BARRACUDA_HD InPlace(S* populations, index_t n, bool odd_step, const std::uint32_t* step_clock = nullptr)
        : f(populations), cells(n), odd(odd_step), clock(step_clock), f_at(populations, n) {}

    template <int P>
    BARRACUDA_HD with_parity<P> fixed() const { return {f, cells, P == 1, clock}; }

    BARRACUDA_HD bool is_odd() const {
        if constexpr (Parity < 0) return odd;
        else return Parity == 1;
    }
    BARRACUDA_HD bool needs_destination() const { return is_odd(); }

    BARRACUDA_HD T streamed(int i, index_t cell, index_t from) const {
        return is_odd() ? load<T, E>(f_at.at(L::opposite(i), from), 0) : load<T, E>(f_at.at(i, cell), 0);
    }
    BARRACUDA_HD T reflected(int i, index_t cell) const { return read(reflected_slot(i, cell)); }
    /// Where streamed() and reflected() read, and the read itself (as two_copy.hpp).
    BARRACUDA_HD index_t streamed_slot(int i, index_t cell, index_t from) const {
        return is_odd() ? L::opposite(i) * cells + from : i * cells + cell;
    }
    BARRACUDA_HD index_t reflected_slot(int i, index_t cell) const { return i * cells + cell; }
    BARRACUDA_HD T read(index_t slot) const { return load<T, E>(f, slot); }
    /// reflected(i, cell) or streamed(i, cell, from), chosen per link (as two_copy.hpp).
    BARRACUDA_HD T link(int i, index_t cell, index_t from, bool is_reflected) const {
        return read(is_reflected ? reflected_slot(i, cell) : streamed_slot(i, cell, from));
    }
    BARRACUDA_HD std::uint32_t draw(index_t cell) const { return cell_word<S>(clock, cell); }
    BARRACUDA_HD void put(int i, index_t cell, index_t to, bool fluid, T v, std::uint32_t word = nearest_word) const {
        if (is_odd() && fluid) store_population<E>(f_at.at(i, to), 0, v, word, i);
        else store_population<E>(f_at.at(L::opposite(i), cell), 0, v, word, i);
    }
    /// f*_i of the last completed step (whose parity was !odd).
    BARRACUDA_HD T posted(int i, index_t cell, index_t to, bool fluid) const {
        if (!is_odd() && fluid) return load<T, E>(f, i * cells + to);
        return load<T, E>(f, L::opposite(i) * cells + cell);
    }
    /// Replaces what reflected(i, cell) reads, between steps (kernel/interpolated_wall.hpp).
    BARRACUDA_HD void overwrite_reflected(int i, index_t cell, T v) const {
        store_population<E>(f, i * cells + cell, v, nearest_word, i);
    }
};

}  // namespace barracuda::storage
