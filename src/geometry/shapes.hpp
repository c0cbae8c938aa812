// Solid obstacles -> node kinds. A node (at integer coordinates) is solid when
// its position lies inside the shape, boundaries included; links from fluid
// nodes into solid ones are half-way bounce-back (kernel/stream_collide.hpp),
// so the effective wall sits half a spacing outside the outermost solid node.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "storage/grid.hpp"

namespace barracuda::geometry {

using Point = std::array<double, 3>;

/// Marks every node with min <= x <= max (per axis) as solid; returns how many became solid.
std::int64_t mark_box(const storage::Grid& g, const Point& min, const Point& max, std::vector<std::uint8_t>& kind);
/// |x - center| <= radius.
std::int64_t mark_sphere(const storage::Grid& g, const Point& center, double radius, std::vector<std::uint8_t>& kind);
/// Distance to the axis line through `center` <= radius, and lo <= x[axis] <= hi.
std::int64_t mark_cylinder(const storage::Grid& g, int axis, const Point& center, double radius, double lo,
                           double hi, std::vector<std::uint8_t>& kind);

}  // namespace barracuda::geometry
