// One load and one store of a population value, converting between the storage
// type S and the arithmetic type T. On the GPU, loads of data the kernel never
// writes go through the read-only data cache.
#pragma once
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

/// Where each direction's array of a structure-of-arrays store begins: base + i cells
/// for direction i (a null base stays null). The fused kernels address population i
/// of a cell from these: made on the host, they reach a GPU kernel among its
/// parameters (constant memory), and an address costs two instructions, the cell's
/// offset added to a constant, where the 64-bit i * cells + cell and its scaling took
/// four to six a population (FP16 storage is bound by instruction issue; issue 20).
template <class S, int Q>
struct DirectionArrays {
    S* at[Q];

    DirectionArrays() = default;
    BARRACUDA_HD DirectionArrays(S* base, index_t cells) {
        for (int i = 0; i < Q; ++i) at[i] = base ? base + i * cells : nullptr;
    }
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
