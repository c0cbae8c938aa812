// barracuda bench: first the copy bandwidth of the device (a read+write kernel
// and memcpy), then, for each configuration of the cartesian product asked for
// (lattice x collision x precision x streaming x size), the fused
// stream-collide kernel on a periodic box of fluid (every cell does the full
// update): warm-up steps, then the median of timed repetitions as MLUPS, bytes
// moved per cell update, effective GB/s, % of the copy bandwidth, memory per
// cell and the largest grid that fits. A table, or one JSON document.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <new>
#include <omp.h>
#include <string>
#include <vector>

#include "apps/build_commit.hpp"
#include "apps/commands.hpp"
#include "io/json.hpp"
#include "apps/exit_codes.hpp"
#include "backend/bandwidth.hpp"
#include "backend/device_info.hpp"
#include "backend/engine.hpp"
#include "backend/offered.hpp"
#include "backend/tiled_engine.hpp"
#include "common/error.hpp"
#include "io/case_file.hpp"
#include "parallel/comm.hpp"
#include "parallel/decomposition.hpp"
#include "sim/simulation.hpp"
#include "sim/case_check.hpp"
#include "storage/pattern.hpp"
#include "storage/precision.hpp"

namespace barracuda::apps {

namespace {

struct Config {
    lattice::Kind lattice = lattice::Kind::D3Q19;
    physics::CollisionKind collision = physics::CollisionKind::BGK;
    storage::Precision precision = storage::Precision::FP32;
    storage::Pattern pattern = storage::Pattern::TwoCopy;
    lattice::CoupledKind scalar = lattice::CoupledKind::None;
    double smagorinsky = 0;
    int size = 0;
};

struct Result {
    Config config;
    bool skipped = false;
    bool failed = false;  // skipped because it failed while running (a CUDA error, an allocation)
    std::string reason;   // why it was skipped
    std::string engine;  // the engine's own description
    std::string note;    // e.g. the engine ran something else than asked for
    std::string initial_state;  // "sheared flow" (staged on the host) or "uniform flow" (filled on the device)
    std::int64_t cells = 0, steps = 0, warmup_steps = 0;
    std::vector<double> mlups_all;  // in the order measured
    double mlups = 0, bytes_per_cell = 0, gbps = 0, percent_of_copy = 0, memory_per_cell = 0;
    std::int64_t largest_cells = 0, largest_edge = 0;
    std::array<int, 3> dims{1, 1, 1};  // subdomains (MPI ranks) along each axis
    std::array<int, 3> box{0, 0, 0};   // the whole box
};

lattice::Kind lattice_of(const std::string& s) {
    if (s == "D2Q9") return lattice::Kind::D2Q9;
    if (s == "D3Q13") return lattice::Kind::D3Q13;
    if (s == "D3Q15") return lattice::Kind::D3Q15;
    if (s == "D3Q27") return lattice::Kind::D3Q27;
    return lattice::Kind::D3Q19;
}
physics::CollisionKind collision_of(const std::string& s) {
    return s == "trt"           ? physics::CollisionKind::TRT
           : s == "mrt"         ? physics::CollisionKind::MRT
           : s == "regularized" ? physics::CollisionKind::Regularized
           : s == "entropic"    ? physics::CollisionKind::Entropic
                                : physics::CollisionKind::BGK;
}
storage::Precision precision_of(const std::string& s) {
    return s == "fp64" ? storage::Precision::FP64 : s == "fp16" ? storage::Precision::FP16 : storage::Precision::FP32;
}
lattice::CoupledKind scalar_of(const std::string& s) {
    return s == "D2Q4"   ? lattice::CoupledKind::D2Q4
           : s == "D2Q5" ? lattice::CoupledKind::D2Q5
           : s == "D3Q6" ? lattice::CoupledKind::D3Q6
           : s == "D3Q7" ? lattice::CoupledKind::D3Q7
                         : lattice::CoupledKind::None;
}
storage::Pattern pattern_of(const std::string& s) {
    return s == "in-place" ? storage::Pattern::InPlace : storage::Pattern::TwoCopy;
}

int default_size(lattice::Kind l, bool cuda) {
    if (l == lattice::Kind::D2Q9) return cuda ? 4096 : 512;
    return cuda ? 256 : 64;
}

/// Nodes updated per step: n^2 or n^3, half of them on D3Q13 (one sub-lattice).
std::int64_t cells_of(lattice::Kind l, std::int64_t n) {
    return l == lattice::Kind::D2Q9 ? n * n : (lattice::stores_sublattice(l) ? n * n * n / 2 : n * n * n);
}

/// A configuration that failed while it ran: only what was asked for and why.
void failed_config(Result& r, const Config& c, const std::string& why) {
    r = Result{};
    r.config = c;
    r.cells = cells_of(c.lattice, c.size);
    r.skipped = r.failed = true;
    r.reason = why;
}

/// The largest edge e with e^2 (2D) or e^3 (3D) <= cells.
std::int64_t edge_of(lattice::Kind l, std::int64_t cells) {
    if (cells <= 0) return 0;
    const bool two_d = l == lattice::Kind::D2Q9;
    auto e = std::int64_t(two_d ? std::sqrt(double(cells)) : std::cbrt(double(cells)));
    while (e > 0 && cells_of(l, e) > cells) --e;
    while (cells_of(l, e + 1) <= cells) ++e;
    return e;
}

std::string format_bytes(double b) {
    char buf[64];
    if (b >= double(1LL << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", b / double(1LL << 30));
    else std::snprintf(buf, sizeof buf, "%.0f MiB", b / double(1LL << 20));
    return buf;
}

std::string format_count(double n) {
    char buf[32];
    if (n >= 1e9) std::snprintf(buf, sizeof buf, "%.2fG", n / 1e9);
    else if (n >= 1e6) std::snprintf(buf, sizeof buf, "%.1fM", n / 1e6);
    else if (n >= 1e3) std::snprintf(buf, sizeof buf, "%.1fk", n / 1e3);
    else std::snprintf(buf, sizeof buf, "%.0f", n);
    return buf;
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) != 0) continue;
        const auto colon = line.find(':');
        if (colon == std::string::npos) break;
        auto name = line.substr(colon + 1);
        name.erase(0, name.find_first_not_of(" \t"));
        return name;
    }
    return "CPU";
}

/// The median of the repetitions' MLUPS (the mean of the middle two for an even count).
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size();
    return m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
}

// Under mpirun: a periodic box split over the ranks (sim::engine_setup of a case),
// timed between barriers; MLUPS and GB/s count the whole box, %copy compares with
// the ranks' combined copy bandwidth.
void run_config_ranks(Result& r, const sim::BackendChoice backend, const BenchOptions& o, const double copy_gbps) {
    const Config& c = r.config;
    const auto& comm = parallel::Comm::world();
    const bool two_d = c.lattice == lattice::Kind::D2Q9;
    sim::CaseSpec spec;
    spec.model.lattice = c.lattice;
    spec.model.collision = c.collision;
    spec.model.precision = c.precision;
    spec.model.streaming = c.pattern;
    spec.model.tau = 0.6;
    spec.size = {c.size, c.size, two_d ? 1 : c.size};
    spec.periodic = {true, true, true};
    if (o.weak) {
        const auto d = parallel::automatic_dims(comm.size(), spec.size, two_d ? 2 : 3);
        for (std::size_t a = 0; a < 3; ++a) spec.size[a] *= d[a];
        spec.decomposition = d;
    }
    sim::fill_model_defaults(spec);
    const auto sub = sim::subdomain_of(spec, comm.rank(), comm.size());
    r.dims = sub.dims;
    r.box = spec.size;
    auto engine = backend == sim::BackendChoice::Cuda ? backend::make_cuda_engine(sim::engine_setup(spec, &sub))
                                                      : backend::make_cpu_engine(sim::engine_setup(spec, &sub));
    r.engine = engine->description();
    engine->initialize_uniform(1.0, {0.05, 0.02, two_d ? 0.0 : 0.01});
    r.initial_state = "uniform flow";
    r.cells = spec.stored_nodes();
    const double target_updates = (backend == sim::BackendChoice::Cuda ? 4e9 : 2e7) * comm.size();
    r.steps = o.steps > 0 ? o.steps : std::max<std::int64_t>(2, std::int64_t(target_updates / double(r.cells)));
    r.warmup_steps = std::max<std::int64_t>(2, r.steps / 4);
    engine->step(r.warmup_steps);
    for (int rep = 0; rep < o.repetitions; ++rep) {
        comm.barrier();
        const auto t0 = std::chrono::steady_clock::now();
        engine->step(r.steps);
        comm.barrier();
        const double sec = comm.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        r.mlups_all.push_back(double(r.cells) * double(r.steps) / sec / 1e6);
    }
    r.mlups = median(r.mlups_all);
    r.bytes_per_cell = double(engine->bytes_per_cell_update());
    r.gbps = r.mlups * r.bytes_per_cell / 1e3;
    r.percent_of_copy = copy_gbps > 0 ? 100.0 * r.gbps / (copy_gbps * comm.size()) : 0.0;
    r.memory_per_cell = double(engine->memory_bytes()) / double(engine->cells());
}

void run_config(Result& r, const sim::BackendChoice backend, const BenchOptions& o, const double copy_gbps) {
    if (parallel::Comm::world().size() > 1) return run_config_ranks(r, backend, o, copy_gbps);
    const Config& c = r.config;
    const bool cuda = backend == sim::BackendChoice::Cuda;
    const int n = c.size;
    backend::EngineSetup s;
    s.lattice = c.lattice;
    s.collision = c.collision;
    s.precision = c.precision;
    s.pattern = c.pattern;
    s.smagorinsky = c.smagorinsky;
    // A coupled temperature does its whole work on a periodic box too: a buoyancy acts on
    // every cell (theta starts at 1 below, so the force is never zero).
    s.scalar = c.scalar;
    s.thermal.diffusivity = 0.02;
    s.thermal.lambda = 3.0 / 16.0;
    s.thermal.buoyancy[1] = 1e-6;
    s.thermal.initial = 1.0;
    const bool two_d = s.lattice == lattice::Kind::D2Q9;
    s.grid = {{n, n, two_d ? 1 : n}, {true, true, true}, lattice::stores_sublattice(s.lattice)};
    for (int f = 0; f < 6; ++f) s.faces.type[f] = boundary::FaceType::Periodic;
    s.node_kind.assign(s.grid.cells(), boundary::Fluid);
    s.tau = 0.6;
    {  // the rates a case file would get by default (they do not change the work a cell)
        sim::CaseSpec rates;
        rates.model.lattice = s.lattice;
        rates.model.tau = s.tau;
        sim::fill_model_defaults(rates);
        const sim::MrtRates m = sim::mrt_rates(rates.model);
        s.mrt = {1.0 / s.tau, m.s_e, m.s_eps, m.s_q, m.s_pi, m.s_m};
    }
    auto engine = cuda ? backend::make_cuda_engine(s) : backend::make_cpu_engine(s);
    r.engine = engine->description();
    const std::string want_precision = storage::name_of(c.precision), want_pattern = storage::name_of(c.pattern);
    if (r.engine.find(want_precision) == std::string::npos || r.engine.find(want_pattern) == std::string::npos)
        r.note = "asked for " + want_precision + " " + want_pattern + ", the engine reports \"" + r.engine + "\"";

    // A non-trivial state (never time on zeros): a sheared flow with density ripples,
    // staged on the host; grids too large to stage start from a uniform flow filled
    // on the device (the same arithmetic per cell update).
    const auto cells = s.grid.cells();
    if (cells <= (std::int64_t(1) << 28)) {
        std::vector<double> rho(cells), u(3 * cells);
        for (std::int64_t i = 0; i < cells; ++i) {
            const double y = double((i / s.grid.row()) % n) / n;
            rho[i] = 1.0 + 0.01 * std::sin(6.283185307179586 * y);
            u[3 * i] = 0.05 * std::sin(6.283185307179586 * y);
            u[3 * i + 1] = 0.02;
            u[3 * i + 2] = two_d ? 0.0 : 0.01;
        }
        engine->initialize(rho, u);
        r.initial_state = "sheared flow";
    } else {
        engine->initialize_uniform(1.0, {0.05, 0.02, two_d ? 0.0 : 0.01});
        r.initial_state = "uniform flow";
    }

    r.cells = cells;
    const double target_updates = cuda ? 4e9 : 2e7;  // per repetition
    r.steps = o.steps > 0 ? o.steps : std::max<std::int64_t>(2, std::int64_t(target_updates / double(cells)));
    r.warmup_steps = std::max<std::int64_t>(2, r.steps / 4);
    if (c.pattern == storage::Pattern::InPlace) {  // even and odd steps differ: time whole pairs
        r.warmup_steps += r.warmup_steps % 2;
        if (o.steps <= 0) r.steps += r.steps % 2;
    }
    engine->step(r.warmup_steps);
    for (int rep = 0; rep < o.repetitions; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        engine->step(r.steps);  // returns after the device finished
        const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        r.mlups_all.push_back(double(cells) * double(r.steps) / sec / 1e6);
    }
    r.mlups = median(r.mlups_all);
    r.bytes_per_cell = double(engine->bytes_per_cell_update());
    r.gbps = r.mlups * r.bytes_per_cell / 1e3;
    r.percent_of_copy = copy_gbps > 0 ? 100.0 * r.gbps / copy_gbps : 0.0;
    r.memory_per_cell = double(engine->memory_bytes()) / double(cells);
}

// ---- JSON -------------------------------------------------------------------------------------------

using io::json_string;
// bench's JSON keeps six significant digits.
std::string json_number(double v) { return io::json_number(v, 6); }

std::string json_int(std::int64_t v) { return std::to_string(v); }

struct Header {
    std::string device, backend, memory_source;
    std::int64_t available_memory = 0;
    backend::CopyBandwidth copy;
};

void print_json(const Header& h, const BenchOptions& o, const std::vector<Result>& results) {
    std::string j = "{\n";
    j += "  \"device\": " + json_string(h.device) + ",\n";
    j += "  \"backend\": " + json_string(h.backend) + ",\n";
    j += "  \"commit\": " + json_string(BARRACUDA_COMMIT) + ",\n";
    j += "  \"version\": " + json_string(BARRACUDA_VERSION) + ",\n";
    j += "  \"command\": " + json_string(o.command_line) + ",\n";
    j += "  \"repetitions\": " + json_int(o.repetitions) + ",\n";
    const auto& comm = parallel::Comm::world();
    j += "  \"ranks\": " + json_int(comm.size()) + ",\n";
    j += "  \"scaling\": " + json_string(comm.size() == 1 ? "single" : o.weak ? "weak" : "strong") + ",\n";
    j += "  \"mpi\": " + json_string(comm.library()) + ",\n";
    j += "  \"cuda_aware_mpi\": " + std::string(comm.cuda_aware() ? "true" : "false") + ",\n";
    j += "  \"available_memory_bytes\": " + json_int(h.available_memory) + ",\n";
    j += "  \"available_memory_source\": " + json_string(h.memory_source) + ",\n";
    j += "  \"copy_bandwidth\": {\n";
    j += "    \"kernel_gbps\": " + json_number(h.copy.kernel_gbps) + ",\n";
    j += "    \"memcpy_gbps\": " + json_number(h.copy.memcpy_gbps) + ",\n";
    j += "    \"kernel_best_gbps\": " + json_number(h.copy.kernel_best_gbps) + ",\n";
    j += "    \"memcpy_best_gbps\": " + json_number(h.copy.memcpy_best_gbps) + ",\n";
    j += "    \"bytes\": " + json_int(h.copy.bytes) + ",\n";
    j += "    \"repetitions\": " + json_int(h.copy.repetitions) + ",\n";
    j += "    \"kernel_method\": " + json_string(h.copy.kernel_method) + ",\n";
    j += "    \"memcpy_method\": " + json_string(h.copy.memcpy_method) + ",\n";
    j += "    \"counts\": \"read + write bytes: 2 * bytes / time, median of the repetitions\",\n";
    j += "    \"percent_of_copy_uses\": \"kernel_gbps\"\n";
    j += "  },\n";
    j += "  \"results\": [";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const auto& r = results[i];
        const auto& c = r.config;
        j += i ? ",\n    {" : "\n    {";
        j += "\"lattice\": " + json_string(std::string(lattice::name_of(c.lattice)));
        j += ", \"collision\": " + json_string(physics::name_of(c.collision));
        j += ", \"precision\": " + json_string(storage::name_of(c.precision));
        j += ", \"streaming\": " + json_string(storage::name_of(c.pattern));
        j += ", \"scalar\": " + json_string(std::string(lattice::name_of(c.scalar)));
        j += ", \"smagorinsky\": " + json_number(c.smagorinsky);
        j += ", \"size\": " + json_int(c.size);
        j += ", \"cells\": " + json_int(r.cells);
        if (r.box[0] > 0) {
            j += ", \"box\": [" + json_int(r.box[0]) + ", " + json_int(r.box[1]) + ", " + json_int(r.box[2]) + "]";
            j += ", \"decomposition\": [" + json_int(r.dims[0]) + ", " + json_int(r.dims[1]) + ", " + json_int(r.dims[2]) + "]";
        }
        j += ", \"skipped\": " + std::string(r.skipped ? "true" : "false");
        if (r.failed) j += ", \"failed\": true";
        if (r.skipped) {
            j += ", \"reason\": " + json_string(r.reason);
        } else {
            j += ", \"engine\": " + json_string(r.engine);
            j += ", \"steps\": " + json_int(r.steps);
            j += ", \"warmup_steps\": " + json_int(r.warmup_steps);
            j += ", \"repetitions\": " + json_int(std::int64_t(r.mlups_all.size()));
            j += ", \"mlups\": " + json_number(r.mlups);
            j += ", \"mlups_all\": [";
            for (std::size_t k = 0; k < r.mlups_all.size(); ++k) j += (k ? ", " : "") + json_number(r.mlups_all[k]);
            j += "]";
            j += ", \"bytes_per_cell\": " + json_number(r.bytes_per_cell);
            j += ", \"effective_gbps\": " + json_number(r.gbps);
            j += ", \"percent_of_copy\": " + json_number(r.percent_of_copy);
            j += ", \"memory_bytes_per_cell\": " + json_number(r.memory_per_cell);
            if (!r.initial_state.empty()) j += ", \"initial_state\": " + json_string(r.initial_state);
            if (!r.note.empty()) j += ", \"note\": " + json_string(r.note);
        }
        if (r.largest_cells > 0) {
            j += ", \"largest_cells\": " + json_int(r.largest_cells);
            j += ", \"largest_edge\": " + json_int(r.largest_edge);
        }
        j += "}";
    }
    j += results.empty() ? "]\n}\n" : "\n  ]\n}\n";
    std::fwrite(j.data(), 1, j.size(), stdout);
}

/// The table's first lines, the configurations' and the cases' alike: device, commit,
/// command and the copy bandwidth measured.
void print_device_lines(const Header& h, const BenchOptions& o) {
    std::printf("barracuda bench | %s (%s) | commit %s\n", h.device.c_str(), h.backend.c_str(), BARRACUDA_COMMIT);
    std::printf("command: %s\n", o.command_line.c_str());
    std::printf("copy bandwidth (read+write bytes, 2 x %s buffers, median of %d): kernel %.1f GB/s, %s %.1f GB/s\n",
                format_bytes(double(h.copy.bytes)).c_str(), h.copy.repetitions, h.copy.kernel_gbps,
                h.backend == "cuda" ? "cudaMemcpy" : "memcpy", h.copy.memcpy_gbps);
}

void print_table_header(const Header& h, const BenchOptions& o) {
    print_device_lines(h, o);
    std::printf("%%copy = GB/s / kernel copy bandwidth; GB/s = MLUPS x B/cell; MLUPS: median of %d repetitions after "
                "warm-up\n",
                o.repetitions);
    std::printf("largest grid = %s available (%s) / mem B/cell\n", format_bytes(double(h.available_memory)).c_str(),
                h.memory_source.c_str());
    std::printf("%-7s %-9s %-9s %-9s %6s %11s %7s %10s %6s %8s %6s %10s  %s\n", "lattice", "collision", "precision",
                "streaming", "size", "cells", "steps", "MLUPS", "B/cell", "GB/s", "%copy", "mem B/cell",
                "largest grid");
    std::fflush(stdout);
}

/// One line of the table, printed as soon as the configuration is measured.
void print_table_row(const Result& r) {
    const auto& c = r.config;
    std::printf("%-7s %-9s %-9s %-9s %6d ", std::string(lattice::name_of(c.lattice)).c_str(),
                physics::name_of(c.collision), storage::name_of(c.precision), storage::name_of(c.pattern), c.size);
    if (r.skipped) {
        std::printf("%11lld  %s: %s\n", static_cast<long long>(r.cells), r.failed ? "failed" : "skipped",
                    r.reason.c_str());
    } else {
        const char* exp = c.lattice == lattice::Kind::D2Q9 ? "^2" : "^3";
        std::printf("%11lld %7lld %10.1f %6.0f %8.1f %6.1f %10.1f  %lld%s (%s cells)",
                    static_cast<long long>(r.cells), static_cast<long long>(r.steps), r.mlups, r.bytes_per_cell,
                    r.gbps, r.percent_of_copy, r.memory_per_cell, static_cast<long long>(r.largest_edge), exp,
                    format_count(double(r.largest_cells)).c_str());
        if (r.box[0] > 0)
            std::printf("  box %dx%dx%d as [%d, %d, %d]", r.box[0], r.box[1], r.box[2], r.dims[0], r.dims[1], r.dims[2]);
        if (c.scalar != lattice::CoupledKind::None) std::printf("  + %s", std::string(lattice::name_of(c.scalar)).c_str());
        if (c.smagorinsky > 0) std::printf("  LES C %.2f", c.smagorinsky);
        std::printf("\n");
    }
    std::fflush(stdout);
}

// ---- Cases (--case FILE) ------------------------------------------------------------------------------

/// A case's own engine, stepped as a run steps it (time-dependent faces included, no
/// output, checks or monitors), and the same box without its boundaries and obstacles:
/// the case's MLUPS as a fraction of the bulk-only MLUPS it could reach (issue 20: cases
/// with obstacles and open faces against the same box's bulk speed).
struct CaseResult {
    std::string file, engine, bulk_note;
    backend::RecordForm form = backend::RecordForm::None;  // the records' form kept (GPU)
    std::int64_t cells = 0, fluid_cells = 0, steps = 0, warmup_steps = 0;
    std::vector<double> mlups_all, bulk_mlups_all;
    double mlups = 0, bulk_mlups = 0, bytes_per_cell = 0, gbps = 0, percent_of_copy = 0;
};

/// The median MLUPS of `repetitions` runs of `steps` steps after `warmup` (whole pairs of
/// steps for the in-place pattern, whose even and odd steps differ), over every rank.
double time_steps(sim::Simulation& s, std::int64_t cells, std::int64_t steps, std::int64_t warmup, int repetitions,
                  std::vector<double>& all) {
    const auto& comm = parallel::Comm::world();
    s.advance(warmup);
    for (int rep = 0; rep < repetitions; ++rep) {
        comm.barrier();
        const auto t0 = std::chrono::steady_clock::now();
        s.advance(steps);
        comm.barrier();
        const double sec = comm.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        all.push_back(double(cells) * double(steps) / sec / 1e6);
    }
    return median(all);
}

/// The case's box and model with every axis periodic (the 2D lattices' z as it is) and
/// no faces, obstacles, thermal faces or monitors: every cell a bulk cell.
sim::CaseSpec bulk_only(sim::CaseSpec s) {
    const bool two_d = s.size[2] == 1;
    for (int a = 0; a < (two_d ? 2 : 3); ++a) {
        s.periodic[std::size_t(a)] = true;
        for (int side = 0; side < 2; ++side) {
            s.faces[std::size_t(2 * a + side)] = boundary::FaceSpec{};
            s.faces[std::size_t(2 * a + side)].type = boundary::FaceType::Periodic;
            s.thermal.faces[std::size_t(2 * a + side)].reset();
            s.thermal.face_expressions[std::size_t(2 * a + side)].clear();
        }
    }
    s.obstacles.clear();
    s.forces = {};
    s.probes = {};
    s.average = {};
    s.decomposition = {0, 0, 0};
    return s;
}

double mflups(const CaseResult& r) { return r.cells > 0 ? r.mlups * double(r.fluid_cells) / double(r.cells) : 0.0; }

int bench_cases(const Header& h, sim::BackendChoice b, const BenchOptions& o) {
    const auto& comm = parallel::Comm::world();
    const bool lead = comm.rank() == 0, cuda = b == sim::BackendChoice::Cuda;
    if (lead && !o.json) {
        print_device_lines(h, o);
        std::printf("each case stepped as a run steps it (no output, checks or monitors); bulk only = the same box "
                    "and model, periodic, without faces and obstacles; MLUPS: median of %d repetitions\n",
                    o.repetitions);
        std::printf("MFLUPS: fluid node updates (MLUPS times the fluid share of the box; seed 001's figure for "
                    "sparse geometries)\n");
        std::printf("%-28s %11s %7s %10s %10s %6s %8s %6s %11s %7s  %s\n", "case", "cells", "steps", "MLUPS", "MFLUPS",
                    "B/cell", "GB/s", "%copy", "bulk only", "ratio", "engine");
        std::fflush(stdout);
    }
    std::vector<CaseResult> results;
    for (const auto& file : o.cases) {
        CaseResult r;
        r.file = file;
        const sim::CaseSpec spec = io::parse_case_file(file, o.overrides);
        r.cells = spec.stored_nodes();
        const double target_updates = (cuda ? 4e9 : 2e7) * comm.size();
        r.steps = o.steps > 0 ? o.steps : std::max<std::int64_t>(2, std::int64_t(target_updates / double(r.cells)));
        r.warmup_steps = std::max<std::int64_t>(2, r.steps / 4);
        if (spec.model.streaming == storage::Pattern::InPlace) r.steps += r.steps % 2, r.warmup_steps += r.warmup_steps % 2;
        {
            sim::Simulation s(spec, b);
            r.engine = s.engine().description();
            r.mlups = time_steps(s, r.cells, r.steps, r.warmup_steps, o.repetitions, r.mlups_all);
            r.bytes_per_cell = double(s.engine().bytes_per_cell_update());
            r.fluid_cells = s.observe_all(false).fluid_cells;
            r.form = s.engine().record_form_in_use();
            if (r.form != backend::RecordForm::None) r.engine += std::string(", records ") + backend::record_form_name(r.form);
        }
        r.gbps = r.mlups * r.bytes_per_cell / 1e3;
        r.percent_of_copy = h.copy.kernel_gbps > 0 ? 100.0 * r.gbps / (h.copy.kernel_gbps * comm.size()) : 0.0;
        try {
            sim::Simulation s(bulk_only(spec), b);
            r.bulk_mlups = time_steps(s, r.cells, r.steps, r.warmup_steps, o.repetitions, r.bulk_mlups_all);
        } catch (const CaseError& e) {
            r.bulk_note = std::string("bulk only not measured: ") + e.what();
        }
        if (lead && !o.json) {
            std::printf("%-28s %11lld %7lld %10.1f %10.1f %6.0f %8.1f %6.1f ", file.c_str(),
                        static_cast<long long>(r.cells), static_cast<long long>(r.steps), r.mlups, mflups(r),
                        r.bytes_per_cell, r.gbps, r.percent_of_copy);
            if (r.bulk_mlups > 0) std::printf("%11.1f %6.1f%%  %s\n", r.bulk_mlups, 100.0 * r.mlups / r.bulk_mlups, r.engine.c_str());
            else std::printf("%11s %7s  %s (%s)\n", "-", "-", r.engine.c_str(), r.bulk_note.c_str());
            std::fflush(stdout);
        }
        results.push_back(r);
    }
    if (lead && o.json) {
        const auto list = [](const std::vector<double>& v) {
            std::string t = "[";
            for (std::size_t k = 0; k < v.size(); ++k) t += (k ? ", " : "") + json_number(v[k]);
            return t + "]";
        };
        std::string j = "{\n";
        j += "  \"device\": " + json_string(h.device) + ",\n";
        j += "  \"backend\": " + json_string(h.backend) + ",\n";
        j += "  \"commit\": " + json_string(BARRACUDA_COMMIT) + ",\n";
        j += "  \"command\": " + json_string(o.command_line) + ",\n";
        j += "  \"ranks\": " + json_int(comm.size()) + ",\n";
        j += "  \"copy_bandwidth\": {\"kernel_gbps\": " + json_number(h.copy.kernel_gbps) + "},\n";
        j += "  \"cases\": [";
        for (std::size_t k = 0; k < results.size(); ++k) {
            const auto& r = results[k];
            j += std::string(k ? "," : "") + "\n    {\"case\": " + json_string(r.file) + ", \"engine\": " +
                 json_string(r.engine) + ", \"cells\": " + json_int(r.cells) + ", \"steps\": " + json_int(r.steps) +
                 ", \"warmup_steps\": " + json_int(r.warmup_steps) + ", \"mlups\": " + json_number(r.mlups) +
                 ", \"fluid_cells\": " + json_int(r.fluid_cells) + ", \"mflups\": " + json_number(mflups(r)) +
                 ", \"mlups_all\": " + list(r.mlups_all) + ", \"bytes_per_cell\": " + json_number(r.bytes_per_cell) +
                 ", \"gbps\": " + json_number(r.gbps) + ", \"percent_of_copy\": " + json_number(r.percent_of_copy) +
                 ", \"bulk_only_mlups\": " + (r.bulk_mlups > 0 ? json_number(r.bulk_mlups) : "null") +
                 ", \"bulk_only_mlups_all\": " + list(r.bulk_mlups_all) + ", \"ratio\": " +
                 (r.bulk_mlups > 0 ? json_number(r.mlups / r.bulk_mlups) : "null") +
                 (r.bulk_note.empty() ? "" : ", \"note\": " + json_string(r.bulk_note)) + "}";
        }
        j += "\n  ]\n}\n";
        std::fwrite(j.data(), 1, j.size(), stdout);
    }
    return Ok;
}

template <class T>
std::vector<T> or_default(const std::vector<T>& v, T d) {
    return v.empty() ? std::vector<T>{d} : v;
}

// ---- Sparse geometries (--sparse) -----------------------------------------------------------------

/// Seed 001's Table 6 set-up: random spheres of one diameter (geometry/sphere_pack.hpp)
/// in a periodic box at each porosity, driven by a body force, run with dense and with
/// sparse storage in the same process; the figure of merit is fluid node updates per
/// second (MFLUPS), against the dense box with no spheres (every node fluid).
int bench_sparse(const Header& h, sim::BackendChoice b, const BenchOptions& o) {
    const auto& comm = parallel::Comm::world();
    if (comm.size() > 1) throw CaseError("bench --sparse runs on one rank: it compares dense and sparse storage of each porosity on one device");
    const bool cuda = b == sim::BackendChoice::Cuda;
    const int n = o.sizes.empty() ? (cuda ? 192 : 48) : o.sizes.front();
    const std::string precision = o.precisions.empty() ? "fp32" : o.precisions.front();
    const std::string streaming = o.streamings.empty() ? "two-copy" : o.streamings.front();
    const std::string collision = o.collisions.empty() ? "bgk" : o.collisions.front();
    const std::string lat = o.lattices.empty() ? "D3Q19" : o.lattices.front();
    const std::vector<double> porosities = o.porosities.empty() ? std::vector<double>{0.1, 0.3, 0.5, 0.7, 0.9} : o.porosities;
    const auto text = [&](double porosity, const char* storage) {
        std::string t = "[model]\nlattice = \"" + lat + "\"\ncollision = \"" + collision + "\"\nprecision = \"" +
                        precision + "\"\nstreaming = \"" + streaming + "\"\nviscosity = 0.1\n[domain]\nsize = [" +
                        std::to_string(n) + ", " + std::to_string(n) + ", " + std::to_string(n) +
                        "]\nperiodic = [true, true, true]\nstorage = \"" + storage + "\"\n[force]\nbody = [1e-7, 0, 0]\n";
        if (porosity < 1)
            t += "[[obstacle]]\nname = \"pack\"\nshape = \"sphere_pack\"\ndiameter = " + json_number(o.diameter) +
                 "\nporosity = " + json_number(porosity) + "\nseed = 1\n";
        return t + "[output]\nformats = []\n";
    };
    struct Row {
        double porosity = 1, mlups = 0, mflups = 0, utilisation = 0, bytes_per_fluid = 0;
        std::int64_t fluid = 0;
        std::string storage, engine;
    };
    const std::int64_t cells = std::int64_t(n) * n * n;
    const std::int64_t steps = o.steps > 0 ? o.steps : std::max<std::int64_t>(4, std::int64_t((cuda ? 4e9 : 2e7) / double(cells)));
    const auto measure = [&](double porosity, const char* storage) {
        Row r;
        r.porosity = porosity;
        r.storage = storage;
        const sim::CaseSpec spec = io::parse_case_string(text(porosity, storage));
        sim::Simulation s(spec, b);
        r.engine = s.engine().description();
        std::vector<double> all;
        std::int64_t warmup = std::max<std::int64_t>(2, steps / 4);
        warmup += warmup % 2;  // whole pairs of steps: the in-place pattern's even and odd steps differ
        r.mlups = time_steps(s, cells, steps + steps % 2, warmup, o.repetitions, all);
        r.fluid = s.observe_all(false).fluid_cells;
        r.mflups = r.mlups * double(r.fluid) / double(cells);
        r.bytes_per_fluid = double(s.engine().memory_bytes()) / double(r.fluid);
        // Dense: every node stored, so its utilisation is the porosity the run sees.
        const auto tiles = backend::tile_count_of(s.engine());
        r.utilisation = tiles ? tiles->utilisation() : double(r.fluid) / double(cells);
        return r;
    };
    // A box too large for dense storage (the point of sparse storage: issue 22's run of
    // 10^9 fluid nodes): the dense rows are left out with the memory check's reason.
    std::string dense_refused;
    const auto measure_dense = [&](double porosity) -> std::optional<Row> {
        if (!dense_refused.empty()) return std::nullopt;
        try {
            return measure(porosity, "dense");
        } catch (const ResourceError& e) {
            dense_refused = e.what();
            if (!o.json) std::printf("dense storage does not fit: %s\n", e.what());
            return std::nullopt;
        }
    };
    std::vector<Row> rows;
    if (!o.json) {
        print_device_lines(h, o);
        std::printf("seed 001 Table 6: spheres of diameter %g in a periodic %d^3 box, %s %s %s %s; MFLUPS: fluid node "
                    "updates per second; vs full: MFLUPS over the dense box without spheres; median of %d repetitions\n",
                    o.diameter, n, lat.c_str(), collision.c_str(), precision.c_str(), streaming.c_str(), o.repetitions);
        std::printf("%9s %7s %10s %10s %7s %8s %8s %8s %8s\n", "porosity", "storage", "MLUPS", "MFLUPS", "eta_t",
                    "B/fluid", "%copy", "vs full", "vs dense");
    }
    const std::optional<Row> full = measure_dense(1.0);
    const double bytes_per_update = double(storage::bytes_per_cell_update(lattice::velocities_of(lattice_of(lat)),
                                                                          precision == "fp64"   ? storage::Precision::FP64
                                                                          : precision == "fp16" ? storage::Precision::FP16
                                                                                                : storage::Precision::FP32));
    for (double porosity : porosities) {
        const std::optional<Row> dense = measure_dense(porosity);
        const Row sparse = measure(porosity, "sparse");
        for (const Row* r : {dense ? &*dense : nullptr, &sparse}) {
            if (!r) continue;
            const double percent = h.copy.kernel_gbps > 0 ? 100.0 * r->mflups * bytes_per_update / 1e3 / h.copy.kernel_gbps : 0;
            if (!o.json) {
                std::printf("%9.2f %7s %10.1f %10.1f %7.3f %8.1f %8.1f ", r->porosity, r->storage.c_str(), r->mlups,
                            r->mflups, r->utilisation, r->bytes_per_fluid, percent);
                if (full && dense) std::printf("%8.3f %8.3f\n", r->mflups / full->mlups, r->mflups / dense->mflups);
                else std::printf("%8s %8s  (%lld fluid nodes)\n", "-", "-", static_cast<long long>(r->fluid));
            }
            rows.push_back(*r);
        }
        std::fflush(stdout);
    }
    if (o.json) {
        std::string j = "{\n  \"device\": " + json_string(h.device) + ",\n  \"commit\": " + json_string(BARRACUDA_COMMIT) +
                        ",\n  \"command\": " + json_string(o.command_line) + ",\n  \"copy_bandwidth\": {\"kernel_gbps\": " +
                        json_number(h.copy.kernel_gbps) + "},\n  \"size\": " + json_int(n) + ",\n  \"diameter\": " +
                        json_number(o.diameter) + ",\n  \"full_dense_mlups\": " + (full ? json_number(full->mlups) : "null") +
                        (dense_refused.empty() ? "" : ",\n  \"dense_refused\": " + json_string(dense_refused)) +
                        ",\n  \"rows\": [";
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const Row& r = rows[k];
            j += std::string(k ? "," : "") + "\n    {\"porosity\": " + json_number(r.porosity) + ", \"storage\": " +
                 json_string(r.storage) + ", \"mlups\": " + json_number(r.mlups) + ", \"mflups\": " + json_number(r.mflups) +
                 ", \"fluid_nodes\": " + json_int(r.fluid) + ", \"utilisation\": " + json_number(r.utilisation) +
                 ", \"bytes_per_fluid_node\": " + json_number(r.bytes_per_fluid) + ", \"engine\": " + json_string(r.engine) + "}";
        }
        std::printf("%s\n  ]\n}\n", j.c_str());
    }
    return Ok;
}

}  // namespace

int bench_command(const BenchOptions& o) {
    try {
        sim::BackendChoice b = o.backend == "cpu"    ? sim::BackendChoice::Cpu
                               : o.backend == "cuda" ? sim::BackendChoice::Cuda
                                                     : sim::BackendChoice::Auto;
        b = sim::resolve_backend(b);
        const bool cuda = b == sim::BackendChoice::Cuda;
        const auto& comm = parallel::Comm::world();
        const bool lead = comm.rank() == 0;
        if (cuda) {  // one GPU per rank of a node
            if (comm.local_size() > backend::cuda_device_count())
                throw ResourceError("bench: " + std::to_string(comm.local_size()) + " ranks on this node but " +
                                    std::to_string(backend::cuda_device_count()) + " GPU(s); run one rank per GPU");
            backend::use_cuda_device(comm.local_rank());
        }

        Header h;
        h.backend = cuda ? "cuda" : "cpu";
        if (cuda) {
            h.device = backend::cuda_devices().front().name;
        } else {
            h.device = cpu_model() + ", OpenMP " + std::to_string(omp_get_max_threads()) + " threads";
        }
        h.copy = backend::measure_copy_bandwidth(cuda, o.copy_bytes > 0 ? o.copy_bytes : backend::default_copy_bytes(cuda));
        // After the copy buffers are gone: what an engine could have.
        h.available_memory = sim::available_memory(b);
        h.memory_source = cuda ? "free GPU memory" : "host MemAvailable";
        if (!o.cases.empty()) return bench_cases(h, b, o);
        if (o.sparse) return bench_sparse(h, b, o);

        std::vector<Config> configs;
        for (const auto& l : or_default(o.lattices, std::string("D3Q19")))
            for (const auto& col : or_default(o.collisions, std::string(lattice_of(l) == lattice::Kind::D3Q13 ? "mrt" : "bgk")))
                for (const auto& p : or_default(o.precisions, std::string("fp32")))
                    for (const auto& st : or_default(o.streamings, std::string("two-copy")))
                        for (const auto& x : or_default(o.scalars, std::string("none")))
                            for (const double les : or_default(o.smagorinsky, 0.0)) {
                                Config c;
                                c.lattice = lattice_of(l);
                                c.collision = collision_of(col);
                                c.precision = precision_of(p);
                                c.pattern = pattern_of(st);
                                c.scalar = scalar_of(x);
                                c.smagorinsky = les;
                                for (int n : or_default(o.sizes, default_size(c.lattice, cuda))) {
                                    c.size = n;
                                    configs.push_back(c);
                                }
                            }

        if (!o.json && lead) print_table_header(h, o);
        std::vector<Result> results;
        int ran = 0, refused = 0, too_big = 0, failed = 0;
        for (const auto& c : configs) {
            Result r;
            r.config = c;
            const int q = lattice::velocities_of(c.lattice);
            const std::int64_t per_cell =
                storage::memory_bytes_per_cell(q + lattice::second_velocities(c.scalar, q), c.precision, c.pattern);
            r.largest_cells = h.available_memory / per_cell * (o.weak ? 1 : comm.size());
            r.largest_edge = edge_of(c.lattice, r.largest_cells);
            // The box's cells in floating point first: an edge of 2^21 has 2^63 cells in 3D,
            // past int64 (issue 21: a wrapped count, then std::length_error).
            const double e = double(c.size), cells = c.lattice == lattice::Kind::D2Q9 ? e * e : e * e * e;
            const bool fits = cells * double(per_cell) <= double(h.available_memory) * (o.weak ? 1 : comm.size());
            r.cells = fits ? cells_of(c.lattice, c.size) : 0;
            backend::EngineSetup probe;
            probe.lattice = c.lattice;
            probe.collision = c.collision;
            probe.precision = c.precision;
            probe.pattern = c.pattern;
            probe.scalar = c.scalar;
            probe.smagorinsky = c.smagorinsky;
            probe.grid.sublattice = lattice::stores_sublattice(c.lattice);
            try {
                auto request = backend::request_of(probe);
                request.several_ranks = comm.size() > 1;
                if (auto why = backend::refusal(request); !why.empty())
                    throw CaseError(why.substr(0, why.find('\n')));  // the reason; `barracuda info` has the table
                if (cuda && !backend::cuda_engine_built(request.config))
                    throw CaseError("not in this binary (built with a subset of the CUDA engines: BARRACUDA_CUDA_UNITS)");
                if (!fits || r.cells > r.largest_cells) {
                    r.skipped = true;
                    r.reason = "--size " + std::to_string(c.size) + " needs " +
                               format_bytes(double(per_cell) * cells / (o.weak ? 1 : comm.size())) +
                               (comm.size() > 1 ? " per rank, " : ", ") + format_bytes(double(h.available_memory)) +
                               " available (" + h.memory_source + "); the largest that fits: --size " +
                               std::to_string(r.largest_edge);
                    ++too_big;
                } else {
                    run_config(r, b, o, h.copy.kernel_gbps);
                    ++ran;
                }
            } catch (const CaseError& e) {
                r.skipped = true;
                r.reason = e.what();
                r.largest_cells = r.largest_edge = 0;
                ++refused;
            } catch (const ResourceError& e) {  // a CUDA error, an allocation the estimate did not foresee
                failed_config(r, c, e.what());
                ++failed;
            } catch (const std::bad_alloc&) {
                failed_config(r, c, "out of host memory");
                ++failed;
            }
            if (!r.note.empty() && lead) std::cerr << "warning: " << r.note << "\n";
            if (!o.json && lead) print_table_row(r);
            results.push_back(r);
        }
        if (o.json && lead) print_json(h, o, results);
        if (failed > 0) {
            std::cerr << "error: " << failed << " of the " << configs.size()
                      << " configuration(s) failed (marked failed in the output)\n";
            return NoResources;
        }
        if (ran == 0) {
            std::cerr << "error: none of the " << configs.size() << " configuration(s) could be run (" << refused
                      << " not offered, " << too_big << " too large for the memory)";
            if (!results.empty()) std::cerr << "; the first: " << results.front().reason;
            std::cerr << "\n";
            return too_big > 0 ? NoResources : CaseInvalid;
        }
        return Ok;
    } catch (const CaseError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return CaseInvalid;
    } catch (const ResourceError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return NoResources;
    }
}

}  // namespace barracuda::apps
