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

/// Which obstacle made each solid node solid: when given to the mark_* functions,
/// owner[cell] = id for every node the call turns solid (a node already solid
/// keeps its first owner). Host only, while force link lists are built.
struct Owners {
    std::vector<std::int32_t>* owner = nullptr;
    std::int32_t id = -1;
};

/// Marks every node with min <= x <= max (per axis) as solid; returns how many became solid.
std::int64_t mark_box(const storage::Grid& g, const Point& min, const Point& max, std::vector<std::uint8_t>& kind,
                      Owners owners = {});
/// |x - center| <= radius.
std::int64_t mark_sphere(const storage::Grid& g, const Point& center, double radius, std::vector<std::uint8_t>& kind,
                         Owners owners = {});
/// Distance to the axis line through `center` <= radius, and lo <= x[axis] <= hi.
std::int64_t mark_cylinder(const storage::Grid& g, int axis, const Point& center, double radius, double lo,
                           double hi, std::vector<std::uint8_t>& kind, Owners owners = {});

}  // namespace barracuda::geometry
