#include "geometry/shapes.hpp"

#include <cmath>

#include "boundary/face.hpp"

namespace barracuda::geometry {

bool Body::contains(const Point& p) const {
    switch (kind) {
        case Kind::Box:
            return p[0] >= min[0] && p[0] <= max[0] && p[1] >= min[1] && p[1] <= max[1] && p[2] >= min[2] &&
                   p[2] <= max[2];
        case Kind::Sphere: {
            const double dx = p[0] - center[0], dy = p[1] - center[1], dz = p[2] - center[2];
            return dx * dx + dy * dy + dz * dz <= radius * radius;
        }
        case Kind::Cylinder:
        case Kind::Pipe: {
            const auto a = std::size_t(axis);
            double d2 = 0;
            for (std::size_t b = 0; b < 3; ++b)
                if (b != a) d2 += (p[b] - center[b]) * (p[b] - center[b]);
            return (d2 > radius * radius) == (kind == Kind::Pipe) && p[a] >= min[a] && p[a] <= max[a];
        }
        case Kind::Mesh: return mesh && mesh->contains(p);
        case Kind::Voxels: return voxels && voxels->contains(p);
    }
    return false;
}

bool Body::contains_wrapped(const Point& p, const std::array<int, 3>& wrap) const {
    for (int i = -1; i <= 1; ++i)
        for (int j = -1; j <= 1; ++j)
            for (int k = -1; k <= 1; ++k) {
                const int shift[3] = {i, j, k};
                Point q = p;
                bool used = true;
                for (std::size_t a = 0; a < 3; ++a) {
                    if (shift[a] != 0 && wrap[a] == 0) used = false;
                    q[a] += shift[a] * wrap[a];
                }
                if (used && contains(q)) return true;
            }
    return false;
}

std::int64_t mark(const storage::Grid& g, const Body& body, std::vector<std::uint8_t>& kind, Owners owners,
                  const Placement& at) {
    std::int64_t count = 0;
    // Each node is tested once and written by its own thread (contains() is const on
    // every kind of body): a box of 10^9 nodes is marked in seconds.
#pragma omp parallel for collapse(2) schedule(static) reduction(+ : count)
    for (int z = 0; z < g.n[2]; ++z)
        for (int y = 0; y < g.n[1]; ++y)
            for (int x = 0; x < g.n[0]; ++x) {
                if (!g.holds(x, y, z)) continue;  // the other sub-lattice (D3Q13)
                const storage::index_t c = g.index(x, y, z);
                auto& k = kind[c];
                if (k != boundary::Solid && body.contains({at.coordinate(0, x), at.coordinate(1, y), at.coordinate(2, z)})) {
                    k = boundary::Solid;
                    if (owners.owner) (*owners.owner)[c] = owners.id;
                    ++count;
                }
            }
    return count;
}

double wall_fraction(const Body& body, const Point& fluid, const Point& step, const std::array<int, 3>& wrap) {
    auto at = [&](double t) { return Point{fluid[0] + t * step[0], fluid[1] + t * step[1], fluid[2] + t * step[2]}; };
    // The first inside point of 64 along the link, then bisection before it: a link
    // that enters, leaves and enters again (the rim of a pipe's end, say) gives its
    // first entry unless the excursion inside is shorter than 1/64 of the step.
    double out = 0, in = 1;  // contains(at(out)) is false, contains(at(in)) true
    constexpr int samples = 64;
    for (int k = 1; k < samples; ++k) {
        const double t = double(k) / samples;
        if (body.contains_wrapped(at(t), wrap)) {
            in = t;
            break;
        }
        out = t;
    }
    for (int k = 0; k < 50; ++k) {
        const double mid = 0.5 * (out + in);
        (body.contains_wrapped(at(mid), wrap) ? in : out) = mid;
    }
    // Rounded to 2^-32 of the step: the points tested carry the rounding of their
    // coordinates (1e-15 of 20 is 4e-15 of the step), and a surface through a link's
    // midpoint must give exactly q = 1/2, i.e. half-way bounce-back.
    constexpr double grain = 4294967296.0;
    return std::round(in * grain) / grain;
}

}  // namespace barracuda::geometry
