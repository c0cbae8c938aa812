#include "sim/force_links.hpp"

#include <algorithm>

#include "boundary/face.hpp"
#include "lattice/lattice.hpp"
#include "storage/grid.hpp"

namespace barracuda::sim {

namespace {

// Visits each solid node owned by a reported obstacle and each direction i: the
// node x = s - c_i (wrapped on periodic axes) is the fluid end of a link into it
// when it is inside the box and fluid. A link that would cross a non-periodic
// face is a wall link (kernel/links.hpp), never an obstacle link.
template <class L>
ForceLinkLists build(const storage::Grid& g, const std::vector<std::uint8_t>& kind, const std::vector<std::int32_t>& owner,
                     const std::vector<int>& list_of, std::size_t lists, const std::array<int, 3>& ghost_lo,
                     const std::array<int, 3>& ghost_hi) {
    ForceLinkLists out(lists);
    for (int z = 0; z < g.n[2]; ++z)
        for (int y = 0; y < g.n[1]; ++y)
            for (int x = 0; x < g.n[0]; ++x) {
                if (!g.holds(x, y, z)) continue;  // the other sub-lattice (D3Q13)
                const storage::index_t s = g.index(x, y, z);
                if (kind[s] != boundary::Solid || owner[s] < 0) continue;
                const int k = std::size_t(owner[s]) < list_of.size() ? list_of[std::size_t(owner[s])] : -1;
                if (k < 0) continue;
                const int pos[3] = {x, y, z};
                for (int i = 0; i < L::Q; ++i) {
                    int f[3];
                    bool inside = true;
                    for (int a = 0; a < 3; ++a) {
                        f[a] = pos[a] - L::c(i, a);
                        if (f[a] < 0 || f[a] >= g.n[a]) {
                            if (!g.periodic[a]) inside = false;
                            else f[a] += f[a] < 0 ? g.n[a] : -g.n[a];
                        }
                    }
                    for (std::size_t a = 0; a < 3; ++a)  // ghost cells are listed by their owner rank
                        inside = inside && f[a] >= ghost_lo[a] && f[a] < g.n[a] - ghost_hi[a];
                    if (!inside) continue;
                    const storage::index_t cell = g.index(f[0], f[1], f[2]);
                    if (kind[cell] == boundary::Solid) continue;  // also the rest direction
                    out[std::size_t(k)].push_back({cell, 1u << i});
                }
            }
    // One entry per fluid cell: sort by cell (coalesced reads on the GPU), merge masks.
    for (auto& list : out) {
        std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.cell < b.cell; });
        std::size_t n = 0;
        for (std::size_t j = 0; j < list.size(); ++j) {
            if (n > 0 && list[n - 1].cell == list[j].cell) list[n - 1].mask |= list[j].mask;
            else list[n++] = list[j];
        }
        list.resize(n);
        list.shrink_to_fit();
    }
    return out;
}

}  // namespace

std::vector<int> force_list_of(const CaseSpec& spec) {
    // check_case made the reported names unique.
    const auto& names = spec.forces.obstacles;
    std::vector<int> list_of(spec.obstacles.size(), -1);
    for (std::size_t k = 0; k < names.size(); ++k)
        for (std::size_t i = 0; i < spec.obstacles.size(); ++i)
            if (spec.obstacles[i].name == names[k] && list_of[i] < 0) {
                list_of[i] = int(k);
                break;
            }
    return list_of;
}

ForceLinkLists force_links(const CaseSpec& spec, const std::vector<std::uint8_t>& kind,
                           const std::vector<std::int32_t>& owner) {
    return force_links(spec, kind, owner, parallel::Subdomain::whole(spec.size, spec.periodic));
}

ForceLinkLists force_links(const CaseSpec& spec, const std::vector<std::uint8_t>& kind,
                           const std::vector<std::int32_t>& owner, const parallel::Subdomain& sub) {
    const auto& names = spec.forces.obstacles;
    // The links of an obstacle with interpolated bounce-back carry their force
    // themselves (sim/wall_links.hpp).
    std::vector<int> list_of = force_list_of(spec);
    for (std::size_t i = 0; i < spec.obstacles.size(); ++i)
        if (spec.obstacles[i].interpolated) list_of[i] = -1;
    auto grid = sub.local_grid();
    grid.sublattice = spec.stores_sublattice();
    return force_links(spec.model.lattice, grid, kind, owner, list_of, names.size(), sub.ghost_lo,
                       sub.ghost_hi);
}

ForceLinkLists force_links(lattice::Kind lattice, const storage::Grid& grid, const std::vector<std::uint8_t>& kind,
                           const std::vector<std::int32_t>& owner, const std::vector<int>& list_of, std::size_t lists,
                           const std::array<int, 3>& ghost_lo, const std::array<int, 3>& ghost_hi) {
    return lattice::visit(lattice, [&](auto lat) {
        return build<decltype(lat)>(grid, kind, owner, list_of, lists, ghost_lo, ghost_hi);
    });
}

}  // namespace barracuda::sim
