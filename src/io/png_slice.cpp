// A slice of |u| as a PNG: the plot (nearest-neighbour scaled), a colour bar
// to its right labelled with the range, and an optional title above, all
// drawn on a Canvas (canvas.hpp: bitmap font, libpng encoding) and written
// atomically.
#include "io/png_slice.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "boundary/face.hpp"
#include "common/error.hpp"
#include "io/atomic_file.hpp"
#include "io/canvas.hpp"

namespace barracuda::io {

namespace {

constexpr Rgb solid_grey{128, 128, 128};

std::string format3(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

}  // namespace

void write_png_slice(const std::filesystem::path& file, const FieldSet& fields, const SliceOptions& options) {
    const auto fail = [&](const std::string& why) { throw OutputError("cannot write " + file.string() + ": " + why); };
    const auto& n = fields.size;
    const int axis = options.axis;
    if (axis < 0 || axis > 2) fail("slice axis must be 0, 1 or 2, got " + std::to_string(axis));
    if (n[0] < 1 || n[1] < 1 || n[2] < 1) fail("grid size must be at least 1 on every axis");
    if (options.index < 0 || options.index >= n[axis])
        fail("slice index " + std::to_string(options.index) + " is outside 0.." + std::to_string(n[axis] - 1));
    if (options.values) {
        if (options.values->size() != std::size_t(fields.cells())) fail("the drawn field has the wrong size");
    } else if (fields.velocity.size() != std::size_t(fields.cells()) * 3) {
        fail("the velocity field is missing or has the wrong size");
    }
    if (!fields.node_kind.empty() && fields.node_kind.size() != std::size_t(fields.cells()))
        fail("the node_kind field has the wrong size");

    // In-plane axes in increasing order: a runs right, b runs up.
    const int a = axis == 0 ? 1 : 0;
    const int b = axis == 2 ? 1 : 2;
    const int w = n[a], h = n[b];
    std::vector<double> mag(std::size_t(w) * h);
    std::vector<bool> solid(mag.size(), false);
    double lo = INFINITY, hi = -INFINITY;
    for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i) {
            std::array<int, 3> p{};
            p[axis] = options.index, p[a] = i, p[b] = j;
            const std::size_t cell = p[0] + std::size_t(n[0]) * (p[1] + std::size_t(n[1]) * p[2]);
            const std::size_t k = std::size_t(j) * w + i;
            if (options.values) {
                mag[k] = (*options.values)[cell];
            } else {
                const double* u = &fields.velocity[3 * cell];
                mag[k] = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            }
            solid[k] = !fields.node_kind.empty() && fields.node_kind[cell] == boundary::Solid;
            if (!solid[k] && std::isfinite(mag[k])) lo = std::min(lo, mag[k]), hi = std::max(hi, mag[k]);
        }
    if (lo > hi) lo = hi = 0;  // nothing but solid (or non-finite) cells

    // Layout. Text scales with the plot so it stays readable on large images.
    const int min_pixels = std::max(options.min_pixels, 1);
    const int zoom = std::max(1, (min_pixels + std::max(w, h) - 1) / std::max(w, h));
    const int pw = w * zoom, ph = h * zoom;
    const int ts = std::clamp(std::max(pw, ph) / 192, 1, 4);
    const int margin = 8 * ts, line = glyph_h * ts;
    const std::string max_label = format3(hi), min_label = format3(lo), name_label = options.label;
    const int label_w = std::max({text_width(max_label, ts), text_width(min_label, ts), text_width(name_label, ts)});
    const int bar_h = std::max(ph, 4 * line);  // room for three labels however flat the plot is
    const int bar_w = 10 * ts;
    const int plot_x = margin;
    const int plot_y = margin + (options.title.empty() ? 0 : line + margin);
    const int bar_x = plot_x + pw + margin;
    const int label_x = bar_x + bar_w + 3 * ts;
    const int width = std::max(label_x + label_w + margin, 2 * margin + text_width(options.title, ts));
    const int height = plot_y + bar_h + margin;
    Canvas image(width, height);

    for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i) {
            const std::size_t k = std::size_t(j) * w + i;
            Rgb c = black;  // non-finite values stand out against the colour map
            if (solid[k]) c = solid_grey;
            else if (std::isfinite(mag[k])) c = viridis(hi > lo ? (mag[k] - lo) / (hi - lo) : 0.0);
            image.fill(plot_x + i * zoom, plot_y + (h - 1 - j) * zoom, zoom, zoom, c);  // row 0 at the bottom
        }
    for (int r = 0; r < bar_h; ++r)
        image.fill(bar_x, plot_y + r, bar_w, 1, viridis(bar_h > 1 ? 1.0 - double(r) / (bar_h - 1) : 1.0));

    if (!options.title.empty()) image.text(margin, margin, options.title, ts);
    image.text(label_x, plot_y, max_label, ts);
    image.text(label_x, plot_y + (bar_h - line) / 2, name_label, ts);
    image.text(label_x, plot_y + bar_h - line, min_label, ts);

    write_file_atomically(file, encode_png(image, file));
}

}  // namespace barracuda::io
