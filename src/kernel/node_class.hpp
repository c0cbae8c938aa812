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

template <class L>
std::vector<std::uint8_t> classify_nodes(const storage::Grid& g, const boundary::FaceTable& faces,
                                         const std::vector<std::uint8_t>& kind) {
    static_assert(int(Solid) == int(boundary::Solid), "link_source reads the input kinds' solids");
    std::vector<std::uint8_t> out(kind.size());
#pragma omp parallel for collapse(2) schedule(static)
    for (int z = 0; z < g.n[2]; ++z)
        for (int y = 0; y < g.n[1]; ++y)
            for (int x = 0; x < g.n[0]; ++x) {
                const storage::index_t c = g.index(x, y, z);
                if (kind[c] == boundary::Solid) {
                    out[c] = Solid;
                    continue;
                }
                // Bulk: every link streams from a fluid node (a cell on a face of a
                // non-periodic axis has links that cross it, so it is never bulk).
                const int pos[3] = {x, y, z};
                bool bulk = true;
                for (int i = 0; bulk && i < L::Q; ++i)
                    bulk = link_source<L>(g, faces, kind.data(), pos, i).kind == LinkKind::Streamed;
                out[c] = bulk ? Bulk : Boundary;
            }
    return out;
}

}  // namespace barracuda::kernel
