// The plots of png_plot.hpp: axes with round ticks (1, 2, 5 x 10^k on linear
// axes, decades on log axes), lines, point markers and a legend, on a Canvas.
#include "io/png_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "io/atomic_file.hpp"
#include "io/canvas.hpp"

namespace barracuda::io {

namespace {

// A qualitative palette (the order of matplotlib's default cycle: blue, orange,
// green, red, purple, brown, pink, grey) so the figures read like the usual ones.
constexpr Rgb palette[] = {{31, 119, 180},  {255, 127, 14}, {44, 160, 44},   {214, 39, 40},
                           {148, 103, 189}, {140, 86, 75},  {227, 119, 194}, {127, 127, 127}};
constexpr Rgb grid_grey{225, 225, 225};

constexpr int ts = 2;                       // text scale: 10 x 14 pixel characters
constexpr int panel_w = 620, panel_h = 460;  // one panel, labels included
constexpr int left = 110, right = 20, top = 40, bottom = 70;  // the axes box inside a panel

struct Axis {
    double lo = 0, hi = 1;
    bool log = false;
    double map(double v) const {  // to [0, 1]
        const double t = log ? std::log10(v) : v;
        return (t - lo) / (hi - lo);
    }
    std::vector<double> ticks;  // in data units (log axes: the values, not their logarithms)
};

std::string label_of(double v, bool log) {
    char b[32];
    if (log) std::snprintf(b, sizeof b, "1e%d", int(std::lround(std::log10(v))));
    else std::snprintf(b, sizeof b, "%g", std::abs(v) < 1e-12 ? 0.0 : v);
    return b;
}

Axis make_axis(std::vector<double> values, bool log) {
    Axis a;
    a.log = log;
    std::vector<double> t;
    for (double v : values)
        if (std::isfinite(v) && (!log || v > 0)) t.push_back(log ? std::log10(v) : v);
    double lo = t.empty() ? 0 : *std::min_element(t.begin(), t.end());
    double hi = t.empty() ? 1 : *std::max_element(t.begin(), t.end());
    if (hi - lo < 1e-12 * std::max(1.0, std::abs(hi))) lo -= 0.5, hi += 0.5;
    if (log) {
        a.lo = std::floor(lo + 1e-9), a.hi = std::ceil(hi - 1e-9);
        if (a.hi <= a.lo) a.hi = a.lo + 1;
        const int step = std::max(1, int(std::ceil((a.hi - a.lo) / 8)));
        for (int k = int(a.lo); k <= int(a.hi); k += step) a.ticks.push_back(std::pow(10.0, k));
        return a;
    }
    const double raw = (hi - lo) / 5, mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
    a.lo = std::floor(lo / step + 1e-9) * step, a.hi = std::ceil(hi / step - 1e-9) * step;
    for (double v = a.lo; v <= a.hi + 1e-9 * step; v += step) a.ticks.push_back(v);
    return a;
}

struct Box {
    int x0, y0, w, h;  // pixels; y grows downwards
};

void dot(Canvas& c, const Box& b, double px, double py, int r, Rgb col) {
    const int x = int(std::lround(px)), y = int(std::lround(py));
    for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx)
            if (dx * dx + dy * dy <= r * r + r && x + dx >= b.x0 && x + dx < b.x0 + b.w && y + dy >= b.y0 &&
                y + dy < b.y0 + b.h)
                c.fill(x + dx, y + dy, 1, 1, col);
}

void segment(Canvas& c, const Box& b, double x0, double y0, double x1, double y1, Rgb col) {
    const int n = std::max(1, int(std::ceil(std::max(std::abs(x1 - x0), std::abs(y1 - y0)))));
    if (n > 100000) return;  // far outside the axes: not worth drawing
    for (int k = 0; k <= n; ++k) dot(c, b, x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n, 1, col);
}

void draw_panel(Canvas& c, int ox, int oy, const PlotPanel& p) {
    std::vector<double> xs, ys;
    for (const auto& s : p.series) xs.insert(xs.end(), s.x.begin(), s.x.end()), ys.insert(ys.end(), s.y.begin(), s.y.end());
    const Axis ax = make_axis(xs, p.log_x), ay = make_axis(ys, p.log_y);
    const Box b{ox + left, oy + top, panel_w - left - right, panel_h - top - bottom};
    const auto px = [&](double v) { return b.x0 + ax.map(v) * (b.w - 1); };
    const auto py = [&](double v) { return b.y0 + (1 - ay.map(v)) * (b.h - 1); };
    const int line = glyph_h * ts;

    for (double t : ax.ticks) {
        const int x = int(std::lround(px(t)));
        c.fill(x, b.y0, 1, b.h, grid_grey);
        const auto s = label_of(t, ax.log);
        c.text(x - text_width(s, ts) / 2, b.y0 + b.h + 8, s, ts);
    }
    for (double t : ay.ticks) {
        const int y = int(std::lround(py(t)));
        c.fill(b.x0, y, b.w, 1, grid_grey);
        const auto s = label_of(t, ay.log);
        c.text(b.x0 - 8 - text_width(s, ts), y - line / 2, s, ts);
    }
    c.fill(b.x0, b.y0, b.w, 1, black), c.fill(b.x0, b.y0 + b.h - 1, b.w, 1, black);
    c.fill(b.x0, b.y0, 1, b.h, black), c.fill(b.x0 + b.w - 1, b.y0, 1, b.h, black);
    c.text(b.x0 + (b.w - text_width(p.title, ts)) / 2, oy + (top - line) / 2, p.title, ts);
    c.text(b.x0 + (b.w - text_width(p.x_label, ts)) / 2, b.y0 + b.h + 16 + line, p.x_label, ts);
    c.text_up(ox + 8, b.y0 + (b.h - text_width(p.y_label, ts)) / 2, p.y_label, ts);

    const auto ok = [&](double x, double y) {
        return std::isfinite(x) && std::isfinite(y) && (!ax.log || x > 0) && (!ay.log || y > 0);
    };
    int k = 0, legend_rows = 0;
    std::size_t legend_w = 0;
    for (const auto& s : p.series) {
        const Rgb col = palette[k++ % std::size(palette)];
        const std::size_t n = std::min(s.x.size(), s.y.size());
        for (std::size_t i = 0; i < n; ++i) {
            if (!ok(s.x[i], s.y[i])) continue;
            if (s.line && i + 1 < n && ok(s.x[i + 1], s.y[i + 1]))
                segment(c, b, px(s.x[i]), py(s.y[i]), px(s.x[i + 1]), py(s.y[i + 1]), col);
            if (s.points) dot(c, b, px(s.x[i]), py(s.y[i]), 4, col);
        }
        if (!s.label.empty()) ++legend_rows, legend_w = std::max(legend_w, s.label.size());
    }
    if (legend_rows == 0) return;
    // The legend in the upper right corner of the axes, on white.
    const int lw = 40 + text_width(std::string(legend_w, 'x'), ts), lh = legend_rows * (line + 6) + 8;
    const int lx = b.x0 + b.w - lw - 8, ly = b.y0 + 8;
    c.fill(lx, ly, lw, lh, {255, 255, 255});
    c.fill(lx, ly, lw, 1, black), c.fill(lx, ly + lh - 1, lw, 1, black);
    c.fill(lx, ly, 1, lh, black), c.fill(lx + lw - 1, ly, 1, lh, black);
    int row = 0;
    k = 0;
    for (const auto& s : p.series) {
        const Rgb col = palette[k++ % std::size(palette)];
        if (s.label.empty()) continue;
        const int y = ly + 6 + row++ * (line + 6);
        const Box all{0, 0, c.width, c.height};
        if (s.line) c.fill(lx + 6, y + line / 2 - 1, 24, 3, col);
        if (s.points) dot(c, all, lx + 18, y + line / 2, 4, col);
        c.text(lx + 36, y, s.label, ts);
    }
}

}  // namespace

void write_png_plot(const std::filesystem::path& file, const std::string& title, const std::vector<PlotPanel>& panels) {
    const int n = std::max<int>(1, int(panels.size()));
    const int head = title.empty() ? 0 : glyph_h * ts + 20;
    Canvas c(std::max(n * panel_w, text_width(title, ts) + 20), panel_h + head);
    if (!title.empty()) c.text(10, 10, title, ts);
    const int left = (c.width - n * panel_w) / 2;  // a title wider than the panels: centre them under it
    for (int i = 0; i < int(panels.size()); ++i) draw_panel(c, left + i * panel_w, head, panels[i]);
    write_file_atomically(file, encode_png(c, file));
}

}  // namespace barracuda::io
