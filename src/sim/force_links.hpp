// The link lists for obstacle forces (kernel/momentum_exchange.hpp): for each obstacle
// named in a case's [forces] table, the fluid cells next to it, each with the
// mask of directions i whose link x -> x + c_i ends in a solid node of that
// obstacle. Built once on the host; the engines keep only these lists. Links
// into obstacles with interpolated bounce-back are not listed: the wall pass
// reports their momentum (kernel/interpolated_wall.hpp, sim/wall_links.hpp).
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/momentum_exchange.hpp"
#include "parallel/decomposition.hpp"
#include "sim/case_spec.hpp"
#include "storage/grid.hpp"

namespace barracuda::sim {

using ForceLinkLists = std::vector<std::vector<kernel::ForceLink>>;

/// For each obstacle of the case, the index of its list in the force report
/// (spec.forces.obstacles), or -1 when its force is not reported.
std::vector<int> force_list_of(const CaseSpec& spec);

/// `kind` and `owner` are node_kinds(spec, &owner): owner[cell] is the index of the
/// obstacle that made the node solid (the first one, where obstacles overlap), or -1.
/// One list per name in spec.forces.obstacles, in that order, sorted by cell. Over a
/// subdomain's local box, only owned fluid cells are listed (each link counted once
/// over all ranks).
ForceLinkLists force_links(const CaseSpec& spec, const std::vector<std::uint8_t>& kind,
                           const std::vector<std::int32_t>& owner, const parallel::Subdomain& sub);
ForceLinkLists force_links(const CaseSpec& spec, const std::vector<std::uint8_t>& kind,
                           const std::vector<std::int32_t>& owner);

/// The same for any grid: list_of[o] is the list that obstacle o's links go to (-1: none),
/// `lists` the number of lists.
ForceLinkLists force_links(lattice::Kind lattice, const storage::Grid& grid, const std::vector<std::uint8_t>& kind,
                           const std::vector<std::int32_t>& owner, const std::vector<int>& list_of, std::size_t lists,
                           const std::array<int, 3>& ghost_lo = {0, 0, 0}, const std::array<int, 3>& ghost_hi = {0, 0, 0});

}  // namespace barracuda::sim
