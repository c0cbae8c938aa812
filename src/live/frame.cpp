#include "live/frame.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "boundary/face.hpp"
#include "io/canvas.hpp"

namespace barracuda::live {

namespace {

constexpr io::Rgb solid_grey{128, 128, 128};

std::string format3(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

}  // namespace

std::array<double, 2> range_of(const Slice& slice, const ColourRange& range) {
    if (!range.automatic) return {range.lo, range.hi};
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t k = 0; k < slice.value.size(); ++k) {
        if (slice.spec.field != Field::NodeKind && slice.kind[k] == boundary::Solid) continue;
        const double v = slice.value[k];
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    }
    if (lo > hi) return {0.0, 0.0};
    return {lo, hi};
}

std::string frame_png(const Slice& slice, const std::array<double, 2>& range, const std::string& title,
                      int min_pixels, int max_pixels) {
    const int w = slice.width, h = slice.height;
    const auto [lo, hi] = range;
    // Zoom in small slices, thin out large ones: the image stays between the two sizes.
    const int longest = std::max({w, h, 1});
    const int zoom = std::max(1, min_pixels / longest);
    const int stride = std::max(1, (longest + max_pixels - 1) / max_pixels);
    const int pw = (w + stride - 1) / stride * zoom, ph = (h + stride - 1) / stride * zoom;
    const int ts = std::clamp(std::max(pw, ph) / 256, 1, 3);
    const int margin = 8 * ts, line = io::glyph_h * ts;
    const std::string hi_label = format3(hi), lo_label = format3(lo);
    const int label_w = std::max({io::text_width(hi_label, ts), io::text_width(lo_label, ts)});
    const int bar_h = std::max(ph, 3 * line), bar_w = 12 * ts;
    const int plot_x = margin, plot_y = 2 * margin + line;
    const int bar_x = plot_x + pw + margin, label_x = bar_x + bar_w + 3 * ts;
    const int width = std::max(label_x + label_w + margin, 2 * margin + io::text_width(title, ts));
    const int height = plot_y + bar_h + margin + line + margin;
    io::Canvas image(width, height);

    const bool kinds = slice.spec.field == Field::NodeKind;
    for (int j = 0; j < h; j += stride)
        for (int i = 0; i < w; i += stride) {
            const std::size_t k = std::size_t(j) * std::size_t(w) + std::size_t(i);
            const double v = slice.value[k];
            io::Rgb c = io::black;  // NaN/Inf stand out against the colour map
            if (!kinds && slice.kind[k] == boundary::Solid) c = solid_grey;
            else if (std::isfinite(v)) c = io::viridis(hi > lo ? (v - lo) / (hi - lo) : 0.0);
            // Row 0 at the bottom, as in a plot.
            image.fill(plot_x + i / stride * zoom, plot_y + ph - (j / stride + 1) * zoom, zoom, zoom, c);
        }
    for (int r = 0; r < bar_h; ++r)
        image.fill(bar_x, plot_y + r, bar_w, 1, io::viridis(bar_h > 1 ? 1.0 - double(r) / (bar_h - 1) : 1.0));
    image.text(margin, margin, title, ts);
    image.text(label_x, plot_y, hi_label, ts);
    image.text(label_x, plot_y + bar_h - line, lo_label, ts);
    image.text(margin, plot_y + bar_h + margin, slice.label, ts);
    return io::encode_png(image, "live view frame", 1);  // zlib's fastest: frames are made often
}

}  // namespace barracuda::live
