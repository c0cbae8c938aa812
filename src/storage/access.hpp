// One load and one store of a population value, converting between the storage
// type S and the arithmetic type T. On the GPU, loads of data the kernel never
// writes go through the read-only data cache.
#pragma once
#include "common/hd.hpp"
#include "storage/grid.hpp"
#include "storage/half.hpp"

namespace barracuda::storage {

template <class T, class S>
BARRACUDA_HD T load_read_only(const S* p, index_t at) {
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(S) == 2) {
        return from_storage<T>(Half{__ldg(reinterpret_cast<const unsigned short*>(p) + at)});
    } else {
        return T(__ldg(p + at));
    }
#else
    return from_storage<T>(p[at]);
#endif
}

template <class T, class S>
BARRACUDA_HD T load(const S* p, index_t at) {
    return from_storage<T>(p[at]);
}

/// A post-collision population: binary16 storage rounds stochastically when the
/// store has a step clock (half.hpp), with the cell's draw from cell_draw();
/// wider types store as they are.
template <class S, class T>
BARRACUDA_HD void store_population(S* p, index_t at, T v, bool stochastic, std::uint32_t cell_word, int i) {
    if constexpr (sizeof(S) == 2) {
        if (stochastic) {
            p[at] = to_half_stochastic(float(v), direction_draw(cell_word, i));
            return;
        }
    }
    p[at] = to_storage<S>(v);
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
