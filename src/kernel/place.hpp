// Initial state: the equilibrium of (rho, u) at a cell (plus, given the strain
// rate, the first-order non-equilibrium part: physics/equilibrium.hpp) written as the
// post-collision state of the step before the first, through that step's
// store, so that the first step streams it like any other. One function for
// the host (both backends' general initialisation) and the GPU (uniform
// initialisation of grids too large to stage on the host).
#pragma once
#include <cstdint>

#include "boundary/parameters.hpp"
#include "kernel/links.hpp"
#include "lattice/lattice.hpp"
#include "physics/advection_diffusion.hpp"
#include "physics/equilibrium.hpp"
#include "physics/free_energy.hpp"
#include "storage/layout.hpp"

namespace barracuda::kernel {

template <class L, class Eq, class Store, class T, class Layout>
BARRACUDA_HD void place_equilibrium_at(const Layout& layout, const boundary::Parameters& faces,
                                       const std::uint8_t* node_class, const Store& previous, storage::index_t cell,
                                       T drho, const T (&u)[3], const T* strain = nullptr, T tau = T(1)) {
    if (path_of(node_class[cell]) == Solid) return;
    int pos[3];
    layout.position(cell, pos);
    T s[6] = {};
    if (strain)
        for (int k = 0; k < 6; ++k) s[k] = strain[k];
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) {
        T v = physics::equilibrium_shifted<L, Eq>(i, drho, u);
        if (strain) v += physics::strain_non_equilibrium_post<L>(i, Eq::velocity_weight(T(1) + drho), tau, s);
        const LinkSource to = link_source<L>(layout, faces, node_class, pos, L::opposite(i));
        previous.put(i, cell, to.from, to.kind == LinkKind::Streamed, v);
    }
}

}  // namespace barracuda::kernel

namespace barracuda::kernel {

/// Populations value(i) at a fluid cell as the post-collision state of the step before
/// the first, through that step's store (each to where it streams from the cell).
template <class Lx, class Layout, class Store, class Value>
BARRACUDA_HD void place_populations_at(const Layout& layout, const boundary::Parameters& faces,
                                       const std::uint8_t* node_class, const Store& previous,
                                       storage::index_t cell, const Value& value) {
    if (path_of(node_class[cell]) == Solid) return;
    int pos[3];
    layout.position(cell, pos);
    BARRACUDA_UNROLL
    for (int i = 0; i < Lx::Q; ++i) {
        const LinkSource to = link_source<Lx>(layout, faces, node_class, pos, Lx::opposite(i));
        previous.put(i, cell, to.from, to.kind == LinkKind::Streamed, value(i));
    }
}

/// A coupled scalar's initial state at a cell: its equilibrium of (theta, u).
template <class Ls, class Layout, class Store, class T>
BARRACUDA_HD void place_scalar_at(const Layout& layout, const boundary::Parameters& faces,
                                  const std::uint8_t* node_class, const Store& previous, storage::index_t cell,
                                  T theta, const T (&u)[3]) {
    place_populations_at<Ls>(layout, faces, node_class, previous, cell,
                             [&](int i) { return physics::scalar_equilibrium<Ls>(i, theta, u); });
}

/// The free-energy model's order parameter at a cell: g^eq of (phi, u) at mu = 0 (an
/// interface at rest in equilibrium; physics::order_parameter_initial).
template <class L, class Layout, class Store, class T>
BARRACUDA_HD void place_order_parameter_at(const Layout& layout, const boundary::Parameters& faces,
                                           const std::uint8_t* node_class, const Store& previous,
                                           storage::index_t cell, T phi, const T (&u)[3]) {
    place_populations_at<L>(layout, faces, node_class, previous, cell,
                            [&](int i) { return physics::order_parameter_initial<L>(i, phi, u); });
}

}  // namespace barracuda::kernel
