// Writes a run's output instants as files: VTK ImageData per instant, a .pvd
// series that ParaView opens as one time-dependent dataset, and a PNG slice.
#pragma once
#include <filesystem>
#include <memory>
#include <vector>

#include "io/output_dir.hpp"
#include "io/vtk.hpp"
#include "sim/case_spec.hpp"
#include "sim/simulation.hpp"

namespace barracuda::io {

class RunWriter final : public sim::OutputSink {
public:
    /// Prepares the directory (a new sibling if `requested` holds an earlier run's results).
    RunWriter(const sim::CaseSpec& spec, const std::filesystem::path& requested);
    void write(std::int64_t step, const std::vector<double>& rho, const std::vector<double>& u) override;

    const OutputDirectory& directory() const { return dir_; }
    const std::vector<std::filesystem::path>& files() const { return files_; }
    /// The most recent PNG slice, if any.
    const std::filesystem::path& last_png() const { return last_png_; }

private:
    sim::CaseSpec spec_;
    OutputDirectory dir_;
    PvdSeries series_;
    std::vector<std::uint8_t> kinds_;
    std::vector<std::filesystem::path> files_;
    std::filesystem::path last_png_;
    std::int64_t last_step_ = -1;
};

}  // namespace barracuda::io
