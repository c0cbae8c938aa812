// VTK XML output: ImageData (.vti) with binary appended data (raw, optionally
// zlib-compressed) and a ParaView Data (.pvd) collection for time series.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "io/fields.hpp"

namespace barracuda::io {

struct VtiOptions {
    bool zlib = false;  // vtkZLibDataCompressor, blocks of at most 1 MiB
};

/// Writes the non-empty fields of `fields` as point data on a grid with unit
/// spacing and origin 0: "density" (Float64), "velocity" (Float64, 3 components),
/// "node_kind" (UInt8). Atomic.
void write_vti(const std::filesystem::path& file, const FieldSet& fields, const VtiOptions& options);

/// A .pvd collection rewritten (atomically) each time an entry is added.
class PvdSeries {
public:
    explicit PvdSeries(std::filesystem::path pvd_file);
    /// Adds `relative_file` (relative to the .pvd's directory) at `time` and rewrites the .pvd.
    void add(double time, const std::string& relative_file);
    const std::filesystem::path& path() const { return file_; }

private:
    std::filesystem::path file_;
    std::vector<std::pair<double, std::string>> entries_;
};

}  // namespace barracuda::io
