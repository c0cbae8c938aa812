// Line and point plots as PNG (the validation report's figures), drawn with the
// bitmap font of canvas.hpp: no plotting library or Python is needed, so the
// report is complete on a bare GPU machine and in CI alike.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace barracuda::io {

struct PlotSeries {
    std::string label;  // legend entry; empty: not in the legend
    std::vector<double> x, y;
    bool line = true;     // join the points
    bool points = false;  // mark each point (reference data: points only)
};

struct PlotPanel {
    std::string title, x_label, y_label;
    bool log_x = false, log_y = false;  // non-positive values are left out on a log axis
    std::vector<PlotSeries> series;
};

/// Panels side by side under a common title; each panel's axes cover its data
/// with round ticks. Non-finite values are skipped. Written atomically; throws OutputError.
void write_png_plot(const std::filesystem::path& file, const std::string& title, const std::vector<PlotPanel>& panels);

}  // namespace barracuda::io
