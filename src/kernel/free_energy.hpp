// The free-energy binary fluid (physics/free_energy.hpp, seed 003 §2.2.2) as a part of
// the update (kernel/stream_collide.hpp), on the mechanism of the two-component
// Shan-Chen model (kernel/binary.hpp): the order parameter's populations g are a
// second store of the flow's lattice, pattern and precision, which the engines
// allocate, exchange and checkpoint as they do component B's. A step is two passes:
//   1. the macro-field pass: phi = sum_i g_i of every fluid node, from the
//      populations the coming step gathers, into a per-cell field;
//   2. the stream-collide pass: f and g gathered, grad phi and lap phi from the field
//      at the neighbours the pull gather reads (the first ring: the isotropic
//      stencils need no more), both collided (physics::free_energy_collide) and
//      stored.
// Links that do not stream: walls and obstacles bounce back f and g (no flux of phi)
// and present phi with the wetting boundary condition kappa d_n phi = -h (a contact
// angle: physics::wetting_potential; h = 0, a neutral wall, is 90 degrees); free-slip
// faces mirror both and present the mirror image's phi. Open faces and moving walls
// are refused for this model (sim/case_check.cpp).
#pragma once
#include <cmath>
#include <cstdint>

#include "boundary/parameters.hpp"
#include "kernel/links.hpp"
#include "kernel/pseudopotential.hpp"
#include "kernel/second_set.hpp"
#include "lattice/lattice.hpp"
#include "physics/free_energy.hpp"
#include "storage/layout.hpp"

namespace barracuda::kernel {

using storage::index_t;

template <class L, class Store>
struct FreeEnergyPart {
    using T = typename Store::compute_type;
    using Layout = typename Store::layout_type;
    using Cursor = typename Layout::Cursor;
    static constexpr bool present = true;      // the order parameter's populations
    static constexpr bool interacting = true;  // the macro-field pass: phi
    static constexpr bool binary = true;       // the part updates the whole cell
    static constexpr bool second_density = false;  // theta (observe): phi
    static constexpr int fields = 1;           // per-cell fields of the macro-field pass
    static constexpr int Q = L::Q;
    using Set = SecondSet<L, Store>;

    Store store;         // g, the order parameter's populations
    T* phi = nullptr;    // per cell: pass 1 writes it, pass 2 reads it
    physics::FreeEnergyParameters parameters{};
    T tau_a = T(1), tau_b = T(1);  // the two fluids' relaxation times (phi = +1: A)
    T omega_phi = T(1);            // 1 / tau_phi
    T wall_slope = T(0);           // h / kappa: the wetting rise of phi a spacing towards a wall (0: neutral)

    /// Pass 1 at one cell: phi of the populations the coming step gathers. A solid (or
    /// ghost) cell keeps what it holds (nothing reads it).
    template <class Eq>
    BARRACUDA_HD void macro_field(const Gather<L, Eq, Store>& in, index_t cell) const {
        const std::uint8_t k = path_of(in.node_class[cell]);
        if (k == Solid || k == Ghost) return;
        int pos[3];
        in.layout.position(cell, pos);
        T g[Q];
        if (k == Bulk) Set::gather_bulk(store, cell, in.layout.cursor(pos), g);
        else Set::gather_boundary(store, in.layout, in.faces, in.node_class, pos, cell, g);
        T dphi = T(0);
        BARRACUDA_UNROLL
        for (int i = 0; i < Q; ++i) dphi += g[i];
        phi[cell] = T(1) + dphi;
    }

    /// Pass 2 at a bulk cell (every x - c_i fluid).
    template <class Eq>
    BARRACUDA_HD void update_bulk(const Gather<L, Eq, Store>& in, index_t cell, const Cursor& s) const {
        T f[Q], g[Q], grad[3], lap;
        in.gather_bulk(cell, s, f);
        Set::gather_bulk(store, cell, s, g);
        derivatives_bulk(cell, s, grad, lap);
        physics::free_energy_collide<L, Eq>(f, g, grad, lap, in.force, parameters, tau_a, tau_b, omega_phi);
        Set::put_bulk(in, store, cell, s, f, g);
    }

    /// Pass 2 at a boundary cell: every link classified (kernel/links.hpp). Also correct
    /// for a bulk cell, bit for bit (same sources, same arithmetic).
    template <class Eq>
    BARRACUDA_HD void update_boundary(const Gather<L, Eq, Store>& in, index_t cell) const {
        T f[Q], g[Q], grad[3], lap;
        int pos[3];
        in.layout.position(cell, pos);
        Set::gather_both(in, store, cell, Boundary, pos, f, g);
        derivatives_boundary(in.layout, in.faces, in.node_class, cell, pos, grad, lap);
        physics::free_energy_collide<L, Eq>(f, g, grad, lap, in.force, parameters, tau_a, tau_b, omega_phi);
        Set::put_boundary(in, store, cell, pos, f, g);
    }

    /// What output and observers read: the density (rho), phi (theta) and the fluid's
    /// velocity (j + F/2) / rho. Solids: rho = 1, u = 0, theta = 0.
    template <class Eq>
    BARRACUDA_HD void macroscopic(const Gather<L, Eq, Store>& in, index_t cell, T& rho, T (&u)[3], T& theta) const {
        const std::uint8_t k = path_of(in.node_class[cell]);
        if (k == Solid || k == Ghost) {
            rho = T(1), theta = T(0);
            u[0] = u[1] = u[2] = T(0);
            return;
        }
        T f[Q], g[Q];
        int pos[3];
        in.layout.position(cell, pos);
        Set::gather_both(in, store, cell, k, pos, f, g);
        // The velocity and densities do not depend on lap phi (mu is not reported).
        const auto state = physics::free_energy_state<L>(f, g, T(0), in.force, parameters);
        rho = state.rho, theta = state.phi;
        u[0] = state.v[0], u[1] = state.v[1], u[2] = state.v[2];
    }

    template <int P>
    BARRACUDA_HD FreeEnergyPart<L, typename Store::template with_parity<P>> fixed() const {
        FreeEnergyPart<L, typename Store::template with_parity<P>> b{};
        b.store = store.template fixed<P>();
        b.phi = phi;
        b.parameters = parameters;
        b.tau_a = tau_a, b.tau_b = tau_b, b.omega_phi = omega_phi;
        b.wall_slope = wall_slope;
        return b;
    }

private:
    /// grad phi and lap phi at a bulk cell from phi at x - c_i, the cells the gather
    /// pulls from (physics/free_energy.hpp: the isotropic stencils).
    BARRACUDA_HD void derivatives_bulk(index_t cell, const Cursor& s, T (&grad)[3], T& lap) const {
        T sum[3] = {T(0), T(0), T(0)}, around = T(0);
        BARRACUDA_UNROLL
        for (int i = 0; i < Q; ++i) add(i, phi[Layout::template neighbour<L>(s, cell, i, -1)], sum, around);
        finish(phi[cell], sum, around, grad, lap);
    }

    /// ... at a boundary cell at pos. Across a wall the link's source is the mirror image
    /// of x - c_i, the node x - c_i with its normal component removed (a flat wall's
    /// tangential profile), and a wall that is not free-slip adds the wetting rise
    /// |c_i.n| wall_slope (kappa d_n phi = -h: phi grows towards the wall by h / kappa a
    /// spacing; 0 for a neutral wall). Across an obstacle likewise, with n the unit normal
    /// into the fluid estimated from the solid links (n ~ sum of w_i c_i over them: exact
    /// on a flat face, the diagonal at a corner), the image taken along n's largest
    /// component and the rise (c_i.n) wall_slope. An image that is not fluid gives way to
    /// the node itself. With the image, the ghost value phi(x - c_i) is a Taylor step
    /// along the wall's normal alone; with the node itself it would also carry the
    /// tangential step, which moves a contact line's angle (measured on a flat obstacle:
    /// +4.7 degrees at 60). Open links present the node's own phi.
    BARRACUDA_HD void derivatives_boundary(const Layout& layout, const boundary::Parameters& faces,
                                           const std::uint8_t* node_class, index_t cell, const int (&pos)[3],
                                           T (&grad)[3], T& lap) const {
        T sum[3] = {T(0), T(0), T(0)}, around = T(0), normal[3] = {T(0), T(0), T(0)};
        bool solid[Q];
        bool any_solid = false;
        BARRACUDA_UNROLL
        for (int i = 0; i < Q; ++i) {
            const LinkSource link = link_source<L>(layout, faces, node_class, pos, i);
            solid[i] = link.kind == LinkKind::SolidNode;
            if (solid[i]) {
                add_link_term<L>(i, T(1), normal);
                any_solid = true;
                continue;
            }
            index_t from = cell;
            T rise = T(0);
            if (link.kind == LinkKind::Streamed) {
                from = link.from;
            } else if (link.kind == LinkKind::Wall) {
                const int axis = boundary::Parameters::axis(link.wall);
                from = mirror_source<L>(layout, faces, node_class, pos, cell, i, axis);
                if (faces.type[link.wall] != boundary::FaceType::FreeSlip)
                    rise = T(L::c(i, axis) * L::c(i, axis)) * wall_slope;  // |c_ia| of a unit lattice
            }
            add(i, phi[from] + rise, sum, around);
        }
        if (any_solid) {
            using std::sqrt;
            const T length = sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
            const int axis = dominant_axis<L>(normal);
            BARRACUDA_UNROLL
            for (int i = 0; i < Q; ++i) {
                if (!solid[i]) continue;
                const T along = T(L::c(i, 0)) * normal[0] + T(L::c(i, 1)) * normal[1] + T(L::c(i, 2)) * normal[2];
                const T rise = length > T(0) ? along / length * wall_slope : T(0);
                add(i, phi[mirror_source<L>(layout, faces, node_class, pos, cell, i, axis)] + rise, sum, around);
            }
        }
        finish(phi[cell], sum, around, grad, lap);
    }

    /// One link's terms: sum_i w_i c_i phi(x - c_i) and sum_i w_i phi(x - c_i).
    BARRACUDA_HD static void add(int i, T p, T (&sum)[3], T& around) {
        add_link_term<L>(i, p, sum);
        around += T(L::w(i)) * p;
    }
    /// grad phi = -sum_i w_i c_i phi(x - c_i) / cs2 (the lattice is symmetric: the sum over
    /// x + c_i with the sign turned), lap phi = 2 (sum_i w_i phi(x - c_i) - phi(x)) / cs2
    /// (sum_i w_i = 1).
    BARRACUDA_HD static void finish(T own, const T (&sum)[3], T around, T (&grad)[3], T& lap) {
        constexpr T inv_cs2 = T(1.0 / L::cs2);
        BARRACUDA_UNROLL
        for (int a = 0; a < 3; ++a) grad[a] = -inv_cs2 * sum[a];
        lap = T(2) * inv_cs2 * (around - own);
    }
};

}  // namespace barracuda::kernel
