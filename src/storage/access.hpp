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

template <class S, class T>
BARRACUDA_HD void store(S* p, index_t at, T v) {
    p[at] = to_storage<S>(v);
}

/// A post-collision population: binary16 storage rounds stochastically when the
/// store has a step clock (half.hpp), wider types store as they are.
template <class S, class T>
BARRACUDA_HD void store_population(S* p, index_t at, T v, const std::uint32_t* clock, index_t cell, int i) {
    if constexpr (sizeof(S) == 2) {
        if (clock) {
            p[at] = to_half_stochastic(float(v), rounding_draw(cell, i, *clock));
            return;
        }
    }
    p[at] = to_storage<S>(v);
}

}  // namespace barracuda::storage
