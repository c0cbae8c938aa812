// Boundary cells whose every link either streams or bounces back: beside resting
// and moving walls, solid nodes (resting or moving obstacles) and velocity faces
// of the bounce-back method, with the scalar's adiabatic, held or flux rules; and
// the nodes of open faces completed by their rule (below), a scalar's zero gradient
// or inflow value there included.
// Most boundary cells are of this kind (the walls of a room or a duct, the
// surface of an obstacle). Their links are classified once, on the host, into a
// record (ReflectingCell); the update reads the record instead of testing each
// link (StreamCollide::update_reflecting) and computes what the general path
// (update_boundary) computes, bit for bit: same sources, same arithmetic.
//
// Why: the general path's code (every link kind, open faces, Zou-He, outflow)
// is ~26 k instructions on a GPU; its warps ran it once each, from cold
// instruction caches, and waited on instruction fetches for 45% of their
// stalls (Nsight Compute on the H100, seed 004's room: 124 us a step for 90 k
// boundary cells, beside a bulk kernel of 169 us for 1.66 M cells). The nodes of
// open faces completed by Zou-He, the regularized rule or the equilibrium take
// records too, with the scalar's rules there (inflow value, zero gradient); the
// other boundary cells (outflow faces, free-slip walls, the edge of two moving
// faces) keep the general path.
#pragma once
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "boundary/parameters.hpp"
#include "kernel/links.hpp"
#include "lattice/scalar_sets.hpp"
#include "storage/grid.hpp"

namespace barracuda::kernel {

struct ReflectingCell {
    storage::index_t cell;
    std::uint32_t reflect;  // bit i: f_i arrives by bounce-back (f*_opp(i) of the cell itself)
    std::uint32_t moved;    // bit i: and takes the momentum of `mover` (boundary::moving_wall_term)
    /// The scalar's links, 4 bits each: 15 streamed, else the row of its condition
    /// (0-5 the face crossed, 6 + m obstacle row m: boundary::ScalarFaces, kernel/scalar.hpp).
    std::uint32_t scalar;
    /// What moves the `moved` links: 0-5 a face (a moving wall, or a velocity face of the
    /// bounce-back method with its values), 8 + m moving obstacle m = 1..7; -1 nothing.
    std::int32_t mover;

    static constexpr unsigned streamed_row = 15;
    static constexpr int obstacle_mover = 8;
    /// mover = open_mover + face: a node of a velocity/pressure face completed by the
    /// face's rule (Zou-He, regularized or equilibrium; a scalar's rows beside): `reflect` holds its
    /// unknown links, read by bounce-back first, and its links to resting walls and solid
    /// nodes. mover = open_mover + open_edge + face: such a node on an edge of the face or
    /// beside an obstacle, which takes the equilibrium of the face state (gather_boundary).
    static constexpr int open_mover = 16;
    static constexpr int open_edge = 8;
    BARRACUDA_HD bool open() const { return mover >= open_mover; }
    /// The record of a cell whose every link streams, flow and scalar (Ls_q links): a
    /// bulk cell's.
    BARRACUDA_HD static ReflectingCell streaming(storage::index_t cell, int ls_q) {
        return {cell, 0, 0, ls_q > 0 ? ~0u >> (32 - 4 * ls_q) : 0u, -1};
    }
};

/// The record of the boundary cell at pos, or false when one of its links needs the
/// general path. Ls: the coupled scalar's lattice (lattice::NoScalar: none).
template <class L, class Ls, class Layout>
bool reflecting_cell(const Layout& layout, const boundary::Parameters& faces, const std::uint8_t* node_class,
                     const int (&pos)[3], ReflectingCell& out) {
    static_assert(L::Q <= 32, "one bit per link");
    out = {layout.index(pos[0], pos[1], pos[2]), 0, 0, 0, -1};
    int open = -1;       // the open face whose rule completes unknown links
    bool other = false;  // a link that bounces back (with or without a mover)
    for (int i = 0; i < L::Q; ++i) {
        const LinkSource link = link_source<L>(layout, faces, node_class, pos, i);
        int mover = -1;
        switch (link.kind) {
            case LinkKind::Streamed: continue;
            case LinkKind::SolidNode:
                if (const int m = moving_obstacle_of(node_class[link.from])) mover = ReflectingCell::obstacle_mover + m;
                break;
            case LinkKind::Wall:
                if (faces.type[link.wall] == boundary::FaceType::FreeSlip) return false;
                if (faces.type[link.wall] == boundary::FaceType::MovingWall) mover = link.wall;
                break;
            case LinkKind::Open:
                if (!faces.is_bounce_back(link.wall)) {  // unknown: completed by the face's rule
                    if (open >= 0 && open != link.wall) return false;
                    open = link.wall;
                    out.reflect |= 1u << i;
                    continue;
                }
                mover = link.wall;
                break;
        }
        other = true;
        out.reflect |= 1u << i;
        if (mover < 0) continue;
        if (out.mover >= 0 && out.mover != mover) return false;  // two movers: an edge of two moving faces
        out.mover = mover;
        out.moved |= 1u << i;
    }
    if (open >= 0) {
        // The nodes of a Zou-He, regularized or equilibrium face: the face the node itself
        // completes (not an outflow face), without moving walls or obstacles beside it
        // (their momentum would need a second mover). A node with another bounced-back link
        // lies on an edge or beside an obstacle: the equilibrium of its face state.
        if (out.mover >= 0) return false;
        if (open_face_at(layout, faces, pos) != open) return false;
        const bool edge = other || on_face_edge<L>(layout, open, pos);
        out.moved = 0;
        out.mover = ReflectingCell::open_mover + (edge ? ReflectingCell::open_edge : 0) + open;
    }
    if constexpr (Ls::Q > 0) {  // a scalar lattice (NoScalar and ShanChenField have none)
        // The scalar's links: streamed, or the row of their condition (held, flux, adiabatic,
        // zero gradient: ScalarPart::gather_reflecting applies it).
        static_assert(Ls::Q <= 8, "4 bits per scalar link");
        for (int i = 0; i < Ls::Q; ++i) {
            const LinkSource link = link_source<Ls>(layout, faces, node_class, pos, i);
            unsigned row = ReflectingCell::streamed_row;
            if (link.kind != LinkKind::Streamed) {
                const bool solid = link.kind == LinkKind::SolidNode;
                row = unsigned(solid ? 6 + moving_obstacle_of(node_class[link.from]) : link.wall);
            }
            out.scalar |= row << (4 * i);
        }
    }
    return true;
}

/// Whether a record may give way to the Plain flag (links.hpp): no mover (an open face's
/// node has one), no scalar links, the cell off the faces of non-periodic axes (whose
/// links would cross them), and its reflected links exactly those plain_links finds
/// from the classes. Checked here, on the host, with the function the GPU's kernels
/// run: the record the kernels make for the cell is then this one.
template <class L, class Layout>
bool is_plain(const Layout& layout, const std::uint8_t* node_class, const ReflectingCell& r) {
    if (r.mover >= 0 || r.moved != 0 || r.scalar != 0) return false;
    int pos[3];
    layout.position(r.cell, pos);
    for (int a = 0; a < L::D; ++a)
        if (!layout.periodic[a] && (pos[a] == 0 || pos[a] == layout.n[a] - 1)) return false;
    return plain_links<L, Layout>(node_class, layout.cursor(pos), r.cell) == r.reflect;
}

/// The cells of class Boundary (no Border flag) in index order, split into the
/// reflecting ones' records and the others (the general path). In index order a
/// warp's records are neighbours in memory (in sparse storage, cells of one tile:
/// in the order of the box's nodes they would jump between tiles every 4 cells).
/// Blocks of cells run on all cores (a sparse box of 10^9 nodes holds 10^8 boundary
/// cells) and are joined in order: the lists do not depend on the threads.
template <class L, class Ls, class Layout = storage::LayoutOf<L>>
void split_boundary_cells(const storage::Grid& g, const boundary::Parameters& faces,
                          const std::vector<std::uint8_t>& node_class,
                          std::vector<ReflectingCell>& reflecting, std::vector<storage::index_t>& general) {
    const auto layout = storage::layout_of<Layout>(g);
    const storage::index_t cells = layout.cells(), block = 1 << 16;
    const int blocks = int((cells + block - 1) / block);
    std::vector<std::vector<ReflectingCell>> reflecting_at(static_cast<std::size_t>(blocks));
    std::vector<std::vector<storage::index_t>> general_at(static_cast<std::size_t>(blocks));
#pragma omp parallel for schedule(dynamic, 1)
    for (int b = 0; b < blocks; ++b) {
        std::vector<ReflectingCell>& mine = reflecting_at[std::size_t(b)];
        std::vector<storage::index_t>& others = general_at[std::size_t(b)];
        const storage::index_t end = std::min(cells, (b + 1) * block);
        for (storage::index_t c = b * block; c < end; ++c) {
            if (node_class[std::size_t(c)] != Boundary) continue;  // cells of no node are solid
            int pos[3];
            layout.position(c, pos);
            ReflectingCell r;
            if (reflecting_cell<L, Ls>(layout, faces, node_class.data(), pos, r)) mine.push_back(r);
            else others.push_back(c);
        }
    }
    reflecting.clear();
    general.clear();
    for (int b = 0; b < blocks; ++b) {
        reflecting.insert(reflecting.end(), reflecting_at[std::size_t(b)].begin(), reflecting_at[std::size_t(b)].end());
        general.insert(general.end(), general_at[std::size_t(b)].begin(), general_at[std::size_t(b)].end());
        std::vector<ReflectingCell>().swap(reflecting_at[std::size_t(b)]);
        std::vector<storage::index_t>().swap(general_at[std::size_t(b)]);
    }
}

}  // namespace barracuda::kernel
