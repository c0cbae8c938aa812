// Where the population arriving at a node along c_i comes from: the node
// x - c_i (wrapped on periodic axes) if it is fluid, otherwise a solid node, a
// wall face or an open (velocity/pressure) face. The same answer, asked for
// the opposite link, tells a store where a population leaving along c_i goes.
#pragma once
#include <cstdint>

#include "boundary/parameters.hpp"
#include "common/hd.hpp"
#include "lattice/lattice.hpp"
#include "storage/access.hpp"
#include "storage/layout.hpp"

namespace barracuda::kernel {

/// Per-cell node classes the fused kernel reads (one byte per cell). Bulk cells
/// (fluid, off the box faces, every neighbour fluid) take a path with no tests;
/// the classes are computed once on the host (node_class.hpp).
enum NodeClass : std::uint8_t {
    Bulk = 0,
    Solid = 1,     // equals boundary::Solid, so the input kinds' solids keep their value
    Boundary = 2,  // fluid needing the general path
    Ghost = 3,     // fluid cell of a neighbour rank's subdomain (parallel/halo.hpp): read, never updated
    // Added to Bulk or Boundary on the owned cells whose populations a neighbour rank
    // needs: they are updated first, apart from the rest, so that the exchange
    // overlaps the update of the interior. The sweeps over Bulk/Boundary skip them.
    Border = 4,
    // Added to Boundary, by the GPU engine, on the cells whose every link streams or
    // bounces back from a resting solid node (an obstacle's surface, a porous medium's
    // pores, away from the box's faces): their kernels find those links from the
    // neighbours' classes (plain_links) instead of keeping a record of 24 B a cell
    // (reflecting_cells.hpp), which was 4 B a fluid node of a porous box (issue 22).
    // path_of keeps such a cell Boundary; bits 3-5 name moving obstacles on solids only.
    Plain = 8,
};

/// Bulk or Boundary, with the Border flag removed (and Solid for every solid).
BARRACUDA_HD std::uint8_t path_of(std::uint8_t node_class) { return node_class & std::uint8_t(3); }

/// A solid node of moving obstacle m = 1..7: Solid with m in bits 3-5. Links into it
/// bounce back with the moving-wall term of Parameters::obstacle_velocity[m - 1].
constexpr std::uint8_t moving_solid(int m) { return std::uint8_t(Solid | (m << 3)); }
static_assert(boundary::Parameters::max_moving_obstacles <= 7, "moving obstacle numbers take bits 3-5");
BARRACUDA_HD int moving_obstacle_of(std::uint8_t node_class) { return node_class >> 3; }

/// A cell's class, through the read-only cache on a GPU.
BARRACUDA_HD std::uint8_t class_at(const std::uint8_t* node_class, storage::index_t cell) {
    return storage::load_read_only<std::uint8_t>(node_class, cell);
}

/// The links of a node that arrive from solid nodes, bit i for c_i, where class_of(i)
/// is the class of the node at -c_i. One rule for both readers of a neighbourhood: from
/// the classes in memory (plain_links) and from a warp's neighbourhood in the GPU's shared
/// memory (backend/cuda), so that the two cannot disagree.
template <class L, class ClassOf>
BARRACUDA_HD std::uint32_t solid_links(ClassOf class_of) {
    std::uint32_t solid = 0;
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) {
        if (L::c(i, 0) == 0 && L::c(i, 1) == 0 && L::c(i, 2) == 0) continue;  // the rest population
        solid |= std::uint32_t(path_of(class_of(i)) == Solid) << i;
    }
    return solid;
}

/// The links of a cell away from the box's faces that arrive from solid nodes, bit i for
/// c_i: its bulk-path neighbours (Layout::neighbour through the cell's cursor) tested for
/// Solid. For a Plain cell these are the links that bounce back, every other streams.
template <class L, class Layout>
BARRACUDA_HD std::uint32_t plain_links(const std::uint8_t* node_class, const typename Layout::Cursor& s,
                                       storage::index_t cell) {
    return solid_links<L>([&](int i) { return class_at(node_class, Layout::template neighbour<L>(s, cell, i, -1)); });
}

enum class LinkKind : std::uint8_t { Streamed, SolidNode, Wall, Open };

struct LinkSource {
    LinkKind kind;
    int wall;              // for Wall: the face crossed (Parameters::wall_rank decides at edges);
                           // for Open: the open face crossed (a bounce-back face first, at edges)
    storage::index_t from;  // for Streamed: the source node
};

/// The source of the link arriving at pos along c_i. The layout says where x - c_i is
/// (storage/layout.hpp) or which faces of the box the link leaves through; which
/// boundary lies there is decided here.
template <class L, class Layout>
BARRACUDA_HD LinkSource link_source(const Layout& layout, const boundary::Parameters& faces,
                                    const std::uint8_t* node_class, const int (&pos)[3], int i) {
    const storage::Hop hop = layout.template hop<L>(pos, i, -1);
    if (hop.exits) {
        int wall = -1, open = -1;
        BARRACUDA_UNROLL
        for (int face = 0; face < 6; ++face) {
            if (!((hop.exits >> face) & 1u)) continue;
            if (faces.is_wall(face)) {
                if (wall < 0 || faces.wall_rank(face) > faces.wall_rank(wall)) wall = face;
            } else if (open < 0 || faces.is_bounce_back(face)) {
                open = face;
            }
        }
        // A link through a bounce-back velocity face and a wall (an edge) takes the face's velocity:
        // then the face passes exactly the flux its values give (sum of u.n over its nodes).
        if (open >= 0 && faces.is_bounce_back(open)) return {LinkKind::Open, open, 0};
        if (wall >= 0) return {LinkKind::Wall, wall, 0};
        return {LinkKind::Open, open, 0};
    }
    if (path_of(node_class[hop.cell]) == Solid) return {LinkKind::SolidNode, -1, hop.cell};
    return {LinkKind::Streamed, -1, hop.cell};
}

/// The first velocity/pressure face (x_min, x_max, y_min, ...) the node at pos lies on
/// whose unknowns the node itself completes (not a bounce-back face), or -1.
template <class Layout>
BARRACUDA_HD int open_face_at(const Layout& layout, const boundary::Parameters& faces, const int (&pos)[3]) {
    BARRACUDA_UNROLL
    for (int face = 0; face < 6; ++face) {
        const int a = boundary::Parameters::axis(face);
        const int at = (face & 1) ? layout.n[a] - 1 : 0;
        if (pos[a] == at && faces.is_open(face) && !faces.is_bounce_back(face)) return face;
    }
    return -1;
}

/// Whether a node of open face `face` lies on an edge where the face meets another face
/// (of a non-periodic axis): there its unknowns take the equilibrium (Gather::gather_boundary).
template <class L, class Layout>
BARRACUDA_HD bool on_face_edge(const Layout& layout, int face, const int (&pos)[3]) {
    bool edge = false;
    BARRACUDA_UNROLL
    for (int t = 0; t < L::D; ++t)
        if (t != boundary::Parameters::axis(face) && !layout.periodic[t] && (pos[t] == 0 || pos[t] == layout.n[t] - 1))
            edge = true;
    return edge;
}

}  // namespace barracuda::kernel
