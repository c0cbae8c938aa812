#include "geometry/mesh.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>

namespace barracuda::geometry {

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what); }

std::string number_text(double v) {
    std::ostringstream s;
    s.precision(9);
    s << v;
    return s.str();
}

std::string point_text(const Point& p) {
    return "(" + number_text(p[0]) + ", " + number_text(p[1]) + ", " + number_text(p[2]) + ")";
}

std::vector<Triangle> parse_binary(const std::string& bytes, std::uint32_t count) {
    static_assert(std::endian::native == std::endian::little, "STL's floats are little-endian");
    std::vector<Triangle> out(count);
    for (std::uint32_t k = 0; k < count; ++k) {
        const char* at = bytes.data() + 84 + 50 * std::size_t(k) + 12;  // after the normal
        for (int i = 0; i < 3; ++i)
            for (int a = 0; a < 3; ++a) {
                float f;
                std::memcpy(&f, at + 12 * i + 4 * a, 4);
                out[k].v[i][std::size_t(a)] = double(f);
            }
    }
    return out;
}

std::vector<Triangle> parse_ascii(const std::string& bytes) {
    std::vector<Triangle> out;
    std::istringstream in(bytes);
    std::string line;
    int number = 0, vertices = 0;
    enum { Outside, Solid, Facet, Loop, LoopDone } state = Outside;
    bool ended = false;
    Triangle t{};
    auto where = [&] { return "line " + std::to_string(number) + ": "; };
    while (std::getline(in, line)) {
        ++number;
        std::istringstream words(line);
        std::string word;
        if (!(words >> word)) continue;
        if (word == "solid" && state == Outside) {
            state = Solid;
            ended = false;
        } else if (word == "facet" && state == Solid) {
            state = Facet;
        } else if (word == "outer" && state == Facet) {
            std::string loop;
            if (!(words >> loop) || loop != "loop") fail(where() + "expected 'outer loop'");
            state = Loop;
            vertices = 0;
        } else if (word == "vertex" && state == Loop) {
            if (vertices == 3) fail(where() + "a fourth vertex in one facet (STL facets are triangles)");
            Point p{};
            for (int a = 0; a < 3; ++a) {
                std::string v;
                if (!(words >> v)) fail(where() + "a vertex needs three coordinates");
                char* end = nullptr;
                p[std::size_t(a)] = std::strtod(v.c_str(), &end);
                if (end == v.c_str() || *end != '\0') fail(where() + "'" + v + "' is not a number");
            }
            t.v[vertices++] = p;
        } else if (word == "endloop" && state == Loop) {
            if (vertices != 3) fail(where() + "a facet with " + std::to_string(vertices) + " vertices (3 needed)");
            state = LoopDone;
        } else if (word == "endfacet" && state == LoopDone) {
            out.push_back(t);
            state = Solid;
        } else if (word == "endsolid" && state == Solid) {
            state = Outside;
            ended = true;
        } else {
            if (word.size() > 40) word = word.substr(0, 40) + "...";
            fail(where() + "unexpected '" + word + "' (an ASCII STL is made of solid, facet normal, outer loop, " +
                 "vertex, endloop, endfacet and endsolid lines, in that order)");
        }
    }
    if (!ended) fail("ends at line " + std::to_string(number) + " without 'endsolid': the file is truncated");
    return out;
}

double orient(double au, double av, double bu, double bv, double pu, double pv) {
    return (bu - au) * (pv - av) - (bv - av) * (pu - au);
}

}  // namespace

Mesh Mesh::parse_stl(const std::string& bytes) {
    if (bytes.size() < 15) fail("it is empty or too short to be an STL file (" + std::to_string(bytes.size()) + " bytes)");
    std::vector<Triangle> t;
    std::uint32_t count = 0;
    if (bytes.size() >= 84) std::memcpy(&count, bytes.data() + 80, 4);
    const bool binary = bytes.size() >= 84 && 84 + 50 * std::uint64_t(count) == bytes.size();
    const std::size_t text = bytes.find_first_not_of(" \t\r\n");
    const bool ascii = text != std::string::npos && bytes.compare(text, 5, "solid") == 0;
    if (binary) {
        t = parse_binary(bytes, count);
    } else if (ascii) {
        if (bytes.find('\0') != std::string::npos)
            fail("it begins with 'solid' but holds binary bytes, and its size (" + std::to_string(bytes.size()) +
                 " bytes) is not a binary STL's 84 + 50 x " + std::to_string(count) +
                 ": a truncated or damaged binary STL");
        t = parse_ascii(bytes);
    } else {
        fail("not an STL file: it does not begin with 'solid' (ASCII), and as a binary STL its header counts " +
             std::to_string(count) + " triangles, " + std::to_string(84 + 50 * std::uint64_t(count)) +
             " bytes, where the file has " + std::to_string(bytes.size()) + " (truncated, or not an STL)");
    }
    for (const auto& tri : t)
        for (const auto& v : tri.v)
            for (double x : v)
                if (!std::isfinite(x)) fail("a vertex coordinate is not finite: " + point_text(v));
    if (t.size() < 4) fail(std::to_string(t.size()) + " triangles: a closed surface needs at least 4");
    return Mesh(std::move(t));
}

Mesh::Mesh(std::vector<Triangle> triangles) : triangles_(std::move(triangles)) {
    lo_ = {INFINITY, INFINITY, INFINITY};
    hi_ = {-INFINITY, -INFINITY, -INFINITY};
    for (const auto& tri : triangles_)
        for (const auto& v : tri.v)
            for (std::size_t a = 0; a < 3; ++a) lo_[a] = std::min(lo_[a], v[a]), hi_[a] = std::max(hi_[a], v[a]);
    for (int a = 0; a < 3; ++a) bins_[a] = bin(a);
}

Mesh Mesh::transformed(double scale, const Point& rotate_degrees, const Point& offset) const {
    double r[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int axis = 0; axis < 3; ++axis) {  // r <- R_axis r: about x first, z last
        const double th = rotate_degrees[std::size_t(axis)] * M_PI / 180.0, c = std::cos(th), s = std::sin(th);
        double m[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        const int i = (axis + 1) % 3, j = (axis + 2) % 3;
        m[i][i] = c, m[i][j] = -s, m[j][i] = s, m[j][j] = c;
        double n[3][3];
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) n[a][b] = m[a][0] * r[0][b] + m[a][1] * r[1][b] + m[a][2] * r[2][b];
        std::memcpy(r, n, sizeof r);
    }
    std::vector<Triangle> t = triangles_;
    for (auto& tri : t)
        for (auto& v : tri.v) {
            const Point p = {scale * v[0], scale * v[1], scale * v[2]};
            for (std::size_t a = 0; a < 3; ++a) v[a] = r[a][0] * p[0] + r[a][1] * p[1] + r[a][2] * p[2] + offset[a];
        }
    return Mesh(std::move(t));
}

std::size_t Mesh::open_edges(std::string* example) const {
    std::map<std::array<double, 6>, int> uses;
    for (const auto& tri : triangles_)
        for (int i = 0; i < 3; ++i) {
            Point a = tri.v[i], b = tri.v[(i + 1) % 3];
            if (b < a) std::swap(a, b);
            ++uses[{a[0], a[1], a[2], b[0], b[1], b[2]}];
        }
    std::size_t open = 0;
    for (const auto& [edge, n] : uses) {
        if (n == 2) continue;
        if (open == 0 && example)
            *example = point_text({edge[0], edge[1], edge[2]}) + "-" + point_text({edge[3], edge[4], edge[5]}) + " (in " +
                       std::to_string(n) + " triangle" + (n == 1 ? "" : "s") + ")";
        ++open;
    }
    return open;
}

Mesh::Bins Mesh::bin(int axis) const {
    Bins b;
    b.axis = axis, b.u = (axis + 1) % 3, b.v = (axis + 2) % 3;
    b.u0 = lo_[std::size_t(b.u)], b.v0 = lo_[std::size_t(b.v)];
    auto divide = [&](int n) {  // n x n bins over the box's projection
        b.n = n;
        b.du = (hi_[std::size_t(b.u)] - b.u0) / n, b.dv = (hi_[std::size_t(b.v)] - b.v0) / n;
        if (!(b.du > 0)) b.du = 1;
        if (!(b.dv > 0)) b.dv = 1;
    };
    divide(std::clamp(int(std::sqrt(double(triangles_.size()) / 2)), 1, 512));
    auto range = [&](const Triangle& t, int c, double o, double d, int& first, int& last) {
        double lo = INFINITY, hi = -INFINITY;
        for (const auto& v : t.v) lo = std::min(lo, v[std::size_t(c)]), hi = std::max(hi, v[std::size_t(c)]);
        first = std::clamp(int(std::floor((lo - o) / d)), 0, b.n - 1);
        last = std::clamp(int(std::floor((hi - o) / d)), 0, b.n - 1);
    };
    // Coarser bins where large triangles would fill too many (a fan of triangles each
    // spanning the box): at most ~32 entries a triangle, beyond a million in all.
    for (;;) {
        std::uint64_t entries = 0;
        for (const auto& t : triangles_) {
            int u0, u1, v0, v1;
            range(t, b.u, b.u0, b.du, u0, u1);
            range(t, b.v, b.v0, b.dv, v0, v1);
            entries += std::uint64_t(u1 - u0 + 1) * std::uint64_t(v1 - v0 + 1);
        }
        if (b.n == 1 || entries <= 32 * std::uint64_t(triangles_.size()) + (1u << 20)) break;
        divide(std::max(1, b.n / 2));
    }
    std::vector<std::uint32_t> count(std::size_t(b.n) * b.n + 1, 0);
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1) {
            b.first.assign(count.size(), 0);
            for (std::size_t k = 1; k < count.size(); ++k) b.first[k] = b.first[k - 1] + count[k - 1];
            b.index.resize(b.first.back());
            std::fill(count.begin(), count.end(), 0);
        }
        for (std::uint32_t k = 0; k < triangles_.size(); ++k) {
            int u0, u1, v0, v1;
            range(triangles_[k], b.u, b.u0, b.du, u0, u1);
            range(triangles_[k], b.v, b.v0, b.dv, v0, v1);
            for (int i = u0; i <= u1; ++i)
                for (int j = v0; j <= v1; ++j) {
                    const std::size_t cell = std::size_t(i) * b.n + j;
                    if (pass == 1) b.index[b.first[cell] + count[cell]] = k;
                    ++count[cell];
                }
        }
    }
    return b;
}

int Mesh::parity(const Bins& b, const Point& p) const {
    const double pu = p[std::size_t(b.u)], pv = p[std::size_t(b.v)], pa = p[std::size_t(b.axis)];
    if (pu < lo_[std::size_t(b.u)] || pu > hi_[std::size_t(b.u)] || pv < lo_[std::size_t(b.v)] ||
        pv > hi_[std::size_t(b.v)])
        return 0;
    const int i = std::clamp(int(std::floor((pu - b.u0) / b.du)), 0, b.n - 1);
    const int j = std::clamp(int(std::floor((pv - b.v0) / b.dv)), 0, b.n - 1);
    const std::size_t cell = std::size_t(i) * b.n + j;
    int crossings = 0;
    for (std::uint32_t k = b.first[cell]; k < b.first[cell + 1]; ++k) {
        const Triangle& t = triangles_[b.index[k]];
        double e[3];
        for (int m = 0; m < 3; ++m) {
            const Point& a = t.v[m];
            const Point& c = t.v[(m + 1) % 3];
            e[m] = orient(a[std::size_t(b.u)], a[std::size_t(b.v)], c[std::size_t(b.u)], c[std::size_t(b.v)], pu, pv);
        }
        const bool neg = e[0] < 0 || e[1] < 0 || e[2] < 0, pos = e[0] > 0 || e[1] > 0 || e[2] > 0;
        if (neg && pos) continue;  // outside the projection
        if (e[0] == 0 || e[1] == 0 || e[2] == 0) return -1;  // on a projected edge or vertex
        // Where the ray meets the triangle's plane: n . (x - v0) = 0.
        const Point& a = t.v[0];
        const Point d1 = {t.v[1][0] - a[0], t.v[1][1] - a[1], t.v[1][2] - a[2]};
        const Point d2 = {t.v[2][0] - a[0], t.v[2][1] - a[1], t.v[2][2] - a[2]};
        const Point n = {d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2], d1[0] * d2[1] - d1[1] * d2[0]};
        const double na = n[std::size_t(b.axis)];
        if (na == 0) return -1;
        const double at = a[std::size_t(b.axis)] -
                          (n[std::size_t(b.u)] * (pu - a[std::size_t(b.u)]) + n[std::size_t(b.v)] * (pv - a[std::size_t(b.v)])) / na;
        if (at == pa) return -1;  // p on the surface
        if (at > pa) ++crossings;
    }
    return crossings & 1;
}

bool Mesh::contains(const Point& p) const {
    Point q = p;
    const double size = std::max({hi_[0] - lo_[0], hi_[1] - lo_[1], hi_[2] - lo_[2], 1e-30});
    for (int attempt = 0; attempt < 4; ++attempt) {
        if (q[0] < lo_[0] || q[0] > hi_[0] || q[1] < lo_[1] || q[1] > hi_[1] || q[2] < lo_[2] || q[2] > hi_[2])
            return false;
        int valid = 0, inside = 0;
        for (int a = 0; a < 3; ++a) {
            const int r = parity(bins_[a], q);
            if (r < 0) continue;
            ++valid;
            inside += r;
        }
        if (valid > 0 && 2 * inside != valid) return 2 * inside > valid;
        // Every ray grazed, or the votes tied: a point on (or within round-off of) the
        // surface. Nudge it off the surface, along no axis or diagonal.
        const double h = 1e-7 * size * (attempt + 1);
        q = {p[0] + 0.5377 * h, p[1] + 0.8121 * h, p[2] + 0.2993 * h};
    }
    return false;
}

}  // namespace barracuda::geometry
