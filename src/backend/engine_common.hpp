// Pieces every concrete engine shares: names and sizes of a configuration.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "backend/engine.hpp"
#include "kernel/observe.hpp"
#include "physics/equilibrium.hpp"

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

template <class L, class S>
constexpr std::int64_t two_copy_memory_bytes(std::int64_t cells) {
    return 2 * L::Q * cells * std::int64_t(sizeof(S)) + cells;
}

/// Shifted equilibrium populations of (rho, u) for every fluid cell (zero in
/// solids), as [i * cells + cell]: the initial state, computed on the host by
/// both backends with the same function.
template <class L, class Eq, class S>
void equilibrium_populations(const EngineSetup& s, const std::vector<double>& rho, const std::vector<double>& u,
                             S* out) {
    using T = S;
    const std::int64_t cells = s.grid.cells();
    for (std::int64_t c = 0; c < cells; ++c) {
        const bool solid = s.node_kind[c] == boundary::Solid;
        const T vel[3] = {T(u[3 * c]), T(u[3 * c + 1]), T(u[3 * c + 2])};
        for (int i = 0; i < L::Q; ++i)
            out[i * cells + c] = solid ? S(0) : S(physics::equilibrium_shifted<L, Eq>(i, T(rho[c] - 1.0), vel));
    }
}

/// The reduced fields of an observation; the backend adds the state of the bad cell, if any.
inline Observation observation_from(const kernel::Partial& p) {
    Observation o;
    o.rho_min = p.rho_min, o.rho_max = p.rho_max, o.u_max = std::sqrt(p.u2_max);
    o.change_l2 = std::sqrt(p.change2), o.norm_l2 = std::sqrt(p.norm2);
    if (p.bad_cell != INT64_MAX) o.bad_cell = p.bad_cell;
    return o;
}

}  // namespace barracuda::backend
