#include "io/run_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "io/atomic_file.hpp"
#include "io/png_slice.hpp"

namespace barracuda::io {

RunWriter::RunWriter(const sim::CaseSpec& spec, const std::filesystem::path& requested)
    : spec_(spec),
      dir_(prepare_output_directory(requested)),
      series_(dir_.path / "fields.pvd"),
      kinds_(sim::output_node_kinds(spec)) {}

RunWriter::~RunWriter() {
    try {
        flush();
    } catch (...) {  // a destructor must not throw; the run has already failed or finished
    }
}

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

namespace {

// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string q = "\"";
    for (char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string csv_number(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.12g", v);
    return b;
}

}  // namespace

std::array<double, 2> RunWriter::coefficients(const sim::ForceReportSpec& f, const std::array<double, 3>& force) {
    // C = F / (1/2 rho0 U^2 A), rho0 = 1 (lattice units).
    const double q = 0.5 * 1.0 * f.reference_velocity * f.reference_velocity * f.reference_area;
    return {force[std::size_t(f.flow_axis)] / q, force[std::size_t(f.lift_axis)] / q};
}

void RunWriter::write_forces(std::int64_t step, const std::vector<std::array<double, 3>>& forces) {
    const auto& names = spec_.forces.obstacles;
    if (csv_.empty()) {
        csv_ = "step,time";
        for (const auto& name : names)
            for (const char* column : {".Fx", ".Fy", ".Fz", ".C_d", ".C_l"}) {
                csv_ += ',';
                csv_ += csv_field(name + column);
            }
        csv_ += "\n";
    }
    // Time in lattice units (dt = 1), so equal to the step.
    csv_ += std::to_string(step);
    csv_ += ',';
    csv_ += csv_number(double(step));
    for (std::size_t k = 0; k < forces.size() && k < names.size(); ++k) {
        const auto c = coefficients(spec_.forces, forces[k]);
        for (double v : {forces[k][0], forces[k][1], forces[k][2], c[0], c[1]}) {
            csv_ += ',';
            csv_ += csv_number(v);
        }
    }
    csv_ += "\n";
    csv_dirty_ = true;
    const auto now = std::chrono::steady_clock::now();
    if (forces_csv_.empty() || std::chrono::duration<double>(now - csv_written_).count() >= csv_rewrite_seconds) flush();
}

void RunWriter::flush() {
    if (!csv_dirty_) return;
    const auto path = dir_.path / "forces.csv";
    write_file_atomically(path, csv_);
    csv_dirty_ = false;
    csv_written_ = std::chrono::steady_clock::now();
    if (forces_csv_.empty()) {
        forces_csv_ = path;
        files_.push_back(path);
    }
}

}  // namespace barracuda::io
