// Solid obstacles -> node kinds. A node (at integer coordinates) is solid when
// its position lies inside the shape, boundaries included. Links from fluid
// nodes into solid ones are half-way bounce-back (kernel/stream_collide.hpp),
// which puts the wall half a spacing outside the outermost solid node (a
// staircase), or interpolated bounce-back (kernel/interpolated_wall.hpp), which
// needs where the surface cuts each link: wall_fraction.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "geometry/mesh.hpp"
#include "geometry/voxels.hpp"
#include "storage/grid.hpp"

namespace barracuda::geometry {

/// A solid shape. Box: min <= x <= max per axis. Sphere: |x - center| <= radius.
/// Cylinder: distance to the axis line through `center` <= radius, and
/// min[axis] <= x[axis] <= max[axis]. Pipe: the complement of the cylinder on the
/// same extent (the wall of a tube whose inside is fluid). Mesh: inside a closed
/// triangle surface (geometry/mesh.hpp, from an STL file), in node coordinates.
/// Voxels: a solid voxel of an image (geometry/voxels.hpp).
struct Body {
    enum class Kind { Box, Sphere, Cylinder, Pipe, Mesh, Voxels };
    Kind kind = Kind::Box;
    Point min{}, max{}, center{};
    double radius = 0;
    int axis = 2;
    std::shared_ptr<const Mesh> mesh;  // Kind::Mesh
    std::shared_ptr<const Voxels> voxels;  // Kind::Voxels

    bool contains(const Point& p) const;
    /// The same body: meshes and images compared by their content (a case read twice
    /// holds two copies of one file's surface).
    bool operator==(const Body& o) const {
        const bool same_mesh = mesh == o.mesh || (mesh && o.mesh && mesh->triangles() == o.mesh->triangles());
        const bool same_voxels = voxels == o.voxels || (voxels && o.voxels && *voxels == *o.voxels);
        return kind == o.kind && min == o.min && max == o.max && center == o.center && radius == o.radius &&
               axis == o.axis && same_mesh && same_voxels;
    }
    /// contains() for p or any of its images one period away along the axes with
    /// wrap[a] > 0 (the period): a body seen across a periodic face.
    bool contains_wrapped(const Point& p, const std::array<int, 3>& wrap) const;
};

/// Which obstacle made each solid node solid: when given to mark(), owner[cell] = id
/// for every node the call turns solid (a node already solid keeps its first owner).
/// Host only, while link lists are built.
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

/// Marks every node inside the body as solid; returns how many became solid.
std::int64_t mark(const storage::Grid& g, const Body& body, std::vector<std::uint8_t>& kind, Owners owners = {},
                  const Placement& at = {});

/// Where the body's surface cuts the link from `fluid` (outside the body) to
/// fluid + step (inside): the fraction q in (0, 1] of the step at which the link
/// first enters the body (Bouzidi et al. 2001's q). Found from contains_wrapped()
/// alone, so every shape is treated alike: the first of 64 points along the link
/// that is inside, then 50 halvings before it, rounded to 2^-32 of the step.
double wall_fraction(const Body& body, const Point& fluid, const Point& step, const std::array<int, 3>& wrap = {0, 0, 0});

}  // namespace barracuda::geometry
