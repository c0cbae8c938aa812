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

/// A post-collision population: binary16 storage rounds stochastically when the
/// store has a step clock (half.hpp), with the cell's draw from cell_draw();
/// wider types store as they are. E: half_exponent of the store's lattice.
template <int E, class S, class T>
BARRACUDA_HD void store_population(S* p, index_t at, T v, bool stochastic, std::uint32_t cell_word, int i) {
    if constexpr (sizeof(S) == 2) {
        if (stochastic) {
            p[at] = to_half_stochastic(float(v) * power_of_two(E), direction_draw(cell_word, i));
            return;
        }
    }
    p[at] = to_storage<S, E>(v);
}

/// The per-cell random word of a store with a step clock (0 otherwise).
template <class S>
BARRACUDA_HD std::uint32_t cell_word(const std::uint32_t* clock, index_t cell) {
    if constexpr (sizeof(S) == 2) {
        if (clock) return cell_draw(cell, *clock);
    }
    return 0;
}

}  // namespace barracuda::storage
