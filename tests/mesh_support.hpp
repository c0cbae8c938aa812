// Closed triangle surfaces for the STL tests (tests/test_mesh.cpp): a box, a UV
// sphere and a thick tube, written as binary or ASCII STL files.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "geometry/mesh.hpp"

namespace barracuda::test {

using geometry::Point;
using geometry::Triangle;

/// Two triangles of the quad a-b-c-d (counter-clockwise seen from outside).
inline void quad(std::vector<Triangle>& t, const Point& a, const Point& b, const Point& c, const Point& d) {
    t.push_back({{a, b, c}});
    t.push_back({{a, c, d}});
}

inline std::vector<Triangle> box_mesh(const Point& lo, const Point& hi) {
    auto p = [&](int i, int j, int k) { return Point{i ? hi[0] : lo[0], j ? hi[1] : lo[1], k ? hi[2] : lo[2]}; };
    std::vector<Triangle> t;
    quad(t, p(0, 0, 0), p(0, 1, 0), p(1, 1, 0), p(1, 0, 0));  // z = lo
    quad(t, p(0, 0, 1), p(1, 0, 1), p(1, 1, 1), p(0, 1, 1));  // z = hi
    quad(t, p(0, 0, 0), p(1, 0, 0), p(1, 0, 1), p(0, 0, 1));  // y = lo
    quad(t, p(0, 1, 0), p(0, 1, 1), p(1, 1, 1), p(1, 1, 0));  // y = hi
    quad(t, p(0, 0, 0), p(0, 0, 1), p(0, 1, 1), p(0, 1, 0));  // x = lo
    quad(t, p(1, 0, 0), p(1, 1, 0), p(1, 1, 1), p(1, 0, 1));  // x = hi
    return t;
}

/// A UV sphere: `rings` bands of latitude, `segments` of longitude.
inline std::vector<Triangle> sphere_mesh(const Point& c, double r, int rings, int segments) {
    auto at = [&](int i, int j) {
        const double th = M_PI * i / rings, ph = 2 * M_PI * (j % segments) / segments;
        if (i == 0) return Point{c[0], c[1], c[2] + r};
        if (i == rings) return Point{c[0], c[1], c[2] - r};
        return Point{c[0] + r * std::sin(th) * std::cos(ph), c[1] + r * std::sin(th) * std::sin(ph), c[2] + r * std::cos(th)};
    };
    std::vector<Triangle> t;
    for (int i = 0; i < rings; ++i)
        for (int j = 0; j < segments; ++j) {
            if (i > 0) t.push_back({{at(i, j), at(i + 1, j), at(i, j + 1)}});
            if (i < rings - 1) t.push_back({{at(i, j + 1), at(i + 1, j), at(i + 1, j + 1)}});
        }
    return t;
}

/// A tube along x from x0 to x1 about the line (y, z) = (cy, cz): the solid between
/// radii r_in and r_out, with flat annular ends.
inline std::vector<Triangle> tube_mesh(double x0, double x1, double cy, double cz, double r_in, double r_out,
                                       int segments) {
    auto ring = [&](double x, double r, int j) {
        const double ph = 2 * M_PI * (j % segments) / segments;
        return Point{x, cy + r * std::cos(ph), cz + r * std::sin(ph)};
    };
    std::vector<Triangle> t;
    for (int j = 0; j < segments; ++j) {
        quad(t, ring(x0, r_out, j), ring(x0, r_out, j + 1), ring(x1, r_out, j + 1), ring(x1, r_out, j));
        quad(t, ring(x0, r_in, j), ring(x1, r_in, j), ring(x1, r_in, j + 1), ring(x0, r_in, j + 1));
        quad(t, ring(x0, r_in, j), ring(x0, r_in, j + 1), ring(x0, r_out, j + 1), ring(x0, r_out, j));
        quad(t, ring(x1, r_in, j), ring(x1, r_out, j), ring(x1, r_out, j + 1), ring(x1, r_in, j + 1));
    }
    return t;
}

inline std::string binary_stl(const std::vector<Triangle>& t) {
    std::string s(80, ' ');
    s.replace(0, 14, "barracuda test");
    const auto n = std::uint32_t(t.size());
    s.append(reinterpret_cast<const char*>(&n), 4);
    for (const auto& tri : t) {
        float f[12] = {};
        for (int i = 0; i < 3; ++i)
            for (int a = 0; a < 3; ++a) f[3 + 3 * i + a] = float(tri.v[i][std::size_t(a)]);
        s.append(reinterpret_cast<const char*>(f), sizeof f);
        s.append(2, '\0');
    }
    return s;
}

inline std::string ascii_stl(const std::vector<Triangle>& t) {
    std::string s = "solid test\n";
    char line[160];
    for (const auto& tri : t) {
        s += "  facet normal 0 0 0\n    outer loop\n";
        for (const auto& v : tri.v) {
            std::snprintf(line, sizeof line, "      vertex %.9g %.9g %.9g\n", v[0], v[1], v[2]);
            s += line;
        }
        s += "    endloop\n  endfacet\n";
    }
    return s + "endsolid test\n";
}

inline void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

}  // namespace barracuda::test
