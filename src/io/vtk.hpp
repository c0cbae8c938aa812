// VTK XML output: ImageData (.vti) with binary appended data (raw, optionally
// zlib-compressed) and a ParaView Data (.pvd) collection for time series.
#pragma once
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "io/fields.hpp"

namespace barracuda::io {

struct VtiOptions {
    bool zlib = false;  // vtkZLibDataCompressor, blocks of at most 1 MiB
    /// A piece of a partitioned dataset (.pvti): nodes are written as unit cells
    /// (CellData, origin -1/2) so that neighbouring pieces share their point planes
    /// and ParaView shows no seam between them; `whole` is the whole box's size.
    bool piece = false;
    std::array<int, 3> whole{0, 0, 0};
};

/// One piece of a .pvti: its file (relative to the .pvti) and fields' offset and size.
struct PvtiPiece {
    std::string file;
    std::array<int, 3> offset{0, 0, 0}, size{1, 1, 1};
};
/// Writes the .pvti that assembles pieces written with VtiOptions::piece; `like` names
/// the arrays (the fields of any piece). Atomic.
void write_pvti(const std::filesystem::path& file, const std::array<int, 3>& whole, const FieldSet& like,
                const std::vector<PvtiPiece>& pieces);

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
    /// Replaces the whole list (a restarted run keeps its earlier instants) and rewrites the .pvd.
    void reset(std::vector<std::pair<double, std::string>> entries);
    const std::filesystem::path& path() const { return file_; }

private:
    void write() const;
    std::filesystem::path file_;
    std::vector<std::pair<double, std::string>> entries_;
};

}  // namespace barracuda::io
