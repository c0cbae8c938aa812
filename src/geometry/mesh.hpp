// Closed triangle surfaces (STL files) as solid bodies: read, checked closed,
// scaled, rotated and moved, and an inside test for any point, which is all the
// rest of geometry/ needs (shapes.hpp: marking solid nodes, and the wall
// fractions of interpolated bounce-back, both from Body::contains).
//
// Written here rather than taken from a library: an STL reader is a page of
// code (binary: an 80-byte header, a count and 50 bytes a triangle; ASCII:
// facet/vertex lines), and the inside test must be this project's own (a ray
// parity with several rays, each vote dropped when its ray grazes an edge or a
// vertex). assimp or VTK would add a large dependency to CI and to the GPU
// machine's staged packages for the reader alone.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace barracuda::geometry {

using Point = std::array<double, 3>;

struct Triangle {
    Point v[3];
    bool operator==(const Triangle&) const = default;
};

class Mesh {
public:
    /// The bytes of an STL file (io::read_input_file), binary or ASCII. Throws
    /// std::runtime_error naming what is wrong (empty, truncated, neither format, a
    /// malformed line with its number, non-finite coordinates, fewer than 4 triangles).
    static Mesh parse_stl(const std::string& bytes);

    explicit Mesh(std::vector<Triangle> triangles);

    const std::vector<Triangle>& triangles() const { return triangles_; }
    /// Each vertex p becomes R (scale p) + offset, R the rotations about x, then y, then
    /// z by rotate_degrees (right-handed, about the origin).
    Mesh transformed(double scale, const Point& rotate_degrees, const Point& offset) const;
    /// Each vertex p becomes f(p) per coordinate: f(a, x) for axis a.
    template <class F>
    Mesh mapped(F f) const {
        std::vector<Triangle> t = triangles_;
        for (auto& tri : t)
            for (auto& v : tri.v)
                for (int a = 0; a < 3; ++a) v[std::size_t(a)] = f(a, v[std::size_t(a)]);
        return Mesh(std::move(t));
    }

    /// Edges that do not belong to exactly two triangles (0: a closed surface), and one
    /// of them as text for a message.
    std::size_t open_edges(std::string* example = nullptr) const;

    Point lower() const { return lo_; }
    Point upper() const { return hi_; }
    /// Whether p is inside the closed surface: the parity of the crossings of rays from
    /// p along +x, +y and +z, the majority of those that cross no edge or vertex (a ray
    /// through an edge would count it once or twice); p is nudged by 1e-7 of the box
    /// if all three graze.
    bool contains(const Point& p) const;

private:
    /// The triangles whose projection along `axis` covers a cell of a 2D grid of bins.
    struct Bins {
        int axis = 0, u = 1, v = 2, n = 1;
        double u0 = 0, v0 = 0, du = 1, dv = 1;
        std::vector<std::uint32_t> first;  // n * n + 1 offsets into index
        std::vector<std::uint32_t> index;
    };
    Bins bin(int axis) const;
    /// The ray from p along +axis: 1 crossing parity, or -1 when it grazes.
    int parity(const Bins& b, const Point& p) const;

    std::vector<Triangle> triangles_;
    Point lo_{}, hi_{};
    Bins bins_[3];
};

}  // namespace barracuda::geometry
