// A slice of |u| as a PNG: the plot (nearest-neighbour scaled), a colour bar
// to its right labelled with the range, and an optional title above, all
// drawn into an RGB buffer with a small built-in bitmap font, then encoded
// with libpng into memory and written atomically.
#include "io/png_slice.hpp"

#include <png.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "boundary/face.hpp"
#include "common/error.hpp"
#include "io/atomic_file.hpp"

namespace barracuda::io {

namespace {

struct Rgb {
    std::uint8_t r, g, b;
};

constexpr Rgb black{0, 0, 0};
constexpr Rgb solid_grey{128, 128, 128};

// Viridis (van der Walt & Smith, matplotlib) sampled at 9 evenly spaced points;
// linear interpolation between them stays close to the published map.
Rgb viridis(double t) {
    static constexpr Rgb anchors[9] = {{0x44, 0x01, 0x54}, {0x47, 0x2d, 0x7b}, {0x3b, 0x52, 0x8b},
                                       {0x2c, 0x72, 0x8e}, {0x21, 0x90, 0x8c}, {0x27, 0xad, 0x81},
                                       {0x5d, 0xc8, 0x63}, {0xaa, 0xdc, 0x32}, {0xfd, 0xe7, 0x25}};
    const double x = std::clamp(t, 0.0, 1.0) * 8.0;
    const int i = std::min(int(x), 7);
    const double f = x - i;
    const auto mix = [f](std::uint8_t a, std::uint8_t b) { return std::uint8_t(std::lround(a + f * (b - a))); };
    return {mix(anchors[i].r, anchors[i + 1].r), mix(anchors[i].g, anchors[i + 1].g),
            mix(anchors[i].b, anchors[i + 1].b)};
}

// 5x7 glyphs, one byte per row from the top, bit 4 the leftmost column.
// There is no row below the baseline: g, p, q and y sit one row higher.
struct Glyph {
    char c;
    std::uint8_t rows[7];
};
constexpr Glyph font[] = {
    {' ', {0, 0, 0, 0, 0, 0, 0}},
    {'0', {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}}, {'1', {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'2', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}}, {'3', {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E}},
    {'4', {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}}, {'5', {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}},
    {'6', {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}}, {'7', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
    {'8', {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}}, {'9', {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}},
    {'.', {0, 0, 0, 0, 0, 0x0C, 0x0C}},                {'-', {0, 0, 0, 0x1F, 0, 0, 0}},
    {'+', {0, 0x04, 0x04, 0x1F, 0x04, 0x04, 0}},       {'|', {0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
    {'=', {0, 0, 0x1F, 0, 0x1F, 0, 0}},                {'(', {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}},
    {')', {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}}, {':', {0, 0x0C, 0x0C, 0, 0x0C, 0x0C, 0}},
    {'/', {0, 0x01, 0x02, 0x04, 0x08, 0x10, 0}},
    {'A', {0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}}, {'B', {0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E}},
    {'C', {0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E}}, {'D', {0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C}},
    {'E', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F}}, {'F', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10}},
    {'G', {0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F}}, {'H', {0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}},
    {'I', {0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E}}, {'J', {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C}},
    {'K', {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}}, {'L', {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F}},
    {'M', {0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11}}, {'N', {0x11, 0x19, 0x15, 0x13, 0x11, 0x11, 0x11}},
    {'O', {0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}}, {'P', {0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10}},
    {'Q', {0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D}}, {'R', {0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11}},
    {'S', {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E}}, {'T', {0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
    {'U', {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}}, {'V', {0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04}},
    {'W', {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A}}, {'X', {0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11}},
    {'Y', {0x11, 0x11, 0x0A, 0x04, 0x04, 0x04, 0x04}}, {'Z', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F}},
    {'a', {0, 0, 0x0E, 0x01, 0x0F, 0x11, 0x0F}},       {'b', {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x1E}},
    {'c', {0, 0, 0x0E, 0x10, 0x10, 0x11, 0x0E}},       {'d', {0x01, 0x01, 0x0D, 0x13, 0x11, 0x11, 0x0F}},
    {'e', {0, 0, 0x0E, 0x11, 0x1F, 0x10, 0x0E}},       {'f', {0x06, 0x09, 0x08, 0x1C, 0x08, 0x08, 0x08}},
    {'g', {0, 0x0F, 0x11, 0x0F, 0x01, 0x11, 0x0E}},    {'h', {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11}},
    {'i', {0x04, 0, 0x0C, 0x04, 0x04, 0x04, 0x0E}},    {'j', {0x02, 0, 0x06, 0x02, 0x02, 0x12, 0x0C}},
    {'k', {0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12}}, {'l', {0x0C, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'m', {0, 0, 0x1A, 0x15, 0x15, 0x11, 0x11}},       {'n', {0, 0, 0x16, 0x19, 0x11, 0x11, 0x11}},
    {'o', {0, 0, 0x0E, 0x11, 0x11, 0x11, 0x0E}},       {'p', {0, 0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10}},
    {'q', {0, 0x0F, 0x11, 0x11, 0x0F, 0x01, 0x01}},       {'r', {0, 0, 0x16, 0x19, 0x10, 0x10, 0x10}},
    {'s', {0, 0, 0x0E, 0x10, 0x0E, 0x01, 0x1E}},       {'t', {0x08, 0x08, 0x1C, 0x08, 0x08, 0x09, 0x06}},
    {'u', {0, 0, 0x11, 0x11, 0x11, 0x13, 0x0D}},       {'v', {0, 0, 0x11, 0x11, 0x11, 0x0A, 0x04}},
    {'w', {0, 0, 0x11, 0x11, 0x15, 0x15, 0x0A}},       {'x', {0, 0, 0x11, 0x0A, 0x04, 0x0A, 0x11}},
    {'y', {0, 0x11, 0x11, 0x0F, 0x01, 0x11, 0x0E}},       {'z', {0, 0, 0x1F, 0x02, 0x04, 0x08, 0x1F}},
};
constexpr int glyph_w = 5, glyph_h = 7, glyph_advance = 6;

struct Canvas {
    int width, height;
    std::vector<std::uint8_t> rgb;

    Canvas(int w, int h) : width(w), height(h), rgb(std::size_t(w) * h * 3, 255) {}  // white background

    void fill(int x0, int y0, int w, int h, Rgb c) {
        for (int y = std::max(y0, 0); y < std::min(y0 + h, height); ++y)
            for (int x = std::max(x0, 0); x < std::min(x0 + w, width); ++x) {
                std::uint8_t* p = &rgb[(std::size_t(y) * width + x) * 3];
                p[0] = c.r, p[1] = c.g, p[2] = c.b;
            }
    }

    // Text with its top-left corner at (x, y), each font pixel a scale x scale square.
    void text(int x, int y, std::string_view s, int scale) {
        for (char ch : s) {
            const auto g = std::find_if(std::begin(font), std::end(font), [ch](const Glyph& f) { return f.c == ch; });
            if (g != std::end(font))  // unknown characters stay blank
                for (int r = 0; r < glyph_h; ++r)
                    for (int c = 0; c < glyph_w; ++c)
                        if (g->rows[r] & (0x10 >> c)) fill(x + c * scale, y + r * scale, scale, scale, black);
            x += glyph_advance * scale;
        }
    }
};

int text_width(std::string_view s, int scale) { return int(s.size()) * glyph_advance * scale; }

std::string format3(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

// libpng reports errors through a callback that must not return; it jumps
// back to the setjmp in encode_png, which turns the message into an exception.
// Nothing with a destructor may be live in the frames skipped by that jump.
struct PngSink {
    std::string bytes;
    char error[200] = "";
};

void png_on_error(png_structp png, png_const_charp message) {
    auto* sink = static_cast<PngSink*>(png_get_error_ptr(png));
    std::snprintf(sink->error, sizeof sink->error, "%s", message);
    png_longjmp(png, 1);
}

void png_on_warning(png_structp, png_const_charp) {}

void png_on_write(png_structp png, png_bytep data, size_t length) {
    bool ok = true;
    try {
        static_cast<PngSink*>(png_get_io_ptr(png))->bytes.append(reinterpret_cast<const char*>(data), length);
    } catch (...) {
        ok = false;
    }
    if (!ok) png_error(png, "out of memory");
}

void png_on_flush(png_structp) {}

std::string encode_png(const Canvas& image, const std::filesystem::path& file) {
    PngSink sink;
    std::vector<png_const_bytep> rows(image.height);
    for (int y = 0; y < image.height; ++y) rows[y] = &image.rgb[std::size_t(y) * image.width * 3];

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, png_on_error, png_on_warning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!info) {
        png_destroy_write_struct(&png, nullptr);
        throw OutputError("cannot write " + file.string() + ": libpng could not start");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        throw OutputError("cannot write " + file.string() + ": libpng: " + sink.error);
    }
    png_set_write_fn(png, &sink, png_on_write, png_on_flush);
    png_set_IHDR(png, info, image.width, image.height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_write_image(png, const_cast<png_bytepp>(rows.data()));  // libpng does not write through them
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return std::move(sink.bytes);
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
    if (fields.velocity.size() != std::size_t(fields.cells()) * 3) fail("the velocity field is missing or has the wrong size");
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
            const double* u = &fields.velocity[3 * cell];
            const std::size_t k = std::size_t(j) * w + i;
            mag[k] = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
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
    const std::string max_label = format3(hi), min_label = format3(lo), name_label = "|u|";
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
