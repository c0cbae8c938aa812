// A small RGB drawing surface with a built-in 5x7 bitmap font, encoded to PNG
// with libpng: shared by the PNG slices (png_slice.cpp) and the validation
// plots (png_plot.cpp), so neither needs a plotting library.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace barracuda::io {

struct Rgb {
    std::uint8_t r, g, b;
};

constexpr Rgb black{0, 0, 0};

constexpr int glyph_w = 5, glyph_h = 7, glyph_advance = 6;

struct Canvas {
    int width, height;
    std::vector<std::uint8_t> rgb;

    Canvas(int w, int h) : width(w), height(h), rgb(std::size_t(w) * h * 3, 255) {}  // white background

    void fill(int x0, int y0, int w, int h, Rgb c);
    /// Text with its top-left corner at (x, y), each font pixel a scale x scale square;
    /// characters without a glyph stay blank.
    void text(int x, int y, std::string_view s, int scale, Rgb colour = black);
    /// Text turned a quarter anticlockwise (reading upwards), its top-left corner at (x, y).
    void text_up(int x, int y, std::string_view s, int scale, Rgb colour = black);
};

inline int text_width(std::string_view s, int scale) { return int(s.size()) * glyph_advance * scale; }

/// The image as PNG bytes; throws OutputError naming `file` when libpng fails.
/// `level`: zlib's compression level 0-9 (-1: libpng's default).
std::string encode_png(const Canvas& image, const std::filesystem::path& file, int level = -1);

/// The viridis colour map at t in [0, 1] (clamped; NaN gives its lowest colour).
Rgb viridis(double t);

}  // namespace barracuda::io
