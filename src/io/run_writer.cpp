#include "io/run_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "io/png_slice.hpp"

namespace barracuda::io {

RunWriter::RunWriter(const sim::CaseSpec& spec, const std::filesystem::path& requested)
    : spec_(spec),
      dir_(prepare_output_directory(requested)),
      series_(dir_.path / "fields.pvd"),
      kinds_(sim::output_node_kinds(spec)) {}

void RunWriter::write(std::int64_t step, const std::vector<double>& rho, const std::vector<double>& u) {
    if (step == last_step_) return;  // the final state can coincide with an output interval
    last_step_ = step;
    const auto& o = spec_.output;
    FieldSet fields;
    fields.size = spec_.size;
    if (o.density) fields.density = rho;
    if (o.velocity || o.png) fields.velocity = u;
    fields.node_kind = kinds_;  // also tells the PNG which nodes are solid

    char name[64];
    if (o.vti) {
        std::snprintf(name, sizeof name, "fields_%08lld.vti", static_cast<long long>(step));
        FieldSet vti = fields;
        if (!o.velocity) vti.velocity.clear();
        if (!o.node_kind) vti.node_kind.clear();
        write_vti(dir_.path / name, vti, VtiOptions{o.zlib});
        files_.push_back(dir_.path / name);
        series_.add(double(step), name);
        if (std::find(files_.begin(), files_.end(), series_.path()) == files_.end()) files_.push_back(series_.path());
    }
    if (o.png) {
        std::snprintf(name, sizeof name, "slice_%08lld.png", static_cast<long long>(step));
        SliceOptions s;
        s.axis = lattice::dimensions_of(spec_.model.lattice) == 2 ? 2 : o.slice_axis;
        const int n = spec_.size[s.axis];
        s.index = std::clamp(int(std::lround(o.slice_position * (n - 1))), 0, n - 1);
        s.title = spec_.title + "  step " + std::to_string(step);
        write_png_slice(dir_.path / name, fields, s);
        files_.push_back(dir_.path / name);
        last_png_ = dir_.path / name;
    }
}

}  // namespace barracuda::io
