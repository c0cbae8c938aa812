#include "io/run_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <functional>
#include <memory>
#include <system_error>
#include <regex>
#include <string>
#include <utility>

#include "boundary/face.hpp"
#include "common/error.hpp"
#include "io/atomic_file.hpp"
#include "io/png_plot.hpp"
#include "io/png_slice.hpp"
#include "sim/monitors.hpp"

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
    truncate(forces_, step);
    truncate(probes_, step);
    truncate(permeability_log_, step);
    truncate(events_, step);
    truncate(multiphase_log_, step);
}

void RunWriter::truncate(CsvLog& log, std::int64_t step) {
    const auto csv = dir_.path / log.name;
    if (!std::filesystem::exists(csv)) return;
    std::ifstream in(csv, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        const bool header = line.empty() || line[0] < '0' || line[0] > '9';
        if (header || std::stoll(line) <= step) log.text += line + "\n";
    }
    if (in.bad()) throw OutputError("cannot read " + csv.string());
    log.dirty = true;
    flush(log);
}

RunWriter::~RunWriter() {
    try {
        flush();  // waits for a write in flight too
    } catch (...) {  // a destructor must not throw; the run has already failed or finished
    }
}

void RunWriter::write(std::int64_t step, std::vector<double> rho, std::vector<double> u,
                      std::vector<double> temperature) {
    settle_instant();  // the instant before: one in flight at a time, so one set of fields in memory
    if (step == last_step_) return;  // the final state can coincide with an output interval
    last_step_ = step;
    write_permeability(step, u);
    if (spec_.multiphase.enabled) write_multiphase(step, rho, u, temperature);
    const auto& o = spec_.output;
    FieldSet fields;
    fields.size = sub_.owned_size;
    fields.offset = sub_.owned_origin;
    if (o.density) fields.density = std::move(rho);
    if (o.velocity || o.png) fields.velocity = std::move(u);
    // The second distribution's field: a binary case's rho_B or phi (with the densities), else the temperature.
    if (spec_.multiphase.binary) {
        if (o.density) fields.density_b = std::move(temperature);
    } else if (o.temperature) {
        fields.temperature = std::move(temperature);
    }
    fields.node_kind = kinds_;  // also tells the PNG which nodes are solid
    if (!sub_.decomposed()) return write_behind(step, std::move(fields));  // in output units there
    in_output_units(fields);
    if (o.vti) {
        const std::string name = write_dataset(instant_name("fields", step), vti_fields(fields));
        files_.push_back(dir_.path / name);
        if (lead_) {
            series_.add(double(step), name);
            if (std::find(files_.begin(), files_.end(), series_.path()) == files_.end()) files_.push_back(series_.path());
        }
    }
    if (o.png) write_png(step, fields);
}

std::string RunWriter::instant_name(const char* kind, std::int64_t step) {
    char name[64];
    std::snprintf(name, sizeof name, "%s_%08lld", kind, static_cast<long long>(step));
    return name;
}

FieldSet RunWriter::vti_fields(const FieldSet& fields) const {
    FieldSet vti = fields;
    if (!spec_.output.velocity) vti.velocity.clear();
    if (!spec_.output.node_kind) vti.node_kind.clear();
    return vti;
}

void RunWriter::write_behind(std::int64_t step, FieldSet fields) {
    const auto& o = spec_.output;
    const std::filesystem::path vti = dir_.path / (instant_name("fields", step) + ".vti");
    const std::filesystem::path png = dir_.path / (instant_name("slice", step) + ".png");
    // The names are known now; what lists them (files(), last_png()) is read after flush().
    if (o.vti) {
        files_.push_back(vti);
        if (std::find(files_.begin(), files_.end(), series_.path()) == files_.end()) files_.push_back(series_.path());
    }
    if (o.png) files_.push_back(png), last_png_ = png;
    // The instant's files in order: the VTI, then the series that names it (a .pvd never
    // lists a file not yet complete), then the PNG; each written atomically as before.
    auto instant = std::make_shared<FieldSet>(std::move(fields));
    auto task = [this, step, o, png, slice = slice_of(step), instant] {
        in_output_units(*instant);
        if (o.vti)  // the PNG keeps its velocity and node kinds
            series_.add(double(step), write_dataset(instant_name("fields", step), vti_fields(*instant)));
        if (o.png) write_png_slice(png, *instant, slice);
    };
    launch_behind(behind_, task);
}

void RunWriter::launch_behind(std::future<void>& slot, const std::function<void()>& task) {
    try {
        slot = std::async(std::launch::async, task);
    } catch (const std::system_error&) {  // no thread to be had: written here, as on several ranks
        task();
    }
}

void RunWriter::settle_instant() {
    if (behind_.valid()) behind_.get();  // rethrows the write's error (OutputError), here on the run's thread
}

void RunWriter::settle() {
    // Both waited for before either error is thrown: no write left running behind a throw.
    std::exception_ptr error;
    for (auto* f : {&behind_, &mean_behind_}) {
        if (!f->valid()) continue;
        try {
            f->get();
        } catch (...) {
            if (!error) error = std::current_exception();
        }
    }
    if (error) std::rethrow_exception(error);
}

std::string RunWriter::write_dataset(const std::string& stem, const FieldSet& fields) {
    const bool zlib = spec_.output.zlib;
    if (!sub_.decomposed()) {
        write_vti(dir_.path / (stem + ".vti"), fields, VtiOptions{zlib});
        return stem + ".vti";
    }
    // Each rank its piece; rank 0 the .pvti that assembles them.
    const auto& comm = parallel::Comm::world();
    const auto piece = [&](int rank) {
        char tail[32];
        std::snprintf(tail, sizeof tail, "_r%04d.vti", rank);
        return stem + tail;
    };
    write_vti(dir_.path / piece(comm.rank()), fields, VtiOptions{zlib, true, spec_.size});
    if (lead_) {
        std::vector<PvtiPiece> pieces;
        for (int r = 0; r < comm.size(); ++r) {
            const auto p = parallel::make_subdomain(spec_.size, spec_.periodic, sub_.dims, r);
            pieces.push_back({piece(r), p.owned_origin, p.owned_size});
        }
        write_pvti(dir_.path / (stem + ".pvti"), spec_.size, fields, pieces);
    }
    return stem + ".pvti";
}

SliceOptions RunWriter::slice_of(std::int64_t step) const {
    const auto& o = spec_.output;
    SliceOptions s;
    s.axis = lattice::dimensions_of(spec_.model.lattice) == 2 ? 2 : o.slice_axis;
    const int n = spec_.size[s.axis];
    s.index = std::clamp(int(std::lround(o.slice_position * (n - 1))), 0, n - 1);
    s.title = spec_.title + "  step " + std::to_string(step);
    return s;
}

void RunWriter::write_png(std::int64_t step, const FieldSet& fields) {
    SliceOptions s = slice_of(step);
    const auto plane = gather_slice(fields, sub_, s.axis, s.index);
    if (!lead_) return;
    s.index = 0;
    const std::filesystem::path png = dir_.path / (instant_name("slice", step) + ".png");
    write_png_slice(png, plane, s);
    files_.push_back(png);
    last_png_ = png;
}

namespace {

// The per-cell double arrays a plane carries (those a FieldSet holds), with their
// components, in a fixed order.
constexpr std::pair<std::vector<double> FieldSet::*, int> plane_fields[] = {
    {&FieldSet::velocity, 3}, {&FieldSet::density, 1}, {&FieldSet::pressure, 1},
    {&FieldSet::temperature, 1}, {&FieldSet::fluctuation, 1}, {&FieldSet::density_a, 1},
    {&FieldSet::density_b, 1}, {&FieldSet::phi, 1}};

// The plane at global index `index` along `axis`, assembled on rank 0 from the ranks
// whose block it crosses: every field `mine` holds, and the node kinds. axis < 0: the
// whole box.
FieldSet gather_slice(const FieldSet& mine, const parallel::Subdomain& sub, int axis, int index) {
    const auto& comm = parallel::Comm::world();
    std::vector<std::pair<std::vector<double> FieldSet::*, int>> arrays;  // those `mine` holds
    std::size_t doubles = 0;
    for (const auto& a : plane_fields)
        if (!(mine.*a.first).empty()) arrays.push_back(a), doubles += std::size_t(a.second);
    const std::size_t record = doubles * sizeof(double) + 1;
    std::vector<unsigned char> bytes;
    const auto& n = mine.size;
    if (axis < 0 || sub.owns_global(axis, index)) {
        const int at = axis < 0 ? 0 : index - sub.owned_origin[std::size_t(axis)];
        for (int z = 0; z < n[2]; ++z)
            for (int y = 0; y < n[1]; ++y)
                for (int x = 0; x < n[0]; ++x) {
                    const int p[3] = {x, y, z};
                    if (axis >= 0 && p[axis] != at) continue;
                    const std::size_t c = std::size_t(x + std::int64_t(n[0]) * (y + std::int64_t(n[1]) * z));
                    for (const auto& [v, k] : arrays) {
                        const auto* b = reinterpret_cast<const unsigned char*>((mine.*v).data() + std::size_t(k) * c);
                        bytes.insert(bytes.end(), b, b + std::size_t(k) * sizeof(double));
                    }
                    bytes.push_back(mine.node_kind.empty() ? std::uint8_t(0) : mine.node_kind[c]);
                }
    }
    std::vector<std::size_t> sizes;
    const auto all = comm.gather(bytes, &sizes);
    FieldSet plane;
    if (comm.rank() != 0) return plane;
    plane.size = sub.global_size;
    if (axis >= 0) plane.size[std::size_t(axis)] = 1;
    const auto cells = std::size_t(plane.cells());
    for (const auto& [v, k] : arrays) (plane.*v).assign(std::size_t(k) * cells, 0.0);
    plane.node_kind.assign(cells, 0);
    std::size_t at = 0;
    for (int r = 0; r < comm.size(); ++r) {
        const auto p = parallel::make_subdomain(sub.global_size, sub.global_periodic, sub.dims, r);
        const auto& o = p.owned_size;
        std::size_t k = 0;
        for (int z = 0; z < o[2] && sizes[std::size_t(r)] > 0; ++z)
            for (int y = 0; y < o[1]; ++y)
                for (int x = 0; x < o[0]; ++x) {
                    const int q[3] = {x, y, z};
                    if (axis >= 0 && q[axis] != index - p.owned_origin[std::size_t(axis)]) continue;
                    int g[3] = {x + p.owned_origin[0], y + p.owned_origin[1], z + p.owned_origin[2]};
                    if (axis >= 0) g[axis] = 0;
                    const std::size_t c = std::size_t(g[0] + std::int64_t(plane.size[0]) * (g[1] + std::int64_t(plane.size[1]) * g[2]));
                    const unsigned char* src = all.data() + at + k * record;
                    for (const auto& [v, n] : arrays) {
                        std::memcpy((plane.*v).data() + std::size_t(n) * c, src, std::size_t(n) * sizeof(double));
                        src += std::size_t(n) * sizeof(double);
                    }
                    plane.node_kind[c] = *src;
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

void RunWriter::in_output_units(FieldSet& fields) const {
    if (spec_.multiphase.free_energy) {
        // The free energy: density holds rho, density_b phi (Engine::scalar_field); written
        // as the density, phi and the bulk pressure p0 = rho cs2 + a (-phi^2/2 + 3 phi^4/4)
        // (physics/free_energy.hpp; cs2 = 1/3).
        if (fields.density.empty() || fields.density_b.size() != fields.density.size()) return;
        fields.phi.swap(fields.density_b);
        fields.density_b.clear();
        fields.pressure.resize(fields.density.size());
        for (std::size_t c = 0; c < fields.density.size(); ++c)
            fields.pressure[c] = physics::free_energy_pressure(spec_.multiphase.free_energy_parameters,
                                                               fields.density[c], fields.phi[c], 1.0 / 3.0);
        return;
    }
    if (spec_.multiphase.binary) {
        // Two components: density holds rho_A, density_b rho_B (Engine::fields and
        // scalar_field); written as the total, each component, phi and the pressure
        // p = cs2 (rho_A + rho_B) + G cs2 psi_A psi_B (physics/shan_chen.hpp; cs2 = 1/3).
        if (fields.density.empty() || fields.density_b.size() != fields.density.size()) return;
        fields.density_a = fields.density;
        fields.phi.resize(fields.density.size());
        fields.pressure.resize(fields.density.size());
        for (std::size_t c = 0; c < fields.density.size(); ++c) {
            const double a = fields.density_a[c], b = fields.density_b[c];
            fields.density[c] = a + b;
            fields.phi[c] = (a - b) / (a + b);
            fields.pressure[c] = physics::binary_pressure(spec_.multiphase.shan_chen, a, b, 1.0 / 3.0);
        }
        return;
    }
    if (spec_.multiphase.enabled) {
        // A liquid and its vapour: the pressure of the model's equation of state beside the
        // density, p = rho cs2 + G cs2 psi^2 / 2 (physics/shan_chen.hpp; lattice units, which
        // [multiphase] requires; cs2 = 1/3 on D2Q9 and D3Q19, the lattices it is offered on).
        fields.pressure.resize(fields.density.size());
        for (std::size_t c = 0; c < fields.density.size(); ++c)
            fields.pressure[c] = physics::shan_chen_pressure(spec_.multiphase.shan_chen, fields.density[c], 1.0 / 3.0);
        return;
    }
    if (!spec_.units.si) return;
    // An SI case writes SI (sim/units.hpp): velocity in m/s, density in kg/m^3 and the
    // pressure p - p_0 in Pa beside it; the temperature is in the case's own unit.
    const double cv = spec_.units.velocity_scale();
    for (double& v : fields.velocity) v *= cv;
    for (double& v : fields.fluctuation) v *= cv;
    fields.pressure.resize(fields.density.size());
    for (std::size_t c = 0; c < fields.density.size(); ++c) {
        fields.pressure[c] = spec_.units.pressure_of(fields.density[c]);
        fields.density[c] *= spec_.units.density;
    }
}

void RunWriter::write_mean(const sim::MeanFields& mean) {
    settle();
    FieldSet f;
    f.size = sub_.owned_size;
    f.offset = sub_.owned_origin;
    f.density = mean.rho;
    f.velocity = mean.u;
    f.fluctuation = mean.fluctuation;
    if (spec_.multiphase.binary) {
        f.density_b = mean.theta;  // the mean of rho_B or phi (Engine::accumulate's theta)
    } else {
        f.temperature = mean.theta;
        for (double& t : f.temperature) t += spec_.thermal.reference;
    }
    in_output_units(f);
    f.node_kind = kinds_;
    // Read, not changed, from here on: by the VTI's thread and by the section below.
    const auto set = std::make_shared<const FieldSet>(std::move(f));
    if (sub_.decomposed()) {  // the pieces and the .pvti gather over MPI: on the run's thread
        const std::string name = write_dataset("mean", *set);
        if (lead_) files_.push_back(dir_.path / name);
    } else {
        files_.push_back(dir_.path / "mean.vti");
        launch_behind(mean_behind_, [this, set] { write_dataset("mean", *set); });
    }
    if (lead_ && !mean.flows.empty()) write_heat_balance(mean);
    if (spec_.average.section_axis >= 0) write_section(mean, *set);
}

// heat_balance.csv: the mean heat entering through each face and obstacle over the
// window, the storage, and the residual (sim::MeanFields::flows). W in an SI case.
void RunWriter::write_heat_balance(const sim::MeanFields& mean) {
    const auto b = heat_balance(spec_, mean);
    balance_ = b;
    std::string csv = std::string("boundary,heat_in_") + (spec_.units.si ? "W" : "lattice") + "\n";
    for (const auto& [name, q] : b.rows) csv += csv_field(name) + ',' + csv_number(q) + "\n";
    csv += "net," + csv_number(b.net) + "\nstorage," + csv_number(b.storage) + "\nresidual," +
           csv_number(b.net - b.storage) + "\n";
    write_file_atomically(dir_.path / "heat_balance.csv", csv);
    files_.push_back(dir_.path / "heat_balance.csv");
}

HeatBalance heat_balance(const sim::CaseSpec& spec, const sim::MeanFields& mean) {
    HeatBalance b;
    // Lattice units (theta x cells per step) to W: rho c_p dx^3 / dt (sim/units.hpp).
    const double scale = spec.units.si ? 1.0 / spec.units.power_to_lattice() : 1.0;
    const auto names = sim::scalar_flow_names(spec);
    for (std::size_t k = 0; k < mean.flows.size() && k < names.size(); ++k) {
        if ((names[k].empty() && mean.flows[k] == 0) || (k < 6 && spec.periodic[k / 2])) continue;
        const double q = mean.flows[k] * scale;
        b.rows.emplace_back(names[k].empty() ? "obstacles" : names[k], q);
        b.net += q;
        (q > 0 ? b.in : b.out) += q;
    }
    b.storage = mean.storage * scale;
    return b;
}

// The mean fields on the [average] section: a CSV of every node of the plane, colour
// maps of the mean speed and temperature, and profiles across it (seed 004 Fig. 10).
void RunWriter::write_section(const sim::MeanFields& mean, const FieldSet& fields) {
    const auto& av = spec_.average;
    const int axis = av.section_axis;
    const int index = std::clamp(int(std::lround(av.section_at)), 0, spec_.size[std::size_t(axis)] - 1);
    const FieldSet plane = gather_slice(fields, sub_, axis, index);
    if (!lead_) return;
    const bool si = spec_.units.si, thermal = !plane.temperature.empty();
    const int a = axis == 0 ? 1 : 0, b = axis == 2 ? 1 : 2;  // in-plane axes: a across, b up
    const int w = plane.size[std::size_t(a)], h = plane.size[std::size_t(b)];
    const auto position = [&](int i) { return si ? spec_.units.node_position(i) : double(i); };
    const auto cell = [&](int i, int j) {
        std::array<int, 3> p{0, 0, 0};
        p[std::size_t(a)] = i, p[std::size_t(b)] = j;
        return std::size_t(p[0] + std::int64_t(plane.size[0]) * (p[1] + std::int64_t(plane.size[1]) * p[2]));
    };
    std::vector<double> speed(std::size_t(plane.cells()));
    for (std::size_t c = 0; c < speed.size(); ++c) {
        const double* u = &plane.velocity[3 * c];
        speed[c] = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    }
    const std::string an = std::string(1, char('x' + a)), bn = std::string(1, char('x' + b));
    const std::string unit = si ? " (m)" : "";
    // CSV: one row per node of the plane.
    std::string csv = "i,j," + an + unit + "," + bn + unit + ",solid,ux,uy,uz,speed,fluctuation," + (si ? "p" : "rho") + (thermal ? ",T" : "") + "\n";
    for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i) {
            const std::size_t c = cell(i, j);
            const bool solid = plane.node_kind[c] == boundary::Solid;
            csv += std::to_string(i) + ',' + std::to_string(j) + ',' + csv_number(position(i)) + ',' +
                   csv_number(position(j)) + ',' + (solid ? "1" : "0");
            for (int k = 0; k < 3; ++k) csv += ',' + csv_number(plane.velocity[3 * c + std::size_t(k)]);
            csv += ',' + csv_number(speed[c]) + ',' + csv_number(plane.fluctuation[c]);
            csv += ',' + csv_number(si ? plane.pressure[c] : plane.density[c]);
            if (thermal) csv += ',' + csv_number(plane.temperature[c]);
            csv += "\n";
        }
    write_file_atomically(dir_.path / "mean_section.csv", csv);
    files_.push_back(dir_.path / "mean_section.csv");

    char window[96];
    if (si)
        std::snprintf(window, sizeof window, "mean %.4g-%.4g s, %lld samples", time_of(mean.from), time_of(mean.to),
                      static_cast<long long>(mean.samples));
    else
        std::snprintf(window, sizeof window, "mean steps %lld-%lld, %lld samples", static_cast<long long>(mean.from),
                      static_cast<long long>(mean.to), static_cast<long long>(mean.samples));
    char where[64];
    std::snprintf(where, sizeof where, "%s = %.4g%s", std::string(1, char('x' + axis)).c_str(), position(index),
                  si ? " m" : "");
    SliceOptions map;
    map.axis = axis;
    map.index = 0;
    map.values = &speed;
    map.label = si ? "|u| m/s" : "|u|";
    map.title = spec_.title + "  " + where + "  " + window;
    write_png_slice(dir_.path / "mean_section_speed.png", plane, map);
    files_.push_back(dir_.path / "mean_section_speed.png");
    if (thermal) {
        map.values = &plane.temperature;
        map.label = "T";
        write_png_slice(dir_.path / "mean_section_temperature.png", plane, map);
        files_.push_back(dir_.path / "mean_section_temperature.png");
    }
    if (av.profiles.empty()) return;
    PlotPanel sp{"mean speed", "|u|" + std::string(si ? " (m/s)" : ""), bn + unit, false, false, {}};
    PlotPanel tp{"mean temperature", "T", bn + unit, false, false, {}};
    for (double x : av.profiles) {
        const int i = std::clamp(int(std::lround(x)), 0, w - 1);
        char label[48];
        std::snprintf(label, sizeof label, "%s = %.3g%s", an.c_str(), position(i), si ? " m" : "");
        PlotSeries s{label, {}, {}, true, false}, t{label, {}, {}, true, false};
        for (int j = 0; j < h; ++j) {
            const std::size_t c = cell(i, j);
            if (plane.node_kind[c] == boundary::Solid) continue;
            s.x.push_back(speed[c]), s.y.push_back(position(j));
            if (thermal) t.x.push_back(plane.temperature[c]), t.y.push_back(position(j));
        }
        sp.series.push_back(std::move(s));
        if (thermal) tp.series.push_back(std::move(t));
    }
    std::vector<PlotPanel> panels{sp};
    if (thermal) panels.push_back(tp);
    write_png_plot(dir_.path / "mean_profiles.png", spec_.title + "  " + where + "  " + window, panels);
    files_.push_back(dir_.path / "mean_profiles.png");
}

double RunWriter::time_of(std::int64_t step) const {
    return spec_.units.si ? double(step) * spec_.units.dt() : double(step);
}

void RunWriter::append(CsvLog& log, const std::string& header, const std::string& row) {
    if (log.text.empty()) log.text = header;
    log.text += row;
    log.dirty = true;
    const auto now = std::chrono::steady_clock::now();
    if (log.written.empty() || std::chrono::duration<double>(now - log.at).count() >= csv_rewrite_seconds) flush(log);
}

void RunWriter::write_forces(std::int64_t step, const std::vector<std::array<double, 3>>& forces) {
    if (!lead_) return;  // every rank holds the same reduced forces; rank 0 writes them
    const auto& names = spec_.forces.obstacles;
    std::string header = "step,time";
    for (const auto& name : names)
        for (const char* column : {".Fx", ".Fy", ".Fz", ".C_d", ".C_l"}) header += ',' + csv_field(name + column);
    header += "\n";
    // Time: the step in lattice units (dt = 1), seconds in an SI case.
    std::string row = std::to_string(step) + ',' + csv_number(time_of(step));
    for (std::size_t k = 0; k < forces.size() && k < names.size(); ++k) {
        const auto c = coefficients(spec_.forces, forces[k]);
        for (double v : {forces[k][0], forces[k][1], forces[k][2], c[0], c[1]}) row += ',' + csv_number(v);
    }
    append(forces_, header, row + "\n");
}

void RunWriter::write_permeability(std::int64_t step, const std::vector<double>& u) {
    const int axis = sim::darcy_axis(spec_);
    if (axis < 0) return;
    // Sums over this rank's owned nodes, then over the ranks (in rank order).
    double flow = 0, fluid = 0;
    for (std::size_t c = 0; c < kinds_.size(); ++c) {
        if (kinds_[c] == boundary::Solid) continue;
        fluid += 1;
        flow += u[3 * c + std::size_t(axis)];
    }
    const auto sums = parallel::Comm::world().sum(std::vector<double>{flow, fluid});
    flow = sums[0], fluid = sums[1];
    const double nodes = double(spec_.size[0]) * spec_.size[1] * spec_.size[2];
    const double nu = (spec_.model.tau - 0.5) / 3.0, g = spec_.body_force[std::size_t(axis)];
    permeability_ = {step, axis, fluid / nodes, flow / nodes, nu * (flow / nodes) / g};
    if (!lead_) return;
    const bool si = spec_.units.si;
    const double dx = si ? spec_.units.cell : 1.0;
    std::string header = "step,time,porosity,";
    header += si ? "superficial_velocity_m_per_s,permeability_m2\n" : "superficial_velocity,permeability\n";
    const double velocity = permeability_.velocity * (si ? spec_.units.velocity_scale() : 1.0);
    append(permeability_log_, header,
           std::to_string(step) + ',' + csv_number(time_of(step)) + ',' + csv_number(permeability_.porosity) + ',' +
               csv_number(velocity) + ',' + csv_number(permeability_.k * dx * dx) + "\n");
}

void RunWriter::write_multiphase(std::int64_t step, const std::vector<double>& rho, const std::vector<double>& u,
                                 const std::vector<double>& second) {
    const bool binary = spec_.multiphase.binary;
    sim::MultiphaseIntegrals m;
    if (sub_.decomposed()) {
        // The interface's gradient reaches across the subdomains: the whole box on rank 0
        // (5 doubles and a byte a cell, at each output).
        FieldSet mine;
        mine.size = sub_.owned_size;
        mine.density = rho, mine.velocity = u, mine.node_kind = kinds_;
        if (binary) mine.phi = second;
        const FieldSet whole = gather_slice(mine, sub_, -1, 0);
        if (!lead_) return;
        m = sim::multiphase_integrals(spec_, whole.node_kind, whole.density, whole.velocity,
                                      binary ? whole.phi : std::vector<double>{});
    } else {
        if (!lead_) return;
        m = sim::multiphase_integrals(spec_, kinds_, rho, u, binary ? second : std::vector<double>{});
    }
    const std::string header = std::string("step,time,") +
                               (spec_.multiphase.free_energy ? "mass,phi_sum" : binary ? "mass_a,mass_b" : "mass") +
                               ",kinetic_energy,max_speed,interface\n";
    std::string row = std::to_string(step) + ',' + csv_number(time_of(step)) + ',' + csv_number(m.mass_a);
    if (binary) row += ',' + csv_number(m.mass_b);
    row += ',' + csv_number(m.kinetic_energy) + ',' + csv_number(m.max_speed) + ',' + csv_number(m.interface) + "\n";
    append(multiphase_log_, header, row);
}

void RunWriter::write_probes(std::int64_t step, const std::vector<double>& values) {
    if (!lead_) return;  // every rank holds every probe's values
    const bool si = spec_.units.si, thermal = spec_.thermal.enabled;
    // A sample's fifth value (Engine::sample's theta): the temperature, B's density (two
    // Shan-Chen components, whose rho is A's) or the free energy's phi.
    const bool components = sim::two_components(spec_);
    const bool phi = sim::order_parameter(spec_);
    const bool second = thermal || components || phi;
    std::string header = "step,time";
    for (const auto& name : spec_.probes.names) {
        for (const char* column : {".ux", ".uy", ".uz"}) header += ',' + csv_field(name + column);
        header += ',' + csv_field(name + (si ? ".p" : components ? ".rho_a" : ".rho"));
        if (second) header += ',' + csv_field(name + (thermal ? ".T" : components ? ".rho_b" : ".phi"));
    }
    header += "\n";
    std::string row = std::to_string(step) + ',' + csv_number(time_of(step));
    const double cv = si ? spec_.units.velocity_scale() : 1.0;
    for (std::size_t k = 0; 5 * k + 4 < values.size(); ++k) {
        const double* v = &values[5 * k];
        for (int a = 1; a <= 3; ++a) row += ',' + csv_number(v[a] * cv);
        row += ',' + csv_number(si ? spec_.units.pressure_of(v[0]) : v[0]);
        if (second) row += ',' + csv_number(thermal ? v[4] + spec_.thermal.reference : v[4]);
    }
    append(probes_, header, row + "\n");
}

void RunWriter::write_event(std::int64_t step, const std::string& text) {
    if (!lead_) return;
    append(events_, "step,time,event\n", std::to_string(step) + ',' + csv_number(time_of(step)) + ',' +
                                            csv_field(text) + "\n");
    flush(events_);  // a change steered by hand is rare and worth keeping at once
}

void RunWriter::flush() {
    settle();
    flush(forces_);
    flush(probes_);
    flush(permeability_log_);
    flush(multiphase_log_);
    flush(events_);
}

void RunWriter::flush(CsvLog& log) {
    if (!log.dirty) return;
    const auto path = dir_.path / log.name;
    write_file_atomically(path, log.text);
    log.dirty = false;
    log.at = std::chrono::steady_clock::now();
    if (log.written.empty()) {
        log.written = path;
        files_.push_back(path);
    }
}

}  // namespace barracuda::io
