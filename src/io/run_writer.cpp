#include "io/run_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <regex>
#include <string>
#include <utility>

#include "common/error.hpp"
#include "io/atomic_file.hpp"
#include "io/png_slice.hpp"

namespace barracuda::io {

namespace {
FieldSet gather_slice(const FieldSet& mine, const parallel::Subdomain& sub, int axis, int index);
}  // namespace

namespace {
// Rank 0 claims the directory (and holds its lock); the others take its path (or its failure).
OutputDirectory shared_directory(const std::function<OutputDirectory()>& claim, const std::filesystem::path& requested) {
    const auto& comm = parallel::Comm::world();
    if (comm.size() == 1) return claim();
    OutputDirectory dir;
    std::vector<unsigned char> text;
    if (comm.rank() == 0) {
        try {
            dir = claim();
            const auto p = "+" + dir.path.string();
            text.assign(p.begin(), p.end());
        } catch (const OutputError& e) {
            const auto p = "-" + std::string(e.what());
            text.assign(p.begin(), p.end());
        }
    }
    comm.broadcast(text);
    const std::string got(text.begin(), text.end());
    if (got.empty() || got[0] == '-') throw OutputError(got.empty() ? "output directory" : got.substr(1));
    if (comm.rank() != 0) {
        dir.path = got.substr(1);
        dir.renamed = dir.path != requested;
    }
    return dir;
}
}  // namespace

OutputDirectory claim_output_directory(const std::filesystem::path& requested) {
    return shared_directory([&] { return prepare_output_directory(requested); }, requested);
}

OutputDirectory claim_run_directory(const std::filesystem::path& directory) {
    return shared_directory([&] { return lock_run_directory(directory); }, directory);
}

RunWriter::RunWriter(const sim::CaseSpec& spec, OutputDirectory directory, const parallel::Subdomain* sub,
                     std::int64_t step)
    : RunWriter(spec, std::move(directory), sub) {
    last_step_ = step;  // the restored instant is on disk already
    if (lead_) truncate_to(step);
}

RunWriter::RunWriter(const sim::CaseSpec& spec, OutputDirectory dir, const parallel::Subdomain* sub)
    : spec_(spec),
      sub_(sub ? *sub : parallel::Subdomain::whole(spec.size, spec.periodic)),
      lead_(parallel::Comm::world().rank() == 0),
      dir_(std::move(dir)),
      series_(dir_.path / "fields.pvd"),
      kinds_(sim::output_node_kinds(spec, &sub_)) {}

void RunWriter::truncate_to(std::int64_t step) {
    namespace fs = std::filesystem;
    std::error_code ec;
    std::vector<std::pair<double, std::string>> series;
    std::int64_t last_png = -1;
    std::vector<fs::path> later;
    for (const auto& entry : fs::directory_iterator(dir_.path, ec)) {
        // The names write() and write_png() give: fields_<step>.vti (.pvti, _r<rank>.vti), slice_<step>.png.
        static const std::regex instant(R"((fields|slice)_([0-9]{1,18})(\.vti|\.pvti|_r[0-9]+\.vti|\.png))");
        const std::string name = entry.path().filename().string();
        std::smatch m;
        if (!std::regex_match(name, m, instant)) continue;
        const std::int64_t at = std::stoll(m[2].str());
        if (at > step) {
            later.push_back(entry.path());
            continue;
        }
        files_.push_back(entry.path());
        if (m[3] == (sub_.decomposed() ? ".pvti" : ".vti")) series.emplace_back(double(at), name);
        if (m[3] == ".png" && at > last_png) last_png = at, last_png_ = entry.path();
    }
    if (ec) throw OutputError("cannot list " + dir_.path.string() + ": " + ec.message());
    for (const auto& p : later)
        if (!fs::remove(p, ec) && ec) throw OutputError("cannot remove " + p.string() + ": " + ec.message());
    std::sort(series.begin(), series.end());
    if (!series.empty() || fs::exists(series_.path())) {  // rewritten even when no instant is left
        series_.reset(std::move(series));
        files_.push_back(series_.path());
    }
    // forces.csv: the header and the rows up to the step.
    const auto csv = dir_.path / "forces.csv";
    if (!fs::exists(csv)) return;
    std::ifstream in(csv, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        const bool header = line.empty() || line[0] < '0' || line[0] > '9';
        if (header || std::stoll(line) <= step) csv_ += line + "\n";
    }
    if (in.bad()) throw OutputError("cannot read " + csv.string());
    csv_dirty_ = true;
    flush();
}

RunWriter::~RunWriter() {
    try {
        flush();
    } catch (...) {  // a destructor must not throw; the run has already failed or finished
    }
}

void RunWriter::write(std::int64_t step, const std::vector<double>& rho, const std::vector<double>& u,
                      const std::vector<double>& temperature) {
    if (step == last_step_) return;  // the final state can coincide with an output interval
    last_step_ = step;
    const auto& o = spec_.output;
    FieldSet fields;
    fields.size = sub_.owned_size;
    fields.offset = sub_.owned_origin;
    if (o.density) fields.density = rho;
    if (o.velocity || o.png) fields.velocity = u;
    if (o.temperature) fields.temperature = temperature;
    if (spec_.units.si) {
        // An SI case writes SI (sim/units.hpp): velocity in m/s, density in kg/m^3 and the
        // pressure p - p_0 in Pa beside it; the temperature is in the case's own unit.
        const double cv = spec_.units.velocity_scale();
        for (double& v : fields.velocity) v *= cv;
        if (o.density) {
            fields.pressure.resize(fields.density.size());
            for (std::size_t c = 0; c < fields.density.size(); ++c) {
                fields.pressure[c] = spec_.units.pressure_of(fields.density[c]);
                fields.density[c] *= spec_.units.density;
            }
        }
    }
    fields.node_kind = kinds_;  // also tells the PNG which nodes are solid

    char name[64];
    if (o.vti) {
        FieldSet vti = fields;
        if (!o.velocity) vti.velocity.clear();
        if (!o.node_kind) vti.node_kind.clear();
        if (!sub_.decomposed()) {
            std::snprintf(name, sizeof name, "fields_%08lld.vti", static_cast<long long>(step));
            write_vti(dir_.path / name, vti, VtiOptions{o.zlib});
        } else {
            // Each rank its piece; rank 0 the .pvti that assembles them.
            const auto& comm = parallel::Comm::world();
            std::snprintf(name, sizeof name, "fields_%08lld_r%04d.vti", static_cast<long long>(step), comm.rank());
            VtiOptions v{o.zlib, true, spec_.size};
            write_vti(dir_.path / name, vti, v);
            std::snprintf(name, sizeof name, "fields_%08lld.pvti", static_cast<long long>(step));
            if (lead_) {
                std::vector<PvtiPiece> pieces;
                for (int r = 0; r < comm.size(); ++r) {
                    const auto p = parallel::make_subdomain(spec_.size, spec_.periodic, sub_.dims, r);
                    char piece[64];
                    std::snprintf(piece, sizeof piece, "fields_%08lld_r%04d.vti", static_cast<long long>(step), r);
                    pieces.push_back({piece, p.owned_origin, p.owned_size});
                }
                write_pvti(dir_.path / name, spec_.size, vti, pieces);
            }
        }
        files_.push_back(dir_.path / name);
        if (lead_) {
            series_.add(double(step), name);
            if (std::find(files_.begin(), files_.end(), series_.path()) == files_.end()) files_.push_back(series_.path());
        }
    }
    if (o.png) write_png(step, fields);
}

void RunWriter::write_png(std::int64_t step, const FieldSet& fields) {
    const auto& o = spec_.output;
    char name[64];
    {
        std::snprintf(name, sizeof name, "slice_%08lld.png", static_cast<long long>(step));
        SliceOptions s;
        s.axis = lattice::dimensions_of(spec_.model.lattice) == 2 ? 2 : o.slice_axis;
        const int n = spec_.size[s.axis];
        s.index = std::clamp(int(std::lround(o.slice_position * (n - 1))), 0, n - 1);
        s.title = spec_.title + "  step " + std::to_string(step);
        if (!sub_.decomposed()) {
            write_png_slice(dir_.path / name, fields, s);
        } else {
            const auto plane = gather_slice(fields, sub_, s.axis, s.index);
            if (!lead_) return;
            s.index = 0;
            write_png_slice(dir_.path / name, plane, s);
        }
        files_.push_back(dir_.path / name);
        last_png_ = dir_.path / name;
    }
}

namespace {

// The slice plane at global index `index` along `axis`, assembled on rank 0 from the
// ranks whose block it crosses (velocity and node kind, all the PNG needs).
FieldSet gather_slice(const FieldSet& mine, const parallel::Subdomain& sub, int axis, int index) {
    const auto& comm = parallel::Comm::world();
    std::vector<unsigned char> bytes;
    const auto& n = mine.size;
    if (sub.owns_global(axis, index)) {
        const int at = index - sub.owned_origin[std::size_t(axis)];
        for (int z = 0; z < n[2]; ++z)
            for (int y = 0; y < n[1]; ++y)
                for (int x = 0; x < n[0]; ++x) {
                    const int p[3] = {x, y, z};
                    if (p[axis] != at) continue;
                    const std::size_t c = std::size_t(x + std::int64_t(n[0]) * (y + std::int64_t(n[1]) * z));
                    const double v[3] = {mine.velocity[3 * c], mine.velocity[3 * c + 1], mine.velocity[3 * c + 2]};
                    const auto* b = reinterpret_cast<const unsigned char*>(v);
                    bytes.insert(bytes.end(), b, b + sizeof v);
                    bytes.push_back(mine.node_kind[c]);
                }
    }
    std::vector<std::size_t> sizes;
    const auto all = comm.gather(bytes, &sizes);
    FieldSet plane;
    if (comm.rank() != 0) return plane;
    plane.size = sub.global_size;
    plane.size[std::size_t(axis)] = 1;
    const auto cells = std::size_t(plane.cells());
    plane.velocity.assign(3 * cells, 0.0);
    plane.node_kind.assign(cells, 0);
    std::size_t at = 0;
    constexpr std::size_t record = 3 * sizeof(double) + 1;
    for (int r = 0; r < comm.size(); ++r) {
        const auto p = parallel::make_subdomain(sub.global_size, sub.global_periodic, sub.dims, r);
        const auto& o = p.owned_size;
        std::size_t k = 0;
        for (int z = 0; z < o[2] && sizes[std::size_t(r)] > 0; ++z)
            for (int y = 0; y < o[1]; ++y)
                for (int x = 0; x < o[0]; ++x) {
                    const int q[3] = {x, y, z};
                    if (q[axis] != index - p.owned_origin[std::size_t(axis)]) continue;
                    int g[3] = {x + p.owned_origin[0], y + p.owned_origin[1], z + p.owned_origin[2]};
                    g[axis] = 0;
                    const std::size_t c = std::size_t(g[0] + std::int64_t(plane.size[0]) * (g[1] + std::int64_t(plane.size[1]) * g[2]));
                    std::memcpy(&plane.velocity[3 * c], all.data() + at + k * record, 3 * sizeof(double));
                    plane.node_kind[c] = all[at + k * record + 3 * sizeof(double)];
                    ++k;
                }
        at += sizes[std::size_t(r)];
    }
    return plane;
}

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
    if (!lead_) return;  // every rank holds the same reduced forces; rank 0 writes them
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
