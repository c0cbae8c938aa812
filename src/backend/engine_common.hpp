// Pieces every concrete engine shares: names and sizes of a configuration.
#pragma once
#include <string>

#include "backend/engine.hpp"

namespace barracuda::backend {

template <class L, class Eq, class Collision, class S>
std::string describe(const char* backend, const EngineSetup& s, const char* pattern) {
    return std::string(backend) + " " + L::name + " " + physics::name_of(s.collision) + " " + Eq::name + " " +
           (sizeof(S) == 8 ? "fp64" : "fp32") + " " + pattern;
}

/// Bytes per cell update of the two-copy pull kernel: Q loads and Q stores of
/// S, plus the node-kind byte of the cell (neighbours' kinds mostly hit cache).
template <class L, class S>
constexpr std::int64_t two_copy_bytes_per_cell() {
    return 2 * L::Q * std::int64_t(sizeof(S)) + 1;
}

}  // namespace barracuda::backend
