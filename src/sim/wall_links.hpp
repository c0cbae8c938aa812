// The links into obstacles with interpolated bounce-back (kernel/interpolated_wall.hpp):
// for each fluid node next to such an obstacle and each direction i whose link
// ends in one of its solid nodes, where the obstacle's surface cuts the link
// (geometry::wall_fraction), whether x - c_i is a fluid node to interpolate with,
// the moving-wall term of a moving obstacle and the force list it reports to.
// Built once on the host, sorted by cell.
#pragma once
#include <cstdint>
#include <vector>

#include "boundary/parameters.hpp"
#include "geometry/shapes.hpp"
#include "kernel/interpolated_wall.hpp"
#include "sim/case_spec.hpp"
#include "storage/grid.hpp"

namespace barracuda::sim {

/// `kind` and `owner` are node_kinds(spec, &owner) over `grid` (the whole box: one
/// rank), `faces` the engine's face table (which links cross a face).
std::vector<kernel::WallLink> wall_links(const CaseSpec& spec, const storage::Grid& grid,
                                         const boundary::Parameters& faces, const std::vector<std::uint8_t>& kind,
                                         const std::vector<std::int32_t>& owner);

}  // namespace barracuda::sim
