// Taking a slice: each rank samples the cells it owns on the plane (Engine::sample: on
// the GPU a kernel over those cells and a copy of their moments, not of the whole
// field), rank 0 gathers the pieces and computes the field drawn.
#include "live/slice.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "boundary/face.hpp"
#include "parallel/comm.hpp"

namespace barracuda::live {

namespace {

constexpr std::array<std::pair<Field, std::string_view>, 8> names{{{Field::Speed, "speed"},
                                                                   {Field::Ux, "ux"},
                                                                   {Field::Uy, "uy"},
                                                                   {Field::Uz, "uz"},
                                                                   {Field::Density, "density"},
                                                                   {Field::Temperature, "temperature"},
                                                                   {Field::Vorticity, "vorticity"},
                                                                   {Field::NodeKind, "node_kind"}}};

// The plane's in-plane axes in increasing order: a runs along i, b along j.
int first_axis(int axis) { return axis == 0 ? 1 : 0; }
int second_axis(int axis) { return axis == 2 ? 1 : 2; }

constexpr int sampled_values = 5;  // rho, ux, uy, uz, theta (Engine::sample's order)
constexpr int per_cell = 6;        // and the node kind

}  // namespace

std::string_view field_name(Field f) {
    for (const auto& [field, name] : names)
        if (field == f) return name;
    return "?";
}

std::optional<Field> field_named(std::string_view name) {
    for (const auto& [field, n] : names)
        if (n == name) return field;
    return std::nullopt;
}

std::vector<Field> fields_of(const sim::CaseSpec& spec) {
    std::vector<Field> out{Field::Speed, Field::Ux, Field::Uy};
    if (spec.size[2] > 1) out.push_back(Field::Uz);
    out.push_back(Field::Density);
    if (spec.thermal.enabled) out.push_back(Field::Temperature);
    out.push_back(Field::Vorticity);
    out.push_back(Field::NodeKind);
    return out;
}

std::string field_label(Field f, const sim::CaseSpec& spec) {
    const bool si = spec.units.si;
    const std::string v = si ? " (m/s)" : " (cells/step)";
    switch (f) {
        case Field::Speed: return "|u|" + v;
        case Field::Ux: return "u_x" + v;
        case Field::Uy: return "u_y" + v;
        case Field::Uz: return "u_z" + v;
        case Field::Density: return si ? "p - p0 (Pa)" : "density";
        case Field::Temperature: return "T";
        case Field::Vorticity: return si ? "|curl u| (1/s)" : "|curl u| (1/step)";
        case Field::NodeKind: return "node kind";
    }
    return "?";
}

SliceSpec default_slice(const sim::CaseSpec& spec) {
    SliceSpec s;
    s.axis = 2;
    s.index = spec.size[2] / 2;
    return s;
}

std::string check_slice(const SliceSpec& s, const sim::CaseSpec& spec) {
    if (s.axis < 0 || s.axis > 2) return "axis " + std::to_string(s.axis) + ": allowed 0 (x), 1 (y), 2 (z)";
    if (spec.size[2] == 1 && s.axis != 2)
        return "axis " + std::to_string(s.axis) + ": a 2D case has one plane, normal to z (axis 2)";
    const int n = spec.size[std::size_t(s.axis)];
    if (s.index < 0 || s.index >= n)
        return "index " + std::to_string(s.index) + ": allowed 0.." + std::to_string(n - 1) + " along " + "xyz"[s.axis];
    const auto offered = fields_of(spec);
    if (std::find(offered.begin(), offered.end(), s.field) == offered.end())
        return "field '" + std::string(field_name(s.field)) + "': this case has no temperature ([thermal])";
    return {};
}

Slice take_slice(sim::Simulation& simulation, const SliceSpec& s, const std::vector<std::uint8_t>& kinds) {
    const auto& spec = simulation.spec();
    const auto& sub = simulation.subdomain();
    const auto& comm = parallel::Comm::world();
    const int n = s.axis, a = first_axis(n), b = second_axis(n);
    const int w = spec.size[std::size_t(a)], h = spec.size[std::size_t(b)];
    // The planes the field needs: the slice's, and for the vorticity its two neighbours
    // along the normal (clamped at the box's ends: one-sided differences there).
    std::vector<int> planes{s.index};
    const bool curl = s.field == Field::Vorticity;
    const bool sampled = s.field != Field::NodeKind;
    if (curl && spec.size[std::size_t(n)] > 1)
        planes = {std::max(s.index - 1, 0), s.index, std::min(s.index + 1, spec.size[std::size_t(n)] - 1)};

    // This rank's cells on each plane, i fastest, and where they sit in the plane.
    const auto grid = sim::local_grid(spec, sub);
    std::vector<std::int64_t> cells;
    std::vector<float> cell_kinds;
    std::vector<std::int32_t> header;  // per plane: i0, ni, j0, nj (0 x 0: not here)
    for (int p : planes) {
        if (!sub.owns_global(n, p)) {
            header.insert(header.end(), {0, 0, 0, 0});
            continue;
        }
        const int i0 = sub.owned_origin[std::size_t(a)], ni = sub.owned_size[std::size_t(a)];
        const int j0 = sub.owned_origin[std::size_t(b)], nj = sub.owned_size[std::size_t(b)];
        header.insert(header.end(), {i0, ni, j0, nj});
        for (int j = 0; j < nj; ++j)
            for (int i = 0; i < ni; ++i) {
                std::array<int, 3> local{};
                local[std::size_t(n)] = p - sub.owned_origin[std::size_t(n)] + sub.ghost_lo[std::size_t(n)];
                local[std::size_t(a)] = i + sub.ghost_lo[std::size_t(a)];
                local[std::size_t(b)] = j + sub.ghost_lo[std::size_t(b)];
                cells.push_back(std::int64_t(grid.index(local[0], local[1], local[2])));
                std::array<int, 3> owned{};
                owned[std::size_t(n)] = p - sub.owned_origin[std::size_t(n)];
                owned[std::size_t(a)] = i, owned[std::size_t(b)] = j;
                const std::size_t k = std::size_t(owned[0]) +
                                      std::size_t(sub.owned_size[0]) *
                                          (std::size_t(owned[1]) + std::size_t(sub.owned_size[1]) * std::size_t(owned[2]));
                cell_kinds.push_back(k < kinds.size() ? float(kinds[k]) : 0.0f);
            }
    }
    const std::vector<double> values =
        sampled ? simulation.engine().sample(cells) : std::vector<double>(cells.size() * sampled_values, 0.0);

    // Rank 0 gets every rank's header, values and kinds.
    std::vector<float> packed(cells.size() * per_cell);
    for (std::size_t c = 0; c < cells.size(); ++c) {
        for (int v = 0; v < sampled_values; ++v) packed[c * per_cell + std::size_t(v)] = float(values[c * sampled_values + std::size_t(v)]);
        packed[c * per_cell + sampled_values] = cell_kinds[c];
    }
    std::vector<unsigned char> mine(header.size() * sizeof(std::int32_t) + packed.size() * sizeof(float));
    std::memcpy(mine.data(), header.data(), header.size() * sizeof(std::int32_t));
    if (!packed.empty())
        std::memcpy(mine.data() + header.size() * sizeof(std::int32_t), packed.data(), packed.size() * sizeof(float));
    std::vector<std::size_t> sizes;
    const auto all = comm.size() > 1 ? comm.gather(mine, &sizes, 0) : mine;
    if (comm.size() == 1) sizes = {mine.size()};
    Slice out;
    if (comm.rank() != 0) return out;

    // The planes whole: per_cell values at [plane][j][i].
    const std::size_t plane_cells = std::size_t(w) * std::size_t(h);
    std::vector<float> whole(planes.size() * plane_cells * per_cell, 0.0f);
    std::size_t at = 0;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
        const unsigned char* p = all.data() + at;
        std::vector<std::int32_t> hd(planes.size() * 4);
        std::memcpy(hd.data(), p, hd.size() * sizeof(std::int32_t));
        const unsigned char* v = p + hd.size() * sizeof(std::int32_t);
        for (std::size_t q = 0; q < planes.size(); ++q) {
            const int i0 = hd[4 * q], ni = hd[4 * q + 1], j0 = hd[4 * q + 2], nj = hd[4 * q + 3];
            for (int j = 0; j < nj; ++j)
                for (int i = 0; i < ni; ++i) {
                    float* dst = &whole[(q * plane_cells + std::size_t(j0 + j) * std::size_t(w) + std::size_t(i0 + i)) *
                                        per_cell];
                    std::memcpy(dst, v, per_cell * sizeof(float));
                    v += per_cell * sizeof(float);
                }
        }
        at += sizes[r];
    }

    out.spec = s;
    out.step = simulation.time();
    out.width = w, out.height = h;
    out.label = field_label(s.field, spec);
    out.value.assign(plane_cells, 0.0f);
    out.kind.assign(plane_cells, boundary::Fluid);
    const auto& units = spec.units;
    const double cv = units.si ? units.velocity_scale() : 1.0;
    const std::size_t mid = curl && planes.size() == 3 ? 1 : 0;
    const auto value = [&](std::size_t q, int i, int j, int c) {
        return double(whole[(q * plane_cells + std::size_t(j) * std::size_t(w) + std::size_t(i)) * per_cell +
                            std::size_t(c)]);
    };
    // d u_c / d x_d at (i, j) of the slice's plane, per cell.
    const auto derivative = [&](int c, int d, int i, int j) -> double {
        if (d == a) {
            if (w == 1) return 0.0;
            const int lo = std::max(i - 1, 0), hi = std::min(i + 1, w - 1);
            return (value(mid, hi, j, c) - value(mid, lo, j, c)) / double(hi - lo);
        }
        if (d == b) {
            if (h == 1) return 0.0;
            const int lo = std::max(j - 1, 0), hi = std::min(j + 1, h - 1);
            return (value(mid, i, hi, c) - value(mid, i, lo, c)) / double(hi - lo);
        }
        if (planes.size() < 3) return 0.0;  // a 2D case: nothing varies along z
        const int span = planes[2] - planes[0];
        return span > 0 ? (value(2, i, j, c) - value(0, i, j, c)) / double(span) : 0.0;
    };
    for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i) {
            const std::size_t k = std::size_t(j) * std::size_t(w) + std::size_t(i);
            out.kind[k] = std::uint8_t(value(mid, i, j, sampled_values));
            double v = 0;
            switch (s.field) {
                case Field::Speed: {
                    const double x = value(mid, i, j, 1), y = value(mid, i, j, 2), z = value(mid, i, j, 3);
                    v = std::sqrt(x * x + y * y + z * z) * cv;
                    break;
                }
                case Field::Ux: v = value(mid, i, j, 1) * cv; break;
                case Field::Uy: v = value(mid, i, j, 2) * cv; break;
                case Field::Uz: v = value(mid, i, j, 3) * cv; break;
                case Field::Density: v = units.si ? units.pressure_of(value(mid, i, j, 0)) : value(mid, i, j, 0); break;
                case Field::Temperature: v = value(mid, i, j, 4) + spec.thermal.reference; break;
                case Field::Vorticity: {
                    // u in cells/step: the curl in 1/step; in SI, 1/s (the velocity scale over dx is 1/dt).
                    const int c1 = 1, c2 = 2, c3 = 3;  // ux, uy, uz in the sample
                    const double wx = derivative(c3, 1, i, j) - derivative(c2, 2, i, j);
                    const double wy = derivative(c1, 2, i, j) - derivative(c3, 0, i, j);
                    const double wz = derivative(c2, 0, i, j) - derivative(c1, 1, i, j);
                    v = std::sqrt(wx * wx + wy * wy + wz * wz) / (units.si ? units.dt() : 1.0);
                    break;
                }
                case Field::NodeKind: v = double(out.kind[k]); break;
            }
            out.value[k] = float(v);
        }
    return out;
}

}  // namespace barracuda::live
