// Voxel images from files: raw binary (dimensions, type and byte order given by
// the case), NRRD (its own header; raw or gzip data in the same file), VTK image
// data (.vti: inline ascii or base64, or appended raw or base64 data, zlib
// compressed or not) and numbered stacks of greyscale PNG slices, turned
// into a solid mask by a label rule (geometry/voxels.hpp). Each value is read,
// labelled and dropped, so an image costs one byte a voxel.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "geometry/voxels.hpp"

namespace barracuda::io {

enum class VoxelType { U8, U16, I16, U32, I32, F32, F64 };

/// How to read a raw file (NRRD files carry their own).
struct RawLayout {
    std::array<int, 3> n{0, 0, 0};
    VoxelType type = VoxelType::U8;
    bool big_endian = false;
};

/// Which values are solid: those listed, or those at or above a threshold.
struct VoxelLabels {
    std::vector<double> solid;
    std::optional<double> threshold;
    bool is_solid(double v) const {
        if (threshold) return v >= *threshold;
        for (double s : solid)
            if (v == s) return true;
        return false;
    }
};

/// The image in a file's bytes (io::read_input_file): NRRD when they begin with
/// "NRRD000", else raw with `raw`, which must then be given. Throws std::runtime_error
/// naming what is wrong: a size that does not match the dimensions and type, an NRRD
/// header that is malformed or asks for what is not offered (a detached data file,
/// an encoding other than raw or gzip, not 3 dimensions), damaged gzip data.
geometry::Voxels parse_voxels(const std::string& bytes, const std::optional<RawLayout>& raw, const VoxelLabels& labels);

/// A stack of 8 or 16-bit greyscale PNG slices (one a z layer, x along a row, y down
/// the rows), given as the files' bytes in order. Throws std::runtime_error naming the
/// slice (its index in the stack) and what is wrong: not a PNG, damaged or truncated,
/// colour or palette images, bit depths other than 8 and 16, slices of different
/// sizes or depths.
geometry::Voxels parse_png_stack(const std::vector<std::string>& slices, const VoxelLabels& labels);

}  // namespace barracuda::io
