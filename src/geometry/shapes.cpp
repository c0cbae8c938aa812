#include "geometry/shapes.hpp"

#include "boundary/face.hpp"

namespace barracuda::geometry {

namespace {
template <class Inside>
std::int64_t mark(const storage::Grid& g, std::vector<std::uint8_t>& kind, const Owners& owners, const Placement& at,
                  Inside inside) {
    std::int64_t count = 0;
    for (int z = 0; z < g.n[2]; ++z)
        for (int y = 0; y < g.n[1]; ++y)
            for (int x = 0; x < g.n[0]; ++x) {
                if (!g.holds(x, y, z)) continue;  // the other sub-lattice (D3Q13)
                const storage::index_t c = g.index(x, y, z);
                auto& k = kind[c];
                if (k != boundary::Solid && inside(at.coordinate(0, x), at.coordinate(1, y), at.coordinate(2, z))) {
                    k = boundary::Solid;
                    if (owners.owner) (*owners.owner)[c] = owners.id;
                    ++count;
                }
            }
    return count;
}
}  // namespace

std::int64_t mark_box(const storage::Grid& g, const Point& lo, const Point& hi, std::vector<std::uint8_t>& kind,
                      Owners owners, const Placement& at) {
    return mark(g, kind, owners, at, [&](double x, double y, double z) {
        return x >= lo[0] && x <= hi[0] && y >= lo[1] && y <= hi[1] && z >= lo[2] && z <= hi[2];
    });
}

std::int64_t mark_sphere(const storage::Grid& g, const Point& c, double r, std::vector<std::uint8_t>& kind,
                         Owners owners, const Placement& at) {
    return mark(g, kind, owners, at, [&](double x, double y, double z) {
        const double dx = x - c[0], dy = y - c[1], dz = z - c[2];
        return dx * dx + dy * dy + dz * dz <= r * r;
    });
}

namespace {
/// Marks the points with lo <= x[axis] <= hi whose distance to the axis line through
/// c is within r (a cylinder) or beyond it (a pipe's wall, `outside`).
std::int64_t mark_around_axis(const storage::Grid& g, int axis, const Point& c, double r, double lo, double hi,
                              bool outside, std::vector<std::uint8_t>& kind, Owners owners, const Placement& at) {
    return mark(g, kind, owners, at, [&](double x, double y, double z) {
        const double p[3] = {x, y, z};
        double d2 = 0;
        for (int a = 0; a < 3; ++a)
            if (a != axis) d2 += (p[a] - c[a]) * (p[a] - c[a]);
        return (d2 > r * r) == outside && p[axis] >= lo && p[axis] <= hi;
    });
}
}  // namespace

std::int64_t mark_cylinder(const storage::Grid& g, int axis, const Point& c, double r, double lo, double hi,
                           std::vector<std::uint8_t>& kind, Owners owners, const Placement& at) {
    return mark_around_axis(g, axis, c, r, lo, hi, false, kind, owners, at);
}

std::int64_t mark_pipe(const storage::Grid& g, int axis, const Point& c, double r, double lo, double hi,
                       std::vector<std::uint8_t>& kind, Owners owners, const Placement& at) {
    return mark_around_axis(g, axis, c, r, lo, hi, true, kind, owners, at);
}

}  // namespace barracuda::geometry
