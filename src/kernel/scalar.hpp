// The second distribution of a coupled model: a scalar (temperature) on its own
// small lattice (lattice/scalar_sets.hpp), stored by the same pattern and
// precision as the flow, streamed and collided in the flow's fused update
// (kernel/stream_collide.hpp: one pass over memory for both, as seed 004 §3
// does; its bytes per cell are the flow's plus the scalar's). Its links are
// classified by the flow's rules (kernel/links.hpp) and completed by the
// scalar's own conditions where the flow has a wall, an open face or an obstacle
// (boundary/scalar_faces.hpp). Every scalar set's velocities are among its flow
// lattice's, so a flow bulk cell is a scalar bulk cell.
#pragma once
#include <cstdint>
#include <type_traits>

#include "boundary/parameters.hpp"
#include "boundary/scalar_faces.hpp"
#include "kernel/binary.hpp"
#include "kernel/free_energy.hpp"
#include "kernel/links.hpp"
#include "kernel/pseudopotential.hpp"
#include "kernel/reflecting_cells.hpp"
#include "lattice/scalar_sets.hpp"
#include "physics/advection_diffusion.hpp"
#include "storage/access.hpp"
#include "storage/layout.hpp"

namespace barracuda::kernel {

using storage::index_t;

/// Where a boundary link's scalar comes from, for the heat balance (Engine::scalar_flows):
/// rows 0-5 the box's faces, 6 + m the obstacle row m (boundary::ScalarFaces::obstacle).
inline constexpr int scalar_flow_rows = 6 + boundary::ScalarFaces::rows;

/// gather_boundary's default: tallies nothing (the update's path; the compiler drops
/// what only a tally would read).
struct NoTally {
    BARRACUDA_HD void operator()(int, double) const {}
};

/// The scalar of a coupled update. Store: the flow's pattern and precision over Ls.
template <class Ls, class Store>
struct ScalarPart {
    using T = typename Store::compute_type;
    static constexpr bool present = true;
    static constexpr bool interacting = false;  // no macro-field pass (kernel/pseudopotential.hpp)
    static constexpr bool binary = false;       // a scalar, not a fluid component (kernel/binary.hpp)
    static constexpr bool second_density = false;
    static constexpr int Q = Ls::Q;

    Store store;
    physics::ScalarTrt<Ls, T> collision;
    boundary::ScalarFaces faces;
    T buoyancy[3];  // the Boussinesq force per unit of theta: -rho_0 beta g
    // LES (the flow's Smagorinsky closure, physics/les.hpp): the cell's eddy viscosity
    // nu_t = cs2 (tau_eff - tau_0) raises the diffusivity by nu_t / Pr_t (seed 004 eq. 8),
    // tau_T = tau_T0 + eddy_ratio (tau_eff - tau_0), eddy_ratio = cs2 / (cs2_T Pr_t).
    // eddy_ratio 0: no LES on the scalar.
    T eddy_ratio = T(0), tau_t0 = T(1), lambda = T(0);

    /// The flow's force plus the buoyancy of theta.
    BARRACUDA_HD void force_at(T theta, const T (&base)[3], T (&force)[3]) const {
        BARRACUDA_UNROLL
        for (int a = 0; a < 3; ++a) force[a] = base[a] + buoyancy[a] * theta;
    }

    template <class Layout>
    BARRACUDA_HD void gather_bulk(index_t cell, const typename Layout::Cursor& s, T (&g)[Ls::Q]) const {
        BARRACUDA_UNROLL
        for (int i = 0; i < Ls::Q; ++i) g[i] = store.streamed(i, cell, Layout::template neighbour<Ls>(s, cell, i, -1));
    }

    /// Every link classified as the flow's; u is the flow velocity at the node (for the
    /// zero-gradient rule only). `tally(row, amount)` receives, for each link completed
    /// by a boundary rule, what enters the node through it in the coming step: g_i less
    /// the post-collision g*_opp(i) that left through it (scalar_flow_rows: the face or
    /// the obstacle row). Summed over the box, these are exactly the change of the total
    /// scalar per step: streaming and collision conserve it everywhere else.
    template <class Layout, class Tally = NoTally>
    BARRACUDA_HD void gather_boundary(const Layout& layout, const boundary::Parameters& flow,
                                      const std::uint8_t* node_class, index_t cell, const int (&pos)[3],
                                      const T (&u)[3], T (&g)[Ls::Q], const Tally& tally = {}) const {
        unsigned unknown = 0;
        // The links a boundary rule fills and the populations that left through them: for
        // the tally only (dropped without one). Their rows: the face crossed or the obstacle row.
        [[maybe_unused]] unsigned completed = 0;
        int row[Ls::Q] = {};
        [[maybe_unused]] T left[Ls::Q] = {};
        BARRACUDA_UNROLL
        for (int i = 0; i < Ls::Q; ++i) {
            const LinkSource link = link_source<Ls>(layout, flow, node_class, pos, i);
            if (link.kind == LinkKind::Streamed) {
                g[i] = store.streamed(i, cell, link.from);
                continue;
            }
            const bool solid = link.kind == LinkKind::SolidNode;
            const int number = solid ? moving_obstacle_of(node_class[link.from]) : 0;
            const boundary::ScalarCondition& c = solid ? faces.obstacle[number] : faces.face[link.wall];
            const T back = store.reflected(i, cell);
            row[i] = solid ? 6 + number : link.wall;
            left[i] = back;
            completed |= 1u << i;
            switch (c.rule) {
                case boundary::ScalarRule::Adiabatic:
                case boundary::ScalarRule::Fixed:
                case boundary::ScalarRule::Flux: g[i] = bounced(i, row[i], pos, layout.n, back); break;
                case boundary::ScalarRule::ZeroGradient:
                    if (zero_gradient_link(i, c, u, g[i])) unknown |= 1u << i;
                    break;
            }
        }
        if (unknown) complete_unknown(unknown, u, g);
        if constexpr (!std::is_same_v<Tally, NoTally>) {
            BARRACUDA_UNROLL
            for (int i = 0; i < Ls::Q; ++i)
                if ((completed >> i) & 1u) tally(row[i], double(g[i]) - double(left[i]));
        }
    }

    /// g_i through a link whose condition (row: 0-5 the face crossed, 6 + m obstacle row m)
    /// is adiabatic, held or a flux, from back = g*_opp(i) of the node itself.
    BARRACUDA_HD T bounced(int i, int row, const int (&pos)[3], const int (&n)[3], T back) const {
        const bool obstacle = row >= 6;
        const boundary::ScalarCondition& c = obstacle ? faces.obstacle[row - 6] : faces.face[row];
        if (c.rule == boundary::ScalarRule::Fixed) {
            const double* v = obstacle ? nullptr : faces.values[row];
            const double value = v ? v[boundary::Parameters::face_node(row, pos, n)] : c.value;
            return T(2 * Ls::w(i)) * T(value) - back;
        }
        if (c.rule == boundary::ScalarRule::Flux) return back + T(c.value);
        return back;  // adiabatic
    }

    /// The scalar of a reflecting cell (kernel/reflecting_cells.hpp): each link streamed or
    /// completed by its row's rule, as gather_boundary does it, same arithmetic in the same
    /// order. velocity(u): the node's velocity, asked for only when a zero-gradient row
    /// (an open face's) needs it.
    template <class Layout, class Velocity>
    BARRACUDA_HD void gather_reflecting(index_t cell, const typename Layout::Cursor& s, const int (&pos)[3],
                                        const int (&n)[3], std::uint32_t rows, const Velocity& velocity,
                                        T (&g)[Ls::Q]) const {
        unsigned unknown = 0;
        bool have_u = false;
        T u[3] = {T(0), T(0), T(0)};
        BARRACUDA_UNROLL
        for (int i = 0; i < Ls::Q; ++i) {
            const unsigned row = (rows >> (4 * i)) & 15u;
            const bool streamed = row == ReflectingCell::streamed_row;
            const T v = store.link(i, cell, Layout::template neighbour<Ls>(s, cell, i, -1), !streamed);
            if (streamed) {
                g[i] = v;
                continue;
            }
            const boundary::ScalarCondition& c = row >= 6 ? faces.obstacle[row - 6] : faces.face[row];
            if (c.rule != boundary::ScalarRule::ZeroGradient) {
                g[i] = bounced(i, int(row), pos, n, v);
                continue;
            }
            if (!have_u) velocity(u), have_u = true;
            if (zero_gradient_link(i, c, u, g[i])) unknown |= 1u << i;
        }
        if (unknown) complete_unknown(unknown, u, g);
    }

    /// A link of a zero-gradient condition c at the node's velocity u. Where the flow
    /// enters through the face (c_i . u > 0: this population travels inwards with it), zero
    /// gradient would feed the node its own temperature back: the backflow comes in at the
    /// face's value instead (g_i set). Otherwise the link is unknown (true; g_i = 0), for
    /// complete_unknown.
    BARRACUDA_HD static bool zero_gradient_link(int i, const boundary::ScalarCondition& c, const T (&u)[3], T& g) {
        T cu = T(0);
        BARRACUDA_UNROLL
        for (int a = 0; a < 3; ++a)
            if (Ls::c(i, a)) cu += T(Ls::c(i, a)) * u[a];
        if (cu > T(0)) {
            g = physics::scalar_equilibrium<Ls>(i, T(c.value), u);
            return false;
        }
        g = T(0);
        return true;
    }

    /// The unknown links of zero gradient: theta = known + sum_unknown e_i theta, with
    /// e_i = g_i^eq(theta = 1, u), so the node keeps the scalar its known links bring.
    BARRACUDA_HD static void complete_unknown(unsigned unknown, const T (&u)[3], T (&g)[Ls::Q]) {
        T known = T(0), share = T(0);
        T e[Ls::Q];
        BARRACUDA_UNROLL
        for (int i = 0; i < Ls::Q; ++i) {
            e[i] = physics::scalar_equilibrium<Ls>(i, T(1), u);
            if ((unknown >> i) & 1u) share += e[i];
            else known += g[i];
        }
        const T theta = known / (T(1) - share);
        BARRACUDA_UNROLL
        for (int i = 0; i < Ls::Q; ++i)
            if ((unknown >> i) & 1u) g[i] = e[i] * theta;
    }

    /// Stores a reflecting cell's scalar: a link whose opposite bounces back has no fluid
    /// node at x + c_i.
    template <class Layout>
    BARRACUDA_HD void put_reflecting(index_t cell, const typename Layout::Cursor& s, std::uint32_t rows,
                                     const T (&g)[Ls::Q], std::uint32_t word) const {
        BARRACUDA_UNROLL
        for (int i = 0; i < Ls::Q; ++i) {
            const bool fluid = ((rows >> (4 * Ls::opposite(i))) & 15u) == ReflectingCell::streamed_row;
            store.put(i, cell, Layout::template neighbour<Ls>(s, cell, i, +1), fluid, g[i], storage::second_word(word));
        }
    }

    template <class Layout>
    BARRACUDA_HD void put_bulk(index_t cell, const typename Layout::Cursor& s, const T (&g)[Ls::Q],
                               std::uint32_t word) const {
        BARRACUDA_UNROLL
        for (int i = 0; i < Ls::Q; ++i)
            store.put(i, cell, Layout::template neighbour<Ls>(s, cell, i, +1), true, g[i], storage::second_word(word));
    }

    template <class Layout>
    BARRACUDA_HD void put_boundary(const Layout& layout, const boundary::Parameters& flow,
                                   const std::uint8_t* node_class, index_t cell, const int (&pos)[3],
                                   const T (&g)[Ls::Q], std::uint32_t word) const {
        if (store.needs_destination()) {
            BARRACUDA_UNROLL
            for (int i = 0; i < Ls::Q; ++i) {
                const LinkSource to = link_source<Ls>(layout, flow, node_class, pos, Ls::opposite(i));
                store.put(i, cell, to.from, to.kind == LinkKind::Streamed, g[i], storage::second_word(word));
            }
        } else {
            BARRACUDA_UNROLL
            for (int i = 0; i < Ls::Q; ++i) store.put(i, cell, cell, true, g[i], storage::second_word(word));
        }
    }

    template <int P>
    BARRACUDA_HD ScalarPart<Ls, typename Store::template with_parity<P>> fixed() const {
        ScalarPart<Ls, typename Store::template with_parity<P>> s{};
        s.store = store.template fixed<P>();
        s.collision = collision;
        s.faces = faces;
        for (int a = 0; a < 3; ++a) s.buoyancy[a] = buoyancy[a];
        s.eddy_ratio = eddy_ratio, s.tau_t0 = tau_t0, s.lambda = lambda;
        return s;
    }
};

/// No scalar: a flow-only update carries this empty part.
struct NoScalarPart {
    static constexpr bool present = false;
    static constexpr bool interacting = false;
    static constexpr bool binary = false;
    static constexpr bool second_density = false;
    static constexpr int Q = 1;  // array sizes in code that `if constexpr` removes
    template <int>
    BARRACUDA_HD NoScalarPart fixed() const { return {}; }
};

/// The scalar part of lattice Ls over the flow store Store (NoScalar: none).
template <class Ls, class Store>
struct ScalarPartOf {
    using type = ScalarPart<Ls, typename Store::template rebind<Ls>>;
};
template <class Store>
struct ScalarPartOf<lattice::NoScalar, Store> {
    using type = NoScalarPart;
};
/// The Shan-Chen interaction (sixth column shan-chen): a field and a force, no populations.
template <class Store>
struct ScalarPartOf<lattice::ShanChenField, Store> {
    using type = PseudopotentialPart<typename Store::lattice_type, typename Store::compute_type>;
    static_assert(type::fields == lattice::macro_fields(lattice::CoupledKind::ShanChen), "lattice::macro_fields");
};
/// The second fluid component (sixth column shan-chen-binary): populations on the flow's lattice.
template <class Store>
struct ScalarPartOf<lattice::SecondComponent, Store> {
    using type = BinaryPart<typename Store::lattice_type, Store>;
    static_assert(type::fields == lattice::macro_fields(lattice::CoupledKind::ShanChenBinary), "lattice::macro_fields");
};
/// The free-energy model's order parameter (sixth column free-energy): populations on the
/// flow's lattice.
template <class Store>
struct ScalarPartOf<lattice::OrderParameter, Store> {
    using type = FreeEnergyPart<typename Store::lattice_type, Store>;
    static_assert(type::fields == lattice::macro_fields(lattice::CoupledKind::FreeEnergy), "lattice::macro_fields");
};
template <class Ls, class Store>
using ScalarPartFor = typename ScalarPartOf<Ls, Store>::type;
/// The store type of the second distribution: the scalar's lattice over the flow's pattern
/// and precision, or the flow's own store for a binary fluid's second set.
template <class Ls, class Store>
using SecondStoreFor = std::conditional_t<std::is_same_v<Ls, lattice::SecondComponent> ||
                                              std::is_same_v<Ls, lattice::OrderParameter>,
                                          Store, typename Store::template rebind<Ls>>;

}  // namespace barracuda::kernel
