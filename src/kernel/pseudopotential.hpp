// The Shan-Chen interaction of a single-component liquid-vapour model
// (physics/shan_chen.hpp) as a part of the fused update (kernel/stream_collide.hpp):
// a step is two passes,
//   1. the macro-field pass: psi(rho) of every fluid node, from the populations the
//      coming step gathers (the same streaming and boundaries), into a per-cell field;
//   2. the stream-collide pass, whose force at x adds
//        F = -G psi(x) sum_i w_i psi(x + c_i) c_i = G psi(x) sum_i w_i psi(x - c_i) c_i
//      (the lattice is symmetric), read from that field at the neighbours the gather
//      pulls from; with a mixing beta other than 1 (physics/shan_chen.hpp)
//        F = G [beta psi(x) sum_i w_i psi(x - c_i) c_i + (1 - beta)/2 sum_i w_i psi(x - c_i)^2 c_i].
// The force needs every neighbour's density of the same time level, which the
// fused update of a neighbour overwrites (in place) or has not streamed yet (two
// copies): hence the pass before (seed 003 §4: Sailfish's ComputeMacroFields,
// split kernels faster than one). Across the box's faces and into obstacles:
//  - walls and obstacles: psi_wall, the pseudopotential of the case's wall
//    density (wetting: a wall of liquid density attracts the liquid); without
//    one, the mirror image's psi (the node beside x - c_i along the wall; across
//    an obstacle, the image across the largest component of the normal its solid
//    links estimate) raised by the adhesion: > 0 draws the liquid (G < 0); 0 is
//    a symmetry plane for the interaction (not for the bounced populations: 88.9
//    degrees); the adhesion of a contact angle is found by sim/wetting.cpp;
//  - free-slip faces (symmetry planes): the mirror image's psi, that of the node
//    beside x along the plane (x itself for the normal link);
//  - open faces (velocity, pressure, outflow): psi(x) itself (zero gradient);
//  - periodic axes: the wrapped neighbour.
// No second distribution: `present` is false, and the flow's populations are all
// the state a checkpoint keeps; the field is recomputed at the start of every step.
#pragma once
#include <cstdint>

#include "boundary/open_face.hpp"
#include "boundary/parameters.hpp"
#include "kernel/links.hpp"
#include "lattice/scalar_sets.hpp"
#include "physics/shan_chen.hpp"
#include "storage/layout.hpp"

namespace barracuda::kernel {

using storage::index_t;

/// The velocity c_i with its component along `axis` set to zero (0: the rest velocity):
/// the link from a free-slip face's mirror image (a symmetry plane's ψ).
template <class L>
BARRACUDA_HD int projected_velocity(int i, int axis) {
    int found = 0;
    BARRACUDA_UNROLL
    for (int j = 0; j < L::Q; ++j) {
        bool same = true;
        for (int a = 0; a < 3; ++a) same = same && L::c(j, a) == (a == axis ? 0 : L::c(i, a));
        if (same) found = j;
    }
    return found;
}

/// The mirror image of x - c_i across a wall normal to `axis`: the node x - c_i with its
/// `axis` component removed if that is fluid, else the node itself (`cell`). What a wall
/// or obstacle presents of a macro field (psi, phi): a flat wall's tangential profile.
template <class L, class Layout>
BARRACUDA_HD index_t mirror_source(const Layout& layout, const boundary::Parameters& faces,
                                   const std::uint8_t* node_class, const int (&pos)[3], index_t cell, int i, int axis) {
    const int j = projected_velocity<L>(i, axis);
    if (j == 0) return cell;
    const LinkSource image = link_source<L>(layout, faces, node_class, pos, j);
    return image.kind == LinkKind::Streamed ? image.from : cell;
}

/// The axis of the largest component of a normal (an obstacle's, estimated from its
/// solid links): the axis its mirror images are taken across.
template <class L, class T>
BARRACUDA_HD int dominant_axis(const T (&normal)[3]) {
    int axis = 0;
    for (int a = 1; a < L::D; ++a)
        if ((normal[a] < T(0) ? -normal[a] : normal[a]) > (normal[axis] < T(0) ? -normal[axis] : normal[axis])) axis = a;
    return axis;
}

/// sum += w_i p c_i: one link's term of the interaction sum_i w_i psi(x - c_i) c_i.
template <class L, class T>
BARRACUDA_HD void add_link_term(int i, T p, T (&sum)[3]) {
    const T wp = T(L::w(i)) * p;
    BARRACUDA_UNROLL
    for (int a = 0; a < 3; ++a) sum[a] += wp * T(L::c(i, a));
}

template <class L, class T>
struct PseudopotentialPart {
    static constexpr bool present = false;     // no populations of its own
    static constexpr bool interacting = true;  // a macro-field pass, a force from neighbours
    static constexpr bool binary = false;      // one component (two: kernel/binary.hpp)
    static constexpr bool second_density = false;
    static constexpr int fields = 1;           // per-cell fields of the macro-field pass: psi
    static constexpr int Q = 1;                // array sizes in code that `if constexpr` removes

    T* psi = nullptr;  // per cell: the macro-field pass writes it, the stream-collide pass reads it
    T psi_wall = T(-1);  // < 0: walls present the mirror image's psi + adhesion
    T adhesion = T(0);
    physics::ShanChenParameters parameters{};

    /// Pass 1 at one cell: psi of the density the coming step's gather gives. A
    /// solid (or ghost) cell keeps what it holds (nothing reads it).
    template <class Gather>
    BARRACUDA_HD void macro_field(const Gather& in, index_t cell) const {
        T f[L::Q];
        boundary::OpenFaceState<T> face_state;
        const auto gathered = in.gather(cell, f, face_state);
        if (gathered == decltype(gathered)::Solid) return;
        T drho = T(0);
        if (gathered == decltype(gathered)::EquilibriumFace) {
            drho = face_state.drho;
        } else {
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) drho += f[i];
        }
        psi[cell] = T(physics::pseudopotential(parameters, 1.0 + double(drho), L::cs2));
    }

    /// base + the interaction force at a bulk cell (every x - c_i fluid).
    template <class Layout>
    BARRACUDA_HD void force_bulk(index_t cell, const typename Layout::Cursor& s, const T (&base)[3],
                                 T (&force)[3]) const {
        Sums sum;
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) sum.add(i, psi[Layout::template neighbour<L>(s, cell, i, -1)]);
        finish(psi[cell], base, sum, force);
    }

    /// The same at a boundary cell at pos: each link classified as the gather does.
    template <class Layout>
    BARRACUDA_HD void force_boundary(const Layout& layout, const boundary::Parameters& faces,
                                     const std::uint8_t* node_class, index_t cell, const int (&pos)[3],
                                     const T (&base)[3], T (&force)[3]) const {
        const T own = psi[cell];
        const bool imaged = psi_wall < T(0);
        Sums sum;
        T normal[3] = {T(0), T(0), T(0)};
        bool solid[L::Q];
        bool any_solid = false;
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) {
            const LinkSource link = link_source<L>(layout, faces, node_class, pos, i);
            solid[i] = link.kind == LinkKind::SolidNode;
            if (solid[i]) {
                add_link_term<L>(i, T(1), normal);
                any_solid = true;
                if (!imaged) sum.add(i, psi_wall);
                continue;
            }
            T p = link.kind == LinkKind::Streamed ? psi[link.from] : own;  // open links: zero gradient
            if (link.kind == LinkKind::Wall) {
                // A symmetry plane half a spacing out: the mirror image of x - c_i is x - c_j,
                // c_j = c_i without its normal component (x itself for a normal link). A wall
                // that is not free-slip adds the adhesion, or presents psi_wall.
                const bool free_slip = faces.type[link.wall] == boundary::FaceType::FreeSlip;
                if (free_slip || imaged)
                    p = psi[mirror_source<L>(layout, faces, node_class, pos, cell, i, boundary::Parameters::axis(link.wall))] +
                        (free_slip ? T(0) : adhesion);
                else
                    p = psi_wall;
            }
            sum.add(i, p);
        }
        if (any_solid && imaged) {
            const int axis = dominant_axis<L>(normal);
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i)
                if (solid[i]) sum.add(i, psi[mirror_source<L>(layout, faces, node_class, pos, cell, i, axis)] + adhesion);
        }
        finish(own, base, sum, force);
    }

    template <int>
    BARRACUDA_HD PseudopotentialPart fixed() const { return *this; }

private:
    /// The two neighbour sums of the force: sum_i w_i psi c_i and sum_i w_i psi^2 c_i (the
    /// second weighs nothing at the default mixing of 1, and costs three multiply-adds a link).
    struct Sums {
        T psi[3] = {T(0), T(0), T(0)};
        T square[3] = {T(0), T(0), T(0)};
        BARRACUDA_HD void add(int i, T p) {
            add_link_term<L>(i, p, psi);
            add_link_term<L>(i, p * p, square);
        }
    };
    BARRACUDA_HD void finish(T own, const T (&base)[3], const Sums& sum, T (&force)[3]) const {
        const T k = T(parameters.g * parameters.mixing) * own;
        const T k2 = T(parameters.g * (1 - parameters.mixing) / 2);
        BARRACUDA_UNROLL
        for (int a = 0; a < 3; ++a) force[a] = base[a] + k * sum.psi[a] + k2 * sum.square[a];
    }
};

}  // namespace barracuda::kernel
