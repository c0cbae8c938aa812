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

/// Where the grid lies in the whole box (a rank's subdomain): the whole box's
/// coordinate of local node 0, and the whole box's size on periodic axes (0
/// elsewhere), where ghost nodes beyond the ends wrap around. Default: the grid is
/// the whole box.
struct Placement {
    std::array<int, 3> origin{0, 0, 0};
    std::array<int, 3> wrap{0, 0, 0};
    double coordinate(int axis, int local) const {
        int g = local + origin[std::size_t(axis)];
        const int n = wrap[std::size_t(axis)];
        if (n > 0) g = ((g % n) + n) % n;
        return double(g);
    }
};

/// Marks every node with min <= x <= max (per axis) as solid; returns how many became solid.
std::int64_t mark_box(const storage::Grid& g, const Point& min, const Point& max, std::vector<std::uint8_t>& kind,
                      Owners owners = {}, const Placement& at = {});
/// |x - center| <= radius.
std::int64_t mark_sphere(const storage::Grid& g, const Point& center, double radius, std::vector<std::uint8_t>& kind,
                         Owners owners = {}, const Placement& at = {});
/// Distance to the axis line through `center` <= radius, and lo <= x[axis] <= hi.
std::int64_t mark_cylinder(const storage::Grid& g, int axis, const Point& center, double radius, double lo,
                           double hi, std::vector<std::uint8_t>& kind, Owners owners = {}, const Placement& at = {});

/// The complement of a cylinder: distance to the axis line > radius (the wall of a
/// tube whose inside is fluid), for lo <= x[axis] <= hi.
std::int64_t mark_pipe(const storage::Grid& g, int axis, const Point& center, double radius, double lo, double hi,
                       std::vector<std::uint8_t>& kind, Owners owners = {}, const Placement& at = {});

}  // namespace barracuda::geometry
