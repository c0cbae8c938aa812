// The fused stream-collide update of one cell, written once for every backend
// and streaming pattern: the CPU backend calls it in an OpenMP loop, the CUDA
// backend from a kernel; the store (storage/two_copy.hpp, storage/in_place.hpp)
// decides where populations are read and written.
//
// 1. Gather the populations arriving at x along each c_i (kernel/links.hpp):
//    - from the fluid node x - c_i (wrapped on periodic axes): streamed;
//    - from a solid node: half-way bounce-back, f*_opp(i)(x);
//    - through a wall face: bounce-back (+ wall momentum for a moving wall);
//    - through a free-slip face: specular reflection, f*_m(x) with c_m the mirror
//      image of c_i (the image node's population, x - c_i's tangential shift
//      neglected: exact for flows uniform along the wall, a symmetry plane);
//    - through a velocity face with the bounce-back method: bounce-back with the
//      momentum of the prescribed velocity (boundary/bounce_back.hpp);
//    - through another velocity/pressure face: unknown, bounce-back provisionally;
//    - through an outflow face: what the next node inside receives along c_i
//      this step (zero normal gradient; two-copy streaming, where that value is
//      read-only while the step runs).
// 2. Face nodes of velocity/pressure faces: Zou-He or equilibrium (boundary/open_face.hpp).
// 3. Moments with the half-force correction, collision; in an absorbing layer the
//    relaxation towards the layer's target state (boundary/sponge.hpp); store.
// Bulk cells (node class Bulk) skip every per-link test: every x - c_i is fluid,
// inside the box or across a periodic axis.
// Solid nodes are not updated: nothing reads them. The same gather also gives
// the macroscopic fields for output and observation, so they match what the
// collision sees.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "boundary/bounce_back.hpp"
#include "boundary/sponge.hpp"
#include "boundary/parameters.hpp"
#include "boundary/open_face.hpp"
#include "kernel/links.hpp"
#include "kernel/reflecting_cells.hpp"
#include "kernel/scalar.hpp"
#include "physics/les.hpp"
#include "physics/moments.hpp"
#include "storage/layout.hpp"

namespace barracuda::kernel {

using storage::index_t;

enum class Gathered { Solid, Fluid, EquilibriumFace };

/// Steps 1-2 (streaming and boundaries). It does not depend on the collision,
/// so output and reductions instantiate it once per lattice, equilibrium and storage.
template <class L, class Eq, class Store>
struct Gather {
    using T = typename Store::compute_type;
    static_assert(L::Q <= 32, "unknown-population mask is 32 bits");
    using Layout = typename Store::layout_type;  // where cells are (storage/layout.hpp)
    using Cursor = typename Layout::Cursor;

    Layout layout;
    boundary::Parameters faces;
    const std::uint8_t* node_class;  // kernel::NodeClass per cell
    Store store;
    T force[3];

    /// Step 1 for a bulk cell: every x - c_i (wrapped) is fluid.
    BARRACUDA_HD void gather_bulk(index_t cell, const Cursor& s, T (&f)[L::Q]) const {
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) f[i] = store.streamed(i, cell, Layout::template neighbour<L>(s, cell, i, -1));
    }

    /// Steps 1-2 for a boundary cell at pos. For an equilibrium face node, `face_state`
    /// holds the prescribed state instead.
    BARRACUDA_HD Gathered gather_boundary(index_t cell, const int (&pos)[3], T (&f)[L::Q],
                                          boundary::OpenFaceState<T>& face_state) const {
        unsigned unknown = 0;
        bool beside_solid = false;
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) {
            const LinkSource link = link_source<L>(layout, faces, node_class, pos, i);
            beside_solid = beside_solid || link.kind == LinkKind::SolidNode;
            if (link.kind == LinkKind::Streamed) {
                f[i] = store.streamed(i, cell, link.from);
            } else if (link.kind == LinkKind::Wall && faces.type[link.wall] == boundary::FaceType::FreeSlip) {
                // f*_m left this node towards the wall, so like a bounced-back population it
                // was kept here: reflected(opposite(m)) reads it.
                f[i] = store.reflected(L::opposite(lattice::mirrored_along<L>(i, boundary::Parameters::axis(link.wall))),
                                       cell);
            } else {
                f[i] = store.reflected(i, cell);
                if (link.kind == LinkKind::Wall && faces.type[link.wall] == boundary::FaceType::MovingWall)
                    f[i] += boundary::moving_wall_term<L, T>(i, faces.velocity[link.wall]);
                if (link.kind == LinkKind::SolidNode) {
                    if (const int m = moving_obstacle_of(node_class[link.from]))
                        f[i] += boundary::moving_wall_term<L, T>(i, faces.obstacle_velocity[m - 1]);
                }
                if (link.kind == LinkKind::Open) {
                    if (faces.is_bounce_back(link.wall))
                        f[i] += boundary::moving_wall_term<L, T>(i, prescribed(link.wall, pos).u);
                    else
                        unknown |= 1u << i;
                }
            }
        }
        if (unknown) {
            const int face = open_face_of(pos);
            if (face < 0) {
                if (const int out = outflow_face_of(pos); out >= 0) extrapolate(out, pos, unknown, f);
            } else {
                face_state = boundary::open_face_state<L, Eq>(f, face, faces, force, prescribed(face, pos));
                // On an edge where the face meets another face, some unknowns were bounce-back
                // and the unknown set is not symmetric along that edge: Zou-He's transverse
                // correction would create or destroy mass there, and a slow drift of the outlet
                // profile results. Such edge nodes take the equilibrium of the face state. So do
                // face nodes beside an obstacle (a pipe's wall crossing an inlet): there the
                // correction balanced the bounced-back in-face populations and diverged within
                // 200 steps.
                const bool edge = beside_solid || on_face_edge<L>(layout, face, pos);
                if (edge || faces.method[face] == boundary::Method::Equilibrium) return Gathered::EquilibriumFace;
                if (faces.method[face] == boundary::Method::Regularized)
                    boundary::regularized_face<L, Eq>(f, unknown, face, face_state);
                else
                    boundary::zou_he<L>(f, unknown, face, face_state);
            }
        }
        return Gathered::Fluid;
    }

    /// Steps 1-2 for any cell.
    BARRACUDA_HD Gathered gather(index_t cell, T (&f)[L::Q], boundary::OpenFaceState<T>& face_state) const {
        const std::uint8_t k = path_of(node_class[cell]);
        if (k == Solid || k == Ghost) return Gathered::Solid;  // a ghost's state belongs to its owner rank
        int pos[3];
        layout.position(cell, pos);
        if (k == Bulk) {
            gather_bulk(cell, layout.cursor(pos), f);
            return Gathered::Fluid;
        }
        return gather_boundary(cell, pos, f, face_state);
    }

    /// Density and velocity the collision of the next step will see.
    BARRACUDA_HD void macroscopic(index_t cell, T& rho, T (&u)[3]) const {
        T f[L::Q];
        boundary::OpenFaceState<T> face_state;
        const Gathered g = gather(cell, f, face_state);
        if (g == Gathered::Solid) {
            rho = T(1);
            u[0] = u[1] = u[2] = T(0);
        } else if (g == Gathered::EquilibriumFace) {
            rho = T(1) + face_state.drho;
            u[0] = face_state.u[0], u[1] = face_state.u[1], u[2] = face_state.u[2];
        } else {
            const auto state = physics::cell_state<L, Eq>(f, force);
            rho = T(1) + state.drho;
            u[0] = state.u[0], u[1] = state.u[1], u[2] = state.u[2];
            // D3Q13 reports its pressure (seed 000 eq. 8) as the density 3 p.
            if constexpr (std::is_same_v<L, lattice::D3Q13>)
                rho = physics::d3q13_pressure_density(f, state.u, Eq::velocity_weight(T(1) + state.drho));
        }
    }

    /// Where f*_i of a boundary cell goes: the node x + c_i (the source of its
    /// opposite link) and whether that node takes it or it bounces back.
    BARRACUDA_HD LinkSource destination(const int (&pos)[3], int i) const {
        return link_source<L>(layout, faces, node_class, pos, L::opposite(i));
    }

    /// Post-collision f*_i of the last completed step at any fluid cell (output, tests).
    BARRACUDA_HD T posted(index_t cell, int i) const {
        int pos[3];
        layout.position(cell, pos);
        const LinkSource to = destination(pos, i);
        return store.posted(i, cell, to.from, to.kind == LinkKind::Streamed);
    }

    /// The velocity or density given at a face node: the face's values from expressions
    /// where it has them, else its constants (times the profile factor for a velocity).
    BARRACUDA_HD boundary::Prescribed<T> prescribed(int face, const int (&pos)[3]) const {
        boundary::Prescribed<T> p;
        if (const double* v = faces.values[face]) {
            const double* at = v + 4 * boundary::Parameters::face_node(face, pos, layout.n);
            p.u[0] = T(at[0]), p.u[1] = T(at[1]), p.u[2] = T(at[2]), p.rho = T(at[3]);
            return p;
        }
        const T k = profile_factor(face, pos);
        BARRACUDA_UNROLL
        for (int b = 0; b < 3; ++b) p.u[b] = k * T(faces.velocity[face][b]);
        p.rho = T(faces.density[face]);
        return p;
    }

    /// Velocity profile factor of a face node (boundary::Profile).
    BARRACUDA_HD T profile_factor(int face, const int (&pos)[3]) const {
        if (faces.profile[face] != boundary::Profile::Parabolic) return T(1);
        T p = T(1);
        BARRACUDA_UNROLL
        for (int a = 0; a < L::D; ++a) {
            const bool part = faces.extent[a] > 0;  // a subdomain: measure against the whole box
            if (a == boundary::Parameters::axis(face) || (part ? faces.whole_periodic[a] : layout.periodic[a])) continue;
            const T s = (T(pos[a] + faces.origin[a]) + T(0.5)) / T(part ? faces.extent[a] : layout.n[a]);
            p *= T(4) * s * (T(1) - s);
        }
        return p;
    }

    /// Outflow: each unknown f_i is what the node one step inside receives along c_i,
    /// from x_in - c_i (streamed) or by bounce-back there (a wall or obstacle beside it).
    BARRACUDA_HD void extrapolate(int face, const int (&pos)[3], unsigned unknown, T (&f)[L::Q]) const {
        int inner[3] = {pos[0], pos[1], pos[2]};
        inner[boundary::Parameters::axis(face)] += boundary::Parameters::inward(face);
        const index_t in_cell = layout.index(inner[0], inner[1], inner[2]);
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) {
            if (!((unknown >> i) & 1u)) continue;
            const LinkSource link = link_source<L>(layout, faces, node_class, inner, i);
            f[i] = link.kind == LinkKind::Streamed ? store.streamed(i, in_cell, link.from) : store.reflected(i, in_cell);
        }
    }

    /// The first outflow face the node lies on, or -1.
    BARRACUDA_HD int outflow_face_of(const int (&pos)[3]) const {
        BARRACUDA_UNROLL
        for (int face = 0; face < 6; ++face) {
            const int a = boundary::Parameters::axis(face);
            if (faces.type[face] == boundary::FaceType::Outflow && pos[a] == ((face & 1) ? layout.n[a] - 1 : 0))
                return face;
        }
        return -1;
    }

    /// The first velocity/pressure face the node completes, or -1 (kernel/links.hpp).
    BARRACUDA_HD int open_face_of(const int (&pos)[3]) const { return open_face_at(layout, faces, pos); }
};

/// What output and observation read of a cell, for flow-only and coupled updates
/// alike, without the collision (so that the output kernels compile once per store).
template <class L, class Eq, class Store, class Ls = lattice::NoScalar>
struct Observer {
    using T = typename Store::compute_type;
    using Scalar = ScalarPartFor<Ls, Store>;
    static constexpr bool coupled = Scalar::present;  // a second distribution (stored, exchanged, checkpointed)
    static constexpr bool binary = Scalar::binary;    // ... a second fluid component (kernel/binary.hpp)
    static constexpr bool thermal = coupled && !binary;  // ... a scalar (kernel/scalar.hpp)
    // theta is a second component's density (two Shan-Chen components): the stability watch
    // holds it to the density range as it does rho (the first component's).
    static constexpr bool second_density = Scalar::second_density;
    Gather<L, Eq, Store> in;
    Scalar scalar{};

    /// The scalar's populations at a boundary cell, whose flow populations f (or, on an
    /// equilibrium face node, face_state) are gathered: its zero-gradient faces take the
    /// node's velocity before the buoyancy's half force. `tally`: ScalarPart::gather_boundary's.
    template <class Tally = NoTally>
    BARRACUDA_HD static void gather_scalar_boundary(const Gather<L, Eq, Store>& in, const Scalar& scalar, index_t cell,
                                                    const int (&pos)[3], const T (&f)[L::Q], Gathered gathered,
                                                    const boundary::OpenFaceState<T>& face_state,
                                                    T (&g)[Scalar::Q], const Tally& tally = {}) {
        if constexpr (thermal) {
            T u[3];
            if (gathered == Gathered::EquilibriumFace) {
                u[0] = face_state.u[0], u[1] = face_state.u[1], u[2] = face_state.u[2];
            } else {
                const auto state = physics::cell_state<L, Eq>(f, in.force);
                u[0] = state.u[0], u[1] = state.u[1], u[2] = state.u[2];
            }
            scalar.gather_boundary(in.layout, in.faces, in.node_class, cell, pos, u, g, tally);
        }
    }

    /// Density, velocity and scalar the next step's collision will see: with a scalar, the
    /// velocity includes the buoyancy's half force, with the Shan-Chen interaction its
    /// force's. Solids: rho = 1, u = 0, theta = 0.
    BARRACUDA_HD static void macroscopic_of(const Gather<L, Eq, Store>& in, const Scalar& scalar, index_t cell,
                                            T& rho, T (&u)[3], T& theta) {
        theta = T(0);
        if constexpr (binary) {
            scalar.macroscopic(in, cell, rho, u, theta);  // A's density, B's as theta
        } else if constexpr (!coupled && !Scalar::interacting) {
            in.macroscopic(cell, rho, u);
        } else {
            const std::uint8_t k = path_of(in.node_class[cell]);
            if (k == Solid || k == Ghost) {
                rho = T(1);
                u[0] = u[1] = u[2] = T(0);
                return;
            }
            T f[L::Q];
            boundary::OpenFaceState<T> face_state;
            int pos[3];
            in.layout.position(cell, pos);
            Gathered gathered = Gathered::Fluid;
            if (k == Bulk) {
                // Every link streams: the bulk gather, as the step's bulk path reads them (the
                // general path's per-link tests give the same values, bit for bit, in more
                // instructions: seed 004's room, H200, FP16, the means' pass 123 M -> 79 M
                // warp instructions, a probe sample 42 -> 5 us).
                const auto s = in.layout.cursor(pos);
                in.gather_bulk(cell, s, f);
                if constexpr (thermal) {
                    T g[Scalar::Q];
                    scalar.template gather_bulk<typename Gather<L, Eq, Store>::Layout>(cell, s, g);
                    theta = physics::scalar_density<Ls>(g);
                }
            } else {
                gathered = in.gather_boundary(cell, pos, f, face_state);
                if constexpr (thermal) {
                    T g[Scalar::Q];
                    gather_scalar_boundary(in, scalar, cell, pos, f, gathered, face_state, g);
                    theta = physics::scalar_density<Ls>(g);
                }
            }
            if (gathered == Gathered::EquilibriumFace) {
                rho = T(1) + face_state.drho;
                u[0] = face_state.u[0], u[1] = face_state.u[1], u[2] = face_state.u[2];
                return;
            }
            // The cell's force: the buoyancy of theta, or the Shan-Chen interaction (the field
            // of the coming step: the engines run the macro-field pass before they observe).
            T force[3];
            if constexpr (thermal) scalar.force_at(theta, in.force, force);
            else scalar.force_boundary(in.layout, in.faces, in.node_class, cell, pos, in.force, force);
            const auto state = physics::cell_state<L, Eq>(f, force);
            rho = T(1) + state.drho;
            u[0] = state.u[0], u[1] = state.u[1], u[2] = state.u[2];
        }
    }
    BARRACUDA_HD void macroscopic(index_t cell, T& rho, T (&u)[3], T& theta) const {
        macroscopic_of(in, scalar, cell, rho, u, theta);
    }

    /// The heat balance's terms at a cell: what enters it through each boundary link in
    /// the coming step, added to flows[row] (kernel/scalar.hpp scalar_flow_rows). Only
    /// boundary cells have such links; nothing without a scalar.
    BARRACUDA_HD static void scalar_flows_of(const Gather<L, Eq, Store>& in, const Scalar& scalar, index_t cell,
                                             double (&flows)[scalar_flow_rows]) {
        if constexpr (thermal) {
            if (path_of(in.node_class[cell]) != Boundary) return;
            T f[L::Q];
            boundary::OpenFaceState<T> face_state;
            int pos[3];
            in.layout.position(cell, pos);
            const Gathered gathered = in.gather_boundary(cell, pos, f, face_state);
            T g[Scalar::Q];
            gather_scalar_boundary(in, scalar, cell, pos, f, gathered, face_state, g,
                                   [&](int row, double amount) { flows[row] += amount; });
        }
    }
    BARRACUDA_HD void scalar_flows(index_t cell, double (&flows)[scalar_flow_rows]) const {
        scalar_flows_of(in, scalar, cell, flows);
    }
};

/// The whole update of one cell: gather, then collide (or set the equilibrium
/// of an equilibrium face node), then store. With a coupled scalar (Ls, kernel/scalar.hpp)
/// its populations are gathered beside the flow's, its theta adds the buoyancy to the
/// cell's force, the flow collides with that force, and the scalar collides with the
/// flow's half-force velocity; both are stored in the same pass.
template <class L, class Eq, class Collision, class Store, class Ls = lattice::NoScalar>
struct StreamCollide {
    using Lattice = L;
    using T = typename Store::compute_type;
    using Layout = typename Gather<L, Eq, Store>::Layout;
    using Cursor = typename Layout::Cursor;
    using Scalar = ScalarPartFor<Ls, Store>;
    static constexpr bool coupled = Scalar::present;  // a second distribution (stored, exchanged, checkpointed)
    static constexpr bool binary = Scalar::binary;    // ... a second fluid component: its part updates the cell
    static constexpr bool thermal = coupled && !binary;  // ... a scalar
    static constexpr bool second_density = Scalar::second_density;  // theta: B's density (Observer)
    // The Shan-Chen interaction (kernel/pseudopotential.hpp): the force of each cell from
    // its neighbours' field. Its engines run every boundary cell through update_boundary
    // (a record does not say which of its reflected links cross an open face).
    static constexpr bool interacting = Scalar::interacting;
    Gather<L, Eq, Store> in;
    Collision collision;
    bool forced;  // a body force or a buoyancy acts
    bool edm = false;  // the force by the exact difference method instead of Guo's (physics/forcing.hpp)
    Scalar scalar{};

    BARRACUDA_HD void operator()(index_t cell) const {
        const std::uint8_t k = in.node_class[cell] & std::uint8_t(~Plain);  // Border cells match neither: skipped
        if (k == Bulk) update_bulk(cell);
        else if (k == Boundary) update_boundary(cell);
    }

    /// A bulk cell: no per-link tests; neighbours at index steps wrapped once per axis.
    /// The position is found inside each branch, not before the test of the absorbing
    /// layer: where the bulk path needs no neighbour (the in-place even step) it then
    /// costs nothing, where before the GPU found it for every cell, for the layer's
    /// sake (about 30 instructions a cell; sm_90 SASS of the FP16 in-place kernels).
    BARRACUDA_HD void update_bulk(index_t cell) const {
        int pos[3];
        if (binary || !in.faces.has_sponge) {
            in.layout.position(cell, pos);
            update_bulk_at(cell, in.layout.cursor(pos));
            return;
        }
        in.layout.position(cell, pos);
        update_bulk_at<true>(cell, in.layout.cursor(pos), pos);
    }

    /// A bulk cell whose cursor the caller knows: the CPU backend sweeps runs of such
    /// cells along x that share one cursor (backend/cpu), without the cell's position.
    /// Absorbing: inside an absorbing layer (absorb between collision and store), at `pos`.
    /// Same sources, same arithmetic as update_bulk.
    template <bool Absorbing = false, class Position = std::nullptr_t>
    BARRACUDA_HD void update_bulk_at(index_t cell, const Cursor& s, const Position& pos = nullptr) const {
        if constexpr (binary) {
            scalar.update_bulk(in, cell, s);
            return;
        }
        T f[L::Q];
        in.gather_bulk(cell, s, f);
        if constexpr (thermal) {
            T g[Scalar::Q];
            scalar.template gather_bulk<Layout>(cell, s, g);
            collide_coupled(f, g);
            if constexpr (Absorbing) absorb(f, pos);
            put_bulk(cell, s, f, g);
        } else {
            collide_bulk(f, cell, s);
            if constexpr (Absorbing) absorb(f, pos);
            put_bulk(cell, s, f);
        }
    }

    /// A bulk cell's collision: with the Shan-Chen interaction, with its force from the
    /// neighbours' field (the same neighbours the gather pulled from).
    BARRACUDA_HD void collide_bulk(T (&f)[L::Q], index_t cell, const Cursor& s) const {
        if constexpr (interacting && !binary) {
            T force[3], u[3];
            scalar.template force_bulk<Layout>(cell, s, in.force, force);
            collide(f, force, u);
        } else {
            collide(f);
        }
    }

    /// Stores a bulk cell's post-collision populations.
    BARRACUDA_HD void put_bulk(index_t cell, const Cursor& s, const T (&f)[L::Q]) const {
        const std::uint32_t word = in.store.draw(cell);
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) in.store.put(i, cell, Layout::template neighbour<L>(s, cell, i, +1), true, f[i], word);
    }
    BARRACUDA_HD void put_bulk(index_t cell, const Cursor& s, const T (&f)[L::Q], const T (&g)[Scalar::Q]) const {
        const std::uint32_t word = in.store.draw(cell);
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) in.store.put(i, cell, Layout::template neighbour<L>(s, cell, i, +1), true, f[i], word);
        if constexpr (thermal) scalar.template put_bulk<Layout>(cell, s, g, word);
    }

    /// A fluid cell that is not bulk: every link classified (kernel/links.hpp). It is
    /// also correct for a bulk cell, whose links all come out streamed, and gives what
    /// update_bulk gives bit for bit (same sources, same arithmetic): both backends run
    /// a subdomain's border cells through it (tests/mpi compares with one rank).
    BARRACUDA_HD void update_boundary(index_t cell) const {
        if constexpr (binary) {
            scalar.update_boundary(in, cell);
            return;
        }
        T f[L::Q];
        int pos[3];
        in.layout.position(cell, pos);
        boundary::OpenFaceState<T> face_state;
        const Gathered gathered = in.gather_boundary(cell, pos, f, face_state);
        [[maybe_unused]] T g[Scalar::Q];
        if constexpr (thermal)
            Observer<L, Eq, Store, Ls>::gather_scalar_boundary(in, scalar, cell, pos, f, gathered, face_state, g);
        if (gathered == Gathered::EquilibriumFace) {
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i)
                f[i] = physics::equilibrium_shifted<L, Eq>(i, face_state.drho, face_state.u);
            if constexpr (thermal) scalar.collision(g, physics::scalar_density<Ls>(g), face_state.u);
        } else {
            if constexpr (thermal) {
                collide_coupled(f, g);
            } else if constexpr (interacting && !binary) {
                T force[3], u[3];
                scalar.force_boundary(in.layout, in.faces, in.node_class, cell, pos, in.force, force);
                collide(f, force, u);
            } else {
                collide(f);
            }
            if (in.faces.has_sponge) absorb(f, pos);
        }
        const std::uint32_t word = in.store.draw(cell);
        if (in.store.needs_destination()) {
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) {
                const LinkSource to = in.destination(pos, i);
                in.store.put(i, cell, to.from, to.kind == LinkKind::Streamed, f[i], word);
            }
        } else {
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) in.store.put(i, cell, cell, true, f[i], word);
        }
        if constexpr (thermal)
            scalar.put_boundary(in.layout, in.faces, in.node_class, cell, pos, g, word);
    }

    /// A reflecting boundary cell (kernel/reflecting_cells.hpp): its links' classes from
    /// its record instead of per-link tests, otherwise update_boundary of the same cell,
    /// bit for bit (same sources, same arithmetic; tests/test_reflecting_cells.cpp).
    /// Open: whether the cell may be an open face's (ReflectingCell::open()); the GPU runs
    /// the walls' records in a kernel of their own without that code (false).
    template <bool Open = true>
    BARRACUDA_HD void update_reflecting(const ReflectingCell& r) const {
        int pos[3];
        in.layout.position(r.cell, pos);
        update_reflecting_at<Open>(r, in.layout.cursor(pos), pos);
    }

    /// update_reflecting with the cell's cursor and position known to the caller (the GPU's
    /// sparse kernels hold the neighbour tiles in shared memory). A record with no link
    /// reflected (ReflectingCell::streaming) computes what update_bulk does, bit for bit:
    /// the GPU runs the bulk cells of a warp that holds records through it.
    template <bool Open = true>
    BARRACUDA_HD void update_reflecting_at(const ReflectingCell& r, const Cursor& s, const int (&pos)[3]) const {
        if constexpr (interacting) {
            // The engines give the Shan-Chen models no records; should one come, the general
            // path is the same update.
            update_boundary(r.cell);
            return;
        }
        // A box layout's cells are below 2^32 (storage/layout.hpp): said so, their
        // addresses are 32-bit products (storage/access.hpp).
        const index_t cell = Layout::narrow ? index_t(std::uint32_t(r.cell)) : r.cell;
        T f[L::Q];
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i)
            f[i] = in.store.link(i, cell, Layout::template neighbour<L>(s, cell, i, -1), (r.reflect >> i) & 1u);
        if (Open && r.open()) {
            // An open face's node: its unknowns (reflected bits not from a wall or an
            // obstacle) completed by the face's rule, as gather_boundary does after reading
            // them the same way; on an edge or beside an obstacle, the equilibrium.
            const int code = r.mover - ReflectingCell::open_mover;
            const int face = code % ReflectingCell::open_edge;
            const boundary::OpenFaceState<T> face_state =
                boundary::open_face_state<L, Eq>(f, face, in.faces, in.force, in.prescribed(face, pos));
            if (code >= ReflectingCell::open_edge || in.faces.method[face] == boundary::Method::Equilibrium) {
                // The scalar as update_boundary's: its zero-gradient links with the face state's
                // velocity, then its collision with it.
                [[maybe_unused]] T g[Scalar::Q];
                if constexpr (thermal) {
                    auto velocity = [&](T(&u)[3]) { u[0] = face_state.u[0], u[1] = face_state.u[1], u[2] = face_state.u[2]; };
                    scalar.template gather_reflecting<Layout>(cell, s, pos, in.layout.n, r.scalar, velocity, g);
                }
                BARRACUDA_UNROLL
                for (int i = 0; i < L::Q; ++i)
                    f[i] = physics::equilibrium_shifted<L, Eq>(i, face_state.drho, face_state.u);
                const std::uint32_t word = put_reflecting(r, s, f);
                if constexpr (thermal) {
                    scalar.collision(g, physics::scalar_density<Ls>(g), face_state.u);
                    scalar.template put_reflecting<Layout>(cell, s, r.scalar, g, word);
                }
                return;
            }
            if (in.faces.method[face] == boundary::Method::Regularized)
                boundary::regularized_face<L, Eq>(f, r.reflect, face, face_state);
            else
                boundary::zou_he<L>(f, r.reflect, face, face_state);
        } else if (r.mover >= 0) {
            move(f, r, pos);
        }
        [[maybe_unused]] T g[Scalar::Q];
        if constexpr (thermal) {
            // The velocity of the gathered (completed) populations before the buoyancy's half
            // force, as Observer::gather_scalar_boundary gives the general path's scalar.
            auto velocity = [&](T(&u)[3]) {
                const auto state = physics::cell_state<L, Eq>(f, in.force);
                u[0] = state.u[0], u[1] = state.u[1], u[2] = state.u[2];
            };
            scalar.template gather_reflecting<Layout>(cell, s, pos, in.layout.n, r.scalar, velocity, g);
            collide_coupled(f, g);
        } else {
            collide(f);
        }
        if (in.faces.has_sponge) absorb(f, pos);
        const std::uint32_t word = put_reflecting(r, s, f);
        if constexpr (thermal) scalar.template put_reflecting<Layout>(cell, s, r.scalar, g, word);
    }

    /// Engines may flag such cells Plain (links.hpp) and keep no record: the GPU's
    /// kernels then update them with update_reflecting_at of this one.
    static constexpr bool plain_cells = !coupled && !interacting;

    /// The record of a Plain cell (links.hpp) from its neighbours' classes: what
    /// split_boundary_cells recorded for it (reflecting_cells.hpp's is_plain checks the
    /// two agree before an engine drops the record), so the same update, bit for bit.
    BARRACUDA_HD ReflectingCell plain_record(index_t cell, const Cursor& s) const {
        return {cell, plain_links<L, Layout>(in.node_class, s, cell), 0u, 0u, -1};
    }

    /// Stores a reflecting cell's flow populations; returns the cell's rounding word, which
    /// the scalar's store takes too.
    BARRACUDA_HD std::uint32_t put_reflecting(const ReflectingCell& r, const Cursor& s, const T (&f)[L::Q]) const {
        const std::uint32_t word = in.store.draw(r.cell);
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i)
            in.store.put(i, r.cell, Layout::template neighbour<L>(s, r.cell, i, +1),
                         !((r.reflect >> L::opposite(i)) & 1u), f[i], word);
        return word;
    }

    /// The momentum of a moving wall, a moving obstacle or a bounce-back velocity face on
    /// a reflecting cell's bounced-back links (as gather_boundary adds it).
    BARRACUDA_HD void move(T (&f)[L::Q], const ReflectingCell& r, const int (&pos)[3]) const {
        if (r.mover >= ReflectingCell::obstacle_mover) {
            const double(&u)[3] = in.faces.obstacle_velocity[r.mover - ReflectingCell::obstacle_mover - 1];
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i)
                if ((r.moved >> i) & 1u) f[i] += boundary::moving_wall_term<L, T>(i, u);
        } else if (in.faces.type[r.mover] == boundary::FaceType::MovingWall) {
            const double(&u)[3] = in.faces.velocity[r.mover];
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i)
                if ((r.moved >> i) & 1u) f[i] += boundary::moving_wall_term<L, T>(i, u);
        } else {
            const boundary::Prescribed<T> p = in.prescribed(r.mover, pos);
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i)
                if ((r.moved >> i) & 1u) f[i] += boundary::moving_wall_term<L, T>(i, p.u);
        }
    }

    /// Density, velocity and scalar the next step's collision will see (Observer).
    BARRACUDA_HD void macroscopic(index_t cell, T& rho, T (&u)[3], T& theta) const {
        Observer<L, Eq, Store, Ls>::macroscopic_of(in, scalar, cell, rho, u, theta);
    }
    /// The heat balance's terms at a cell (Observer::scalar_flows_of).
    BARRACUDA_HD void scalar_flows(index_t cell, double (&flows)[scalar_flow_rows]) const {
        Observer<L, Eq, Store, Ls>::scalar_flows_of(in, scalar, cell, flows);
    }

    /// The same update with the store's parity fixed at compile time.
    template <int P>
    BARRACUDA_HD StreamCollide<L, Eq, Collision, typename Store::template with_parity<P>, Ls> fixed() const {
        StreamCollide<L, Eq, Collision, typename Store::template with_parity<P>, Ls> k{};
        k.in.layout = in.layout;
        k.in.faces = in.faces;
        k.in.node_class = in.node_class;
        k.in.store = in.store.template fixed<P>();
        for (int d = 0; d < 3; ++d) k.in.force[d] = in.force[d];
        k.collision = collision;
        k.forced = forced;
        k.edm = edm;
        k.scalar = scalar.template fixed<P>();
        return k;
    }

    /// The absorbing layers the node lies in (boundary/sponge.hpp), after its collision.
    BARRACUDA_HD void absorb(T (&f)[L::Q], const int (&pos)[3]) const {
        for (int face = 0; face < 6; ++face) {
            const boundary::SpongeLayer& layer = in.faces.sponge[face];
            const double sigma = layer.rate(in.faces.whole_depth(face, pos, in.layout.n));
            if (sigma > 0) boundary::absorb<L, Eq>(f, T(sigma), layer);
        }
    }

    BARRACUDA_HD void collide(T (&f)[L::Q]) const {
        T u[3];
        collide(f, in.force, u);
    }

    /// The collision with the cell's force; u: the (half-force) velocity of its equilibrium.
    /// Returns what the collision returns: the rate its stress relaxed with, where it has
    /// an LES closure (physics/les.hpp), which the coupled scalar's eddy diffusivity takes.
    BARRACUDA_HD auto collide(T (&f)[L::Q], const T (&force)[3], T (&u)[3]) const {
        auto state = physics::cell_state<L, Eq>(f, force);
        u[0] = state.u[0], u[1] = state.u[1], u[2] = state.u[2];
        if (edm && forced) {
            // cell_state's u is (j + F/2) / rho_u; EDM relaxes towards the velocity before the
            // force, j / rho_u, and adds the equilibrium's change over du = F / rho_u.
            const T inv_rho_u = T(1) / Eq::velocity_weight(T(1) + state.drho);
            T du[3];
            BARRACUDA_UNROLL
            for (int a = 0; a < 3; ++a) du[a] = force[a] * inv_rho_u, state.u[a] -= T(0.5) * du[a];
            if constexpr (std::is_void_v<decltype(collision(f, state, force, false))>) {
                collision(f, state, force, false);
                BARRACUDA_UNROLL
                for (int i = 0; i < L::Q; ++i) f[i] += physics::edm_source<L, Eq>(i, state.drho, state.u, du);
                return;
            } else {
                const auto rate = collision(f, state, force, false);
                BARRACUDA_UNROLL
                for (int i = 0; i < L::Q; ++i) f[i] += physics::edm_source<L, Eq>(i, state.drho, state.u, du);
                return rate;
            }
        }
        return collision(f, state, force, forced);
    }

    /// Flow and scalar of a coupled cell: theta, the buoyancy, the flow's collision, then
    /// the scalar's with the flow's half-force velocity.
    BARRACUDA_HD void collide_coupled(T (&f)[L::Q], T (&g)[Scalar::Q]) const {
        if constexpr (thermal) {
            const T theta = physics::scalar_density<Ls>(g);
            T force[3], u[3];
            scalar.force_at(theta, in.force, force);
            if constexpr (requires { collision.les_factor; collision.tau0; }) {
                if (scalar.eddy_ratio > T(0) && collision.les_factor > T(0)) {
                    // The flow's own closure, as its collision used it (the rate it returns).
                    // Computed here apart, its square roots and divisions were computed twice
                    // (the GPU compiler did not share them: seed 004's room, sm_90 SASS).
                    const T tau_eff = T(1) / collide(f, force, u);
                    const T tau_t = scalar.tau_t0 + scalar.eddy_ratio * (tau_eff - collision.tau0);
                    physics::ScalarTrt<Ls, T>::of_tau(tau_t, scalar.lambda)(g, theta, u);
                    return;
                }
            }
            collide(f, force, u);
            scalar.collision(g, theta, u);
        }
    }
};

}  // namespace barracuda::kernel
