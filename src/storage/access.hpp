// One load and one store of a population value, converting between the storage
// type S and the arithmetic type T. On the GPU, loads of data the kernel never
// writes go through the read-only data cache.
#pragma once
#include <cstdint>
#include <type_traits>

#include "common/hd.hpp"
#include "storage/grid.hpp"
#include "storage/half.hpp"

namespace barracuda::storage {

/// The power of two by which binary16 storage scales a distribution's values (half.hpp):
/// 2^13 for a flow lattice's shifted populations f_i - w_i, which stay below 1/2 in a
/// stable flow (up to 8 are kept: a density of 10, the stability watch's default
/// bound, gives f_0 - w_0 = 4 on D2Q9), so that binary16's relative precision 2^-11
/// holds down to 2^-27 instead of 2^-14 and stochastic rounding is unbiased there.
/// A scalar set's populations (lattice/scalar_sets.hpp) are temperatures in the case's
/// unit, with no bound the store could know: stored as they are.
template <class L>
inline constexpr int half_exponent = requires { L::is_scalar_set; } ? 0 : 13;

template <class T, int E = 0, class S>
BARRACUDA_HD T load_read_only(const S* p, index_t at) {
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(S) == 2) {
        return from_storage<T, E>(Half{__ldg(reinterpret_cast<const unsigned short*>(p) + at)});
    } else {
        return T(__ldg(p + at));
    }
#else
    return from_storage<T, E>(p[at]);
#endif
}

template <class T, int E = 0, class S>
BARRACUDA_HD T load(const S* p, index_t at) {
    return from_storage<T, E>(p[at]);
}

/// Where population i of a cell lies in a structure-of-arrays store: base + i cells +
/// cell. The fused kernels address every population from this.
/// Narrow (the box layouts, Layout::narrow: fewer than 2^32 cells): from the base, the
/// 32-bit cell count and the cell's index in 32 bits. A cell's own Q slots are then
/// one multiply-add apart on the GPU (IMAD.WIDE.U32 of the count onto the last address,
/// no parameter read), and a neighbour's is the same with its index, where a pointer
/// per direction among the kernel's parameters cost a constant load and a 64-bit add
/// (two or three instructions) a population: 38 of about 526 instructions a cell in
/// the FP16 in-place even step, bound by instruction issue (sm_90 SASS; issue 20).
/// Wide (sparse storage, up to 2^37 cells): a pointer per direction, made on the host,
/// which saved the 64-bit product i * cells at every population.
template <class S, int Q, bool Narrow>
struct DirectionArrays;

template <class S, int Q>
struct DirectionArrays<S, Q, true> {
    S* base;
    std::uint32_t cells;

    DirectionArrays() = default;
    BARRACUDA_HD DirectionArrays(S* b, index_t n) : base(b), cells(std::uint32_t(n)) {}
    BARRACUDA_HD S* at(int i, index_t cell) const {
        // The cell's slot of direction 0, then i strides in bytes. The compiler folds
        // the two into one index (i cells + cell) and forms its address from that, three
        // instructions a population; on the GPU the first address is passed through an
        // opaque move, so that each slot is one multiply-add from it.
        using Byte = std::conditional_t<std::is_const_v<S>, const char, char>;
        Byte* own = reinterpret_cast<Byte*>(base + std::uint32_t(cell));
#if defined(__CUDA_ARCH__)
        asm("mov.b64 %0, %0;" : "+l"(own));
        __builtin_assume(__isGlobal(own));  // as the base was: global loads and stores
#endif
        return reinterpret_cast<S*>(own + std::uint64_t(cells) * (sizeof(S) * std::uint32_t(i)));
    }
};

template <class S, int Q>
struct DirectionArrays<S, Q, false> {
    S* start[Q];

    DirectionArrays() = default;
    BARRACUDA_HD DirectionArrays(S* base, index_t cells) {
        for (int i = 0; i < Q; ++i) start[i] = base ? base + i * cells : nullptr;
    }
    BARRACUDA_HD S* at(int i, index_t cell) const { return start[i] + cell; }
};

/// The word with which store_population rounds to nearest (ties away from zero) instead
/// of stochastically: every direction's draw of it is 2^31 (an odd multiple of 2^31 is
/// 2^31 modulo 2^32), whose top 13 bits add half a binary16 unit before the truncation.
/// A store without a step clock (initial states, walls' overwrites) rounds with it.
inline constexpr std::uint32_t nearest_word = 0x80000000u;

/// The word of a second set of populations at the cell (a coupled scalar, a second
/// component) from the flow's: another uniform word, by an odd multiplier, so that
/// nearest_word stays itself.
BARRACUDA_HD constexpr std::uint32_t second_word(std::uint32_t word) { return word * 0x2c1b3c6du; }

/// A post-collision population. Binary16 storage rounds it with the cell's word: from
/// draw() (cell_word below), stochastic; nearest_word, to nearest. One path, with no
/// test of which: the kernels are bound by instruction issue in FP16 (issue 20), and a
/// run-time choice between the two roundings compiled to both, predicated, at every
/// store (two issue slots a population). Wider types store as they are.
/// E: half_exponent of the store's lattice.
template <int E, class S, class T>
BARRACUDA_HD void store_population(S* p, index_t at, T v, std::uint32_t cell_word, int i) {
    if constexpr (sizeof(S) == 2) {
        p[at] = to_half_stochastic<E>(float(v), direction_draw(cell_word, i));
    } else {
        p[at] = S(v);
    }
}

/// The per-cell word of a store: random with a step clock, else nearest_word.
template <class S>
BARRACUDA_HD std::uint32_t cell_word(const std::uint32_t* clock, index_t cell) {
    if constexpr (sizeof(S) == 2) {
        if (clock) return cell_draw(cell, *clock);
    }
    return nearest_word;
}

}  // namespace barracuda::storage
