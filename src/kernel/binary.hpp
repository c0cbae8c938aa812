// The two-component Shan-Chen model (physics/shan_chen.hpp, seed 003 §2.2.1) as a
// part of the update (kernel/stream_collide.hpp): component A's populations are
// the flow's store, component B's a second store of the same lattice, pattern and
// precision (the mechanism of the coupled scalar, kernel/scalar.hpp: engines
// allocate, exchange and checkpoint it alike). A step is two passes, as for one
// component (kernel/pseudopotential.hpp):
//   1. the macro-field pass: psi_A and psi_B of every fluid node, from the
//      populations the coming step gathers, into two per-cell fields;
//   2. the stream-collide pass: both components gathered, the forces
//        F_A = G psi_A(x) sum_i w_i psi_B(x - c_i) c_i,  F_B likewise,
//      read at the neighbours the pull gather reads; both collided towards the
//      common velocity with their forces (physics::binary_collide); both stored.
// Links that do not stream: walls and obstacles bounce back both components and
// present the mirror image's psi (the node beside x - c_i along the wall, as the
// free energy's wetting boundary does, kernel/free_energy.hpp), A's raised and B's
// lowered by the adhesion (wetting: > 0 draws A to the wall; 0 is a symmetry plane
// for the interaction, not for the bounced populations: 90.2 degrees); free-slip
// faces mirror both and present the mirror image's psi without adhesion. The
// adhesion of a contact angle is found by calibration drops of the case's model
// (sim/wetting.cpp). Open faces and moving walls are refused for this model
// (sim/case_check.cpp): what a face would prescribe for each component is not
// defined by one velocity or density. Every boundary cell takes this
// general path (no records).
#pragma once
#include <cstdint>

#include "boundary/parameters.hpp"
#include "kernel/links.hpp"
#include "lattice/lattice.hpp"
#include "kernel/pseudopotential.hpp"
#include "kernel/second_set.hpp"
#include "physics/shan_chen.hpp"
#include "storage/layout.hpp"

namespace barracuda::kernel {

using storage::index_t;

template <class L, class Store>
struct BinaryPart {
    using T = typename Store::compute_type;
    using Layout = typename Store::layout_type;
    using Cursor = typename Layout::Cursor;
    static constexpr bool present = true;      // component B's populations
    static constexpr bool interacting = true;  // the macro-field pass: psi_A, psi_B
    static constexpr bool binary = true;
    static constexpr bool second_density = true;  // theta (observe): B's density, watched as A's is
    static constexpr int fields = 2;  // per-cell fields of the macro-field pass: psi_A, psi_B
    static constexpr int Q = L::Q;
    using Set = SecondSet<L, Store>;

    Store store;             // component B's populations
    T* psi_a = nullptr;      // per cell: pass 1 writes them, pass 2 reads them
    T* psi_b = nullptr;
    physics::ShanChenParameters parameters{};  // G and the exponential pseudopotential's rho0
    T omega_a = T(1), omega_b = T(1);          // 1 / tau of each component
    T adhesion = T(0);  // what walls and obstacles add to psi_A and take from psi_B (wetting)

    /// Pass 1 at one cell: psi_A and psi_B of the densities the coming step gathers. A
    /// solid (or ghost) cell keeps what it holds (nothing reads it).
    template <class Eq>
    BARRACUDA_HD void macro_field(const Gather<L, Eq, Store>& in, index_t cell) const {
        const std::uint8_t k = path_of(in.node_class[cell]);
        if (k == Solid || k == Ghost) return;
        T f[Q], g[Q];
        int pos[3];
        in.layout.position(cell, pos);
        Set::gather_both(in, store, cell, k, pos, f, g);
        T rho_a = T(1), rho_b = T(1);
        BARRACUDA_UNROLL
        for (int i = 0; i < Q; ++i) rho_a += f[i], rho_b += g[i];
        const double cs2 = L::cs2;
        psi_a[cell] = T(physics::pseudopotential(parameters, double(rho_a), cs2));
        psi_b[cell] = T(physics::pseudopotential(parameters, double(rho_b), cs2));
    }

    /// Pass 2 at a bulk cell (every x - c_i fluid).
    template <class Eq>
    BARRACUDA_HD void update_bulk(const Gather<L, Eq, Store>& in, index_t cell, const Cursor& s) const {
        T f[Q], g[Q], fa[3], fb[3];
        in.gather_bulk(cell, s, f);
        Set::gather_bulk(store, cell, s, g);
        forces_bulk(cell, s, fa, fb);
        physics::binary_collide<L, Eq>(f, g, fa, fb, in.force, omega_a, omega_b);
        Set::put_bulk(in, store, cell, s, f, g);
    }

    /// Pass 2 at a boundary cell: every link classified (kernel/links.hpp). Also correct
    /// for a bulk cell, bit for bit (same sources, same arithmetic).
    template <class Eq>
    BARRACUDA_HD void update_boundary(const Gather<L, Eq, Store>& in, index_t cell) const {
        T f[Q], g[Q], fa[3], fb[3];
        int pos[3];
        in.layout.position(cell, pos);
        Set::gather_both(in, store, cell, Boundary, pos, f, g);
        forces_boundary(in.layout, in.faces, in.node_class, cell, pos, fa, fb);
        physics::binary_collide<L, Eq>(f, g, fa, fb, in.force, omega_a, omega_b);
        Set::put_boundary(in, store, cell, pos, f, g);
    }

    /// What output and observers read: A's density (rho), B's (theta) and the fluid's
    /// velocity v (physics::binary_state), after the macro-field pass of the coming step.
    /// Solids: rho = 1, u = 0, theta = 0.
    template <class Eq>
    BARRACUDA_HD void macroscopic(const Gather<L, Eq, Store>& in, index_t cell, T& rho, T (&u)[3], T& theta) const {
        const std::uint8_t k = path_of(in.node_class[cell]);
        if (k == Solid || k == Ghost) {
            rho = T(1), theta = T(0);
            u[0] = u[1] = u[2] = T(0);
            return;
        }
        T f[Q], g[Q], fa[3], fb[3];
        int pos[3];
        in.layout.position(cell, pos);
        Set::gather_both(in, store, cell, k, pos, f, g);
        if (k == Bulk) forces_bulk(cell, in.layout.cursor(pos), fa, fb);
        else forces_boundary(in.layout, in.faces, in.node_class, cell, pos, fa, fb);
        physics::binary_state<L>(f, g, fa, fb, in.force, rho, theta, u);
    }

    template <int P>
    BARRACUDA_HD BinaryPart<L, typename Store::template with_parity<P>> fixed() const {
        BinaryPart<L, typename Store::template with_parity<P>> b{};
        b.store = store.template fixed<P>();
        b.psi_a = psi_a, b.psi_b = psi_b;
        b.parameters = parameters;
        b.omega_a = omega_a, b.omega_b = omega_b;
        b.adhesion = adhesion;
        return b;
    }

private:
    /// The interaction forces at a bulk cell: psi at x - c_i, the cells the gather pulls from.
    BARRACUDA_HD void forces_bulk(index_t cell, const Cursor& s, T (&fa)[3], T (&fb)[3]) const {
        T sa[3] = {T(0), T(0), T(0)}, sb[3] = {T(0), T(0), T(0)};
        BARRACUDA_UNROLL
        for (int i = 0; i < Q; ++i) {
            const index_t from = Layout::template neighbour<L>(s, cell, i, -1);
            add(i, psi_a[from], sa);
            add(i, psi_b[from], sb);
        }
        finish(cell, sa, sb, fa, fb);
    }

    /// ... at a boundary cell at pos. Across a wall the link's source is the mirror image
    /// of x - c_i (kernel::mirror_source: the node x - c_i with the wall's normal component
    /// removed, the node itself if that is not fluid); a wall that is not free-slip adds
    /// the adhesion to psi_A and takes it from psi_B. Across an obstacle likewise, the
    /// image taken across the largest component of the normal estimated from the solid
    /// links (sum of w_i c_i over them), as the free energy's wetting does. Open links
    /// present the node's own psi (zero gradient).
    BARRACUDA_HD void forces_boundary(const Layout& layout, const boundary::Parameters& faces,
                                      const std::uint8_t* node_class, index_t cell, const int (&pos)[3], T (&fa)[3],
                                      T (&fb)[3]) const {
        T sa[3] = {T(0), T(0), T(0)}, sb[3] = {T(0), T(0), T(0)}, normal[3] = {T(0), T(0), T(0)};
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
            T shift = T(0);
            if (link.kind == LinkKind::Streamed) {
                from = link.from;
            } else if (link.kind == LinkKind::Wall) {
                from = mirror_source<L>(layout, faces, node_class, pos, cell, i, boundary::Parameters::axis(link.wall));
                if (faces.type[link.wall] != boundary::FaceType::FreeSlip) shift = adhesion;
            }
            add(i, psi_a[from] + shift, sa);
            add(i, psi_b[from] - shift, sb);
        }
        if (any_solid) {
            const int axis = dominant_axis<L>(normal);
            BARRACUDA_UNROLL
            for (int i = 0; i < Q; ++i) {
                if (!solid[i]) continue;
                const index_t from = mirror_source<L>(layout, faces, node_class, pos, cell, i, axis);
                add(i, psi_a[from] + adhesion, sa);
                add(i, psi_b[from] - adhesion, sb);
            }
        }
        finish(cell, sa, sb, fa, fb);
    }

    BARRACUDA_HD static void add(int i, T p, T (&sum)[3]) { add_link_term<L>(i, p, sum); }
    BARRACUDA_HD void finish(index_t cell, const T (&sa)[3], const T (&sb)[3], T (&fa)[3], T (&fb)[3]) const {
        const T ka = T(parameters.g) * psi_a[cell], kb = T(parameters.g) * psi_b[cell];
        BARRACUDA_UNROLL
        for (int a = 0; a < 3; ++a) fa[a] = ka * sb[a], fb[a] = kb * sa[a];
    }
};

}  // namespace barracuda::kernel
