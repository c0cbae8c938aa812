// A slice drawn as the live view shows it: the field through the viridis colour map,
// solid nodes grey, a colour bar with its range, the field's name and the step, as PNG.
// Drawn by the server's thread when a viewer asks, never by the solver's.
#pragma once
#include <array>
#include <optional>
#include <string>

#include "live/slice.hpp"

namespace barracuda::live {

struct ColourRange {
    bool automatic = true;  // the slice's own min and max over its fluid nodes
    double lo = 0, hi = 1;  // when not automatic
};

/// The range a slice is drawn with: `range`, or the slice's min and max over its non-solid
/// nodes (finite values only; [0, 0] when there are none).
std::array<double, 2> range_of(const Slice& slice, const ColourRange& range);

/// The slice as PNG bytes, coloured over `range` (range_of's), at least `min_pixels` on
/// its longer side (nearest-neighbour zoom) and at most `max_pixels` (every k-th node);
/// `title` above it.
std::string frame_png(const Slice& slice, const std::array<double, 2>& range, const std::string& title,
                      int min_pixels = 512, int max_pixels = 2048);

}  // namespace barracuda::live
