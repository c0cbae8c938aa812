// The fused stream-collide update of one cell, written once for every backend:
// the CPU backend calls it in an OpenMP loop, the CUDA backend from a kernel.
//
// 1. Pull: f_i(x) = f*_i(x - c_i) from the source copy, except where x - c_i is
//    - a solid node: half-way bounce-back, f*_opp(i)(x);
//    - outside a periodic axis: wrapped;
//    - outside through a wall face: bounce-back (+ wall momentum for a moving wall);
//    - outside through a velocity/pressure face: unknown, bounce-back provisionally.
// 2. Face nodes of velocity/pressure faces: Zou-He or equilibrium (boundary/open_face.hpp).
// 3. Moments with the half-force correction, collision, store.
// Solid nodes are not updated: nothing reads them. The same gather also gives
// the macroscopic fields for output and observation, so they match what the
// collision sees.
#pragma once
#include <cstdint>

#include "boundary/bounce_back.hpp"
#include "boundary/face_table.hpp"
#include "boundary/open_face.hpp"
#include "physics/moments.hpp"
#include "storage/grid.hpp"

namespace barracuda::kernel {

using storage::index_t;

enum class Gathered { Solid, Fluid, EquilibriumFace };

/// Steps 1-2 (streaming and boundaries). It does not depend on the collision,
/// so output and reductions instantiate it once per lattice, equilibrium and storage.
template <class L, class Eq, class Store>
struct Gather {
    using T = typename Store::compute_type;
    static_assert(L::Q <= 32, "unknown-population mask is 32 bits");

    storage::Grid grid;
    boundary::FaceTable faces;
    const std::uint8_t* kind;
    Store store;
    T force[3];

    /// Steps 1-2: the populations arriving at (x, y, z), boundary rules applied.
    /// For an equilibrium face node, `face` holds the prescribed state instead.
    BARRACUDA_HD Gathered gather(int x, int y, int z, T (&f)[L::Q], boundary::OpenFaceState<T>& face_state) const {
        using boundary::FaceType;
        const index_t cell = grid.index(x, y, z);
        if (kind[cell] == boundary::Solid) return Gathered::Solid;
        const int pos[3] = {x, y, z};

        // Interior cells (all neighbours inside the box) skip the per-axis tests.
        bool interior = true;
        BARRACUDA_UNROLL
        for (int a = 0; a < L::D; ++a) interior = interior && pos[a] > 0 && pos[a] < grid.n[a] - 1;
        if (interior) {
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) {
                const index_t src = cell - (L::c(i, 0) + index_t(grid.n[0]) * (L::c(i, 1) + index_t(grid.n[1]) * L::c(i, 2)));
                f[i] = kind[src] == boundary::Solid ? store.load(L::opposite(i), cell) : store.load(i, src);
            }
            return Gathered::Fluid;
        }

        unsigned unknown = 0;
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) {
            int s[3];
            int wall = -1;      // a wall face the link crosses (a stationary one wins)
            bool open = false;  // the link crosses a velocity/pressure face
            BARRACUDA_UNROLL
            for (int a = 0; a < 3; ++a) {
                s[a] = pos[a] - L::c(i, a);
                if (s[a] < 0 || s[a] >= grid.n[a]) {
                    if (grid.periodic[a]) {
                        s[a] += s[a] < 0 ? grid.n[a] : -grid.n[a];
                    } else {
                        const int face = 2 * a + (s[a] < 0 ? 0 : 1);
                        if (faces.is_wall(face)) {
                            if (wall < 0 || faces.type[face] == FaceType::Wall) wall = face;
                        } else {
                            open = true;
                        }
                    }
                }
            }
            const int o = L::opposite(i);
            if (wall >= 0) {
                f[i] = store.load(o, cell);
                if (faces.type[wall] == FaceType::MovingWall)
                    f[i] += boundary::moving_wall_term<L, T>(i, faces.velocity[wall]);
            } else if (open) {
                f[i] = store.load(o, cell);
                unknown |= 1u << i;
            } else {
                const index_t src = grid.index(s[0], s[1], s[2]);
                f[i] = kind[src] == boundary::Solid ? store.load(o, cell) : store.load(i, src);
            }
        }

        if (unknown) {
            const int face = open_face_of(pos);
            if (face >= 0) {
                face_state = boundary::open_face_state<L, Eq>(f, face, faces, force, profile_factor(face, pos));
                // On an edge where the face meets another face, some unknowns were bounce-back
                // and the unknown set is not symmetric along that edge: Zou-He's transverse
                // correction would create or destroy mass there, and a slow drift of the outlet
                // profile results. Such edge nodes take the equilibrium of the face state.
                bool edge = false;
                BARRACUDA_UNROLL
                for (int t = 0; t < L::D; ++t)
                    if (t != boundary::FaceTable::axis(face) && !grid.periodic[t] &&
                        (pos[t] == 0 || pos[t] == grid.n[t] - 1))
                        edge = true;
                if (edge || faces.method[face] == boundary::Method::Equilibrium) return Gathered::EquilibriumFace;
                boundary::zou_he<L>(f, unknown, face, face_state);
            }
        }
        return Gathered::Fluid;
    }

    /// Density and velocity the collision of the next step will see.
    BARRACUDA_HD void macroscopic(int x, int y, int z, T& rho, T (&u)[3]) const {
        T f[L::Q];
        boundary::OpenFaceState<T> face_state;
        const Gathered g = gather(x, y, z, f, face_state);
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
        }
    }

    /// Velocity profile factor of a face node (boundary::Profile).
    BARRACUDA_HD T profile_factor(int face, const int (&pos)[3]) const {
        if (faces.profile[face] != boundary::Profile::Parabolic) return T(1);
        T p = T(1);
        BARRACUDA_UNROLL
        for (int a = 0; a < L::D; ++a) {
            if (a == boundary::FaceTable::axis(face) || grid.periodic[a]) continue;
            const T s = (T(pos[a]) + T(0.5)) / T(grid.n[a]);
            p *= T(4) * s * (T(1) - s);
        }
        return p;
    }

    /// The first velocity/pressure face (x_min, x_max, y_min, ...) the node lies on, or -1.
    BARRACUDA_HD int open_face_of(const int (&pos)[3]) const {
        BARRACUDA_UNROLL
        for (int face = 0; face < 6; ++face) {
            const int a = boundary::FaceTable::axis(face);
            const int at = (face & 1) ? grid.n[a] - 1 : 0;
            if (pos[a] == at && faces.is_open(face)) return face;
        }
        return -1;
    }
};

/// The whole update of one cell: gather, then collide (or set the equilibrium
/// of an equilibrium face node), then store.
template <class L, class Eq, class Collision, class Store>
struct StreamCollide {
    using T = typename Store::compute_type;
    Gather<L, Eq, Store> in;
    Collision collision;
    bool forced;

    BARRACUDA_HD void operator()(int x, int y, int z) const {
        T f[L::Q];
        boundary::OpenFaceState<T> face_state;
        const Gathered g = in.gather(x, y, z, f, face_state);
        if (g == Gathered::Solid) return;
        const index_t cell = in.grid.index(x, y, z);
        if (g == Gathered::EquilibriumFace) {
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i)
                in.store.store(i, cell, physics::equilibrium_shifted<L, Eq>(i, face_state.drho, face_state.u));
            return;
        }
        const auto state = physics::cell_state<L, Eq>(f, in.force);
        collision(f, state, in.force, forced);
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) in.store.store(i, cell, f[i]);
    }
};

}  // namespace barracuda::kernel
