// The per-cell node classes of links.hpp, computed once on the host from the
// fluid/solid kinds of the case. Bulk: fluid, not on a face of a non-periodic
// axis, every neighbour (wrapped on periodic axes) fluid.
#pragma once
#include <cstdint>
#include <vector>

#include "boundary/face.hpp"
#include "kernel/links.hpp"
#include "storage/grid.hpp"

namespace barracuda::kernel {

/// Layout: where the grid's cells are (storage/layout.hpp). Cells of no node of the box
/// (a sparse grid's absent tile and the parts of tiles beyond the box) keep their
/// kind, solid.
template <class L, class Layout = storage::LayoutOf<L>>
std::vector<std::uint8_t> classify_nodes(const storage::Grid& g, const boundary::Parameters& faces,
                                         const std::vector<std::uint8_t>& kind) {
    static_assert(int(Solid) == int(boundary::Solid), "link_source reads the input kinds' solids");
    std::vector<std::uint8_t> out(kind);
    const auto layout = storage::layout_of<Layout>(g);
#pragma omp parallel for collapse(2) schedule(static)
    for (int z = 0; z < g.n[2]; ++z)
        for (int y = 0; y < g.n[1]; ++y)
            for (int x = 0; x < g.n[0]; ++x) {
                if (!g.holds(x, y, z)) continue;  // the other sub-lattice (D3Q13)
                const storage::index_t c = g.index(x, y, z);
                if (path_of(kind[c]) == Solid) {
                    out[c] = kind[c];  // Solid, or a moving obstacle's solid (links.hpp)
                    continue;
                }
                // Bulk: every link streams from a fluid node (a cell on a face of a
                // non-periodic axis has links that cross it, so it is never bulk).
                const int pos[3] = {x, y, z};
                bool bulk = true;
                for (int i = 0; bulk && i < L::Q; ++i)
                    bulk = link_source<L>(layout, faces, kind.data(), pos, i).kind == LinkKind::Streamed;
                out[c] = bulk ? Bulk : Boundary;
            }
    return out;
}

/// For a rank's subdomain: fluid cells of the ghost layers become Ghost (their
/// populations come from the neighbour rank); owned fluid cells next to a ghost
/// layer get the Border flag (the neighbour needs their populations first).
/// Solids stay Solid: links into them bounce back, as in the whole box.
inline void mark_subdomain(const storage::Grid& g, const int (&ghost_lo)[3], const int (&ghost_hi)[3],
                           std::vector<std::uint8_t>& node_class) {
#pragma omp parallel for collapse(2) schedule(static)
    for (int z = 0; z < g.n[2]; ++z)
        for (int y = 0; y < g.n[1]; ++y)
            for (int x = 0; x < g.n[0]; ++x) {
                if (!g.holds(x, y, z)) continue;
                auto& k = node_class[std::size_t(g.index(x, y, z))];
                if (path_of(k) == Solid) continue;
                const int p[3] = {x, y, z};
                bool ghost = false, border = false;
                for (int a = 0; a < 3; ++a) {
                    ghost = ghost || (ghost_lo[a] && p[a] == 0) || (ghost_hi[a] && p[a] == g.n[a] - 1);
                    border = border || (ghost_lo[a] && p[a] == 1) || (ghost_hi[a] && p[a] == g.n[a] - 2);
                }
                if (ghost) k = Ghost;
                else if (border) k = std::uint8_t(k | Border);
            }
}

/// The cells with the Border flag, in index order.
inline std::vector<storage::index_t> border_cells(const std::vector<std::uint8_t>& node_class) {
    std::vector<storage::index_t> out;
    for (std::size_t c = 0; c < node_class.size(); ++c)
        if (node_class[c] != Ghost && (node_class[c] & Border)) out.push_back(storage::index_t(c));
    return out;
}

/// classify_nodes, then mark_subdomain when the setup is a subdomain.
template <class L, class Layout, class Setup>
std::vector<std::uint8_t> node_classes(const Setup& s) {
    auto out = classify_nodes<L, Layout>(s.grid, s.faces, s.node_kind);
    if (!s.halo.messages.empty()) {
        const int lo[3] = {s.ghost_lo[0], s.ghost_lo[1], s.ghost_lo[2]};
        const int hi[3] = {s.ghost_hi[0], s.ghost_hi[1], s.ghost_hi[2]};
        mark_subdomain(s.grid, lo, hi, out);
    }
    return out;
}

}  // namespace barracuda::kernel
