// A quick look: a PNG of the velocity magnitude on one axis-aligned slice,
// with a colour bar and its range printed beside it.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "io/fields.hpp"

namespace barracuda::io {

struct SliceOptions {
    int axis = 2;           // slice normal: 0 x, 1 y, 2 z
    int index = 0;          // node index along the axis
    int min_pixels = 384;   // small grids are scaled up (nearest neighbour) to at least this
    std::string title;      // drawn above the image, may be empty
    /// One value per cell drawn instead of |u| (then the velocity may be absent), named
    /// `label` beside the colour bar.
    const std::vector<double>* values = nullptr;
    std::string label = "|u|";
};

/// Writes |u| on the slice with a perceptually uniform colour map (viridis-like),
/// solid nodes in grey, and a vertical colour bar labelled with min and max. Atomic.
void write_png_slice(const std::filesystem::path& file, const FieldSet& fields, const SliceOptions& options);

}  // namespace barracuda::io
