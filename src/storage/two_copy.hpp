// Two copies of the populations ("AB"), structure of arrays: population i of
// cell c at [i * cells + c], so that a warp's loads and stores of one
// direction are contiguous. Pull streaming reads neighbours from `src` and
// writes the cell's own slots in `dst`; the copies swap after each step.
// Stored values are shifted, f_i - w_i, in the storage type S; arithmetic is in T.
//
// Every store (two_copy.hpp, in_place.hpp) answers the same three questions
// for the fused kernel (kernel/stream_collide.hpp):
//   streamed(i, cell, from)  f*_i posted last step by the fluid neighbour `from` = x - c_i
//   reflected(i, cell)       f*_opp(i) posted last step by the cell itself (bounce-back)
//   put(i, cell, to, fluid, word)  post f*_i of this step; `to` = x + c_i, `fluid`
//                            whether that node is fluid (else the population bounces
//                            back); `word` = draw(cell), for stochastic FP16 rounding
// and posted(...) reads back what put() wrote, for output of populations. The first
// two also come apart into a slot (an index into the store) and read(slot).
#pragma once
#include "common/hd.hpp"
#include "storage/access.hpp"
#include "storage/grid.hpp"

namespace barracuda::storage {

template <class L, class S, class T, class Layout = LayoutOf<L>>
struct TwoCopy {
    using storage_type = S;
    using compute_type = T;
    using layout_type = Layout;  // where cells are (storage/layout.hpp)
    using lattice_type = L;
    static constexpr const char* pattern = "two-copy";
    static constexpr int copies = 2;
    static constexpr int E = half_exponent<L>;  // binary16's scale (access.hpp)
    template <int>
    using with_parity = TwoCopy;  // the same every step
    /// The same pattern and precision over another velocity set (a coupled scalar, kernel/scalar.hpp).
    template <class L2>
    using rebind = TwoCopy<L2, S, T, Layout>;

    template <int>
    BARRACUDA_HD TwoCopy fixed() const { return *this; }

    const S* src;
    S* dst;
    index_t cells;
    const std::uint32_t* clock = nullptr;  // step counter for stochastic FP16 rounding (null: draw() gives nearest_word)
    DirectionArrays<const S, L::Q, Layout::narrow> src_at;  // src + i cells (access.hpp)
    DirectionArrays<S, L::Q, Layout::narrow> dst_at;        // dst + i cells

    TwoCopy() = default;
    BARRACUDA_HD TwoCopy(const S* from, S* to, index_t n, const std::uint32_t* step_clock = nullptr)
        : src(from), dst(to), cells(n), clock(step_clock), src_at(from, n), dst_at(to, n) {}

    /// put() never needs the destination of a link.
    BARRACUDA_HD bool needs_destination() const { return false; }

    BARRACUDA_HD T streamed(int i, index_t, index_t from) const { return load_read_only<T, E>(src_at.at(i, from), 0); }
    BARRACUDA_HD T reflected(int i, index_t cell) const { return read(reflected_slot(i, cell)); }
    /// Where streamed() and reflected() read, and the read itself: a reflecting cell's
    /// update picks each link's slot by its record, then reads (kernel/stream_collide.hpp).
    BARRACUDA_HD index_t streamed_slot(int i, index_t, index_t from) const { return i * cells + from; }
    BARRACUDA_HD index_t reflected_slot(int i, index_t cell) const { return L::opposite(i) * cells + cell; }
    BARRACUDA_HD T read(index_t slot) const { return load_read_only<T, E>(src, slot); }
    /// reflected(i, cell) or streamed(i, cell, from), chosen per link (a reflecting cell's
    /// record). In a box layout the two addresses and a select: from the slots, a 64-bit
    /// product and its address a link (sm_90 SASS of the record warps, issue 20).
    BARRACUDA_HD T link(int i, index_t cell, index_t from, bool is_reflected) const {
        if constexpr (Layout::narrow)
            return load_read_only<T, E>(is_reflected ? src_at.at(L::opposite(i), cell) : src_at.at(i, from), 0);
        else
            return read(is_reflected ? reflected_slot(i, cell) : streamed_slot(i, cell, from));
    }
    /// The cell's random word for stochastic FP16 rounding (read once per cell).
    BARRACUDA_HD std::uint32_t draw(index_t cell) const { return cell_word<S>(clock, cell); }
    BARRACUDA_HD void put(int i, index_t cell, index_t, bool, T v, std::uint32_t word = nearest_word) const {
        store_population<E>(dst_at.at(i, cell), 0, v, word, i);
    }
    /// f*_i of the last completed step.
    BARRACUDA_HD T posted(int i, index_t cell, index_t, bool) const { return load<T, E>(src, i * cells + cell); }
    /// Replaces what reflected(i, cell) reads, between steps (kernel/interpolated_wall.hpp):
    /// src is read-only only while a step runs.
    BARRACUDA_HD void overwrite_reflected(int i, index_t cell, T v) const {
        store_population<E>(const_cast<S*>(src), L::opposite(i) * cells + cell, v, nearest_word, i);
    }
};

}  // namespace barracuda::storage
