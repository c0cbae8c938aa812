// barracuda validate: runs validation cases of the registry (validation/case.hpp)
// in their short (CI, CPU) or full (paper resolution, GPU) variant and writes
// report.md, report.json and one PNG plot per case into the output directory.
#include <omp.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "apps/build_commit.hpp"
#include "apps/commands.hpp"
#include "apps/exit_codes.hpp"
#include "backend/device_info.hpp"
#include "common/error.hpp"
#include "io/output_dir.hpp"
#include "io/png_plot.hpp"
#include "parallel/comm.hpp"
#include "sim/simulation.hpp"
#include "validation/report.hpp"

namespace barracuda::apps {

namespace {

using validation::CaseReport;

std::string known_names() {
    std::string s;
    for (const auto& c : validation::cases()) s += (s.empty() ? "" : ", ") + c.name;
    return s;
}

void list_cases() {
    std::printf("%-24s %-10s %s\n", "case", "variants", "title");
    for (const auto& c : validation::cases()) {
        const char* v = c.full_only ? "full" : "short,full";
        std::printf("%-24s %-10s %s\n", c.name.c_str(), v, c.title.c_str());
    }
}

CaseReport run_case(const validation::Case& c, const validation::Context& ctx, const std::filesystem::path& dir) {
    CaseReport r;
    r.spec = &c;
    if (c.full_only && !ctx.full()) {
        r.message = "full variant only (--full)";
        return r;
    }
    if (ctx.past_deadline()) {  // cases without checkpoints would run to their end
        r.message = "not started: past --stop-after";
        return r;
    }
    const auto t0 = std::chrono::steady_clock::now();
    try {
        r.outcome = c.run(ctx);
        bool ok = !r.outcome.comparisons.empty();
        for (const auto& x : r.outcome.comparisons) ok = ok && x.pass();
        r.status = ok ? CaseReport::Status::Pass : CaseReport::Status::Fail;
    } catch (const validation::Stopped& e) {  // --stop-after: the checkpoint holds the run, no result yet
        r.status = CaseReport::Status::NotRun;
        r.message = e.what();
    } catch (const std::exception& e) {  // a divergence, a refused case, no memory: the case failed to run
        r.status = CaseReport::Status::Error;
        r.message = e.what();
    }
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.outcome.plot.empty()) {
        r.plot = c.name + ".png";
        io::write_png_plot(dir / r.plot, c.title, r.outcome.plot);
    }
    return r;
}

}  // namespace

int validate_command(const ValidateOptions& o) {
    if (o.list) {
        list_cases();
        return Ok;
    }
    // The cases read whole fields on one rank (profiles, norms, forces) and size
    // themselves for one GPU or the CPU; under several ranks each rank ran its own copy
    // into its own directory and cases that initialise from a closed form failed.
    if (const int ranks = parallel::Comm::world().size(); ranks > 1) {
        if (parallel::Comm::world().rank() == 0)
            std::cerr << "error: barracuda validate runs on one rank (" << ranks
                      << " here): its cases size themselves for one GPU or the CPU and compare whole fields; "
                         "run it without mpirun\n";
        return UsageError;
    }
    std::vector<const validation::Case*> chosen;
    for (const auto& name : o.names) {
        const auto* c = validation::find_case(name);
        if (!c) {
            std::cerr << "error: unknown validation case '" << name << "'; the cases are: " << known_names()
                      << " (barracuda validate --list describes them)\n";
            return UsageError;
        }
        chosen.push_back(c);
    }
    const bool all = chosen.empty();
    if (all)
        for (const auto& c : validation::cases()) chosen.push_back(&c);

    validation::Context ctx;
    ctx.variant = o.full ? validation::Variant::Full : validation::Variant::Short;
    ctx.checkpoints = o.checkpoints;
    if (o.stop_after > 0) {
        if (o.checkpoints.empty()) {
            std::cerr << "error: --stop-after " << o.stop_after << " needs --checkpoint DIR (where the run goes on from)\n";
            return UsageError;
        }
        ctx.deadline = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(o.stop_after));
    }
    try {
        ctx.backend = sim::resolve_backend(o.backend == "cpu"    ? sim::BackendChoice::Cpu
                                           : o.backend == "cuda" ? sim::BackendChoice::Cuda
                                                                 : sim::BackendChoice::Auto);
    } catch (const ResourceError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return NoResources;
    }
    const bool cuda = ctx.backend == sim::BackendChoice::Cuda;
    validation::ReportHeader h;
    h.variant = o.full ? "full" : "short";
    h.backend = cuda ? "cuda" : "cpu";
    h.device = cuda ? backend::cuda_devices().front().name : "CPU, " + std::to_string(omp_get_max_threads()) + " OpenMP threads";
    h.commit = BARRACUDA_COMMIT;
    h.command = o.command_line;

    io::OutputDirectory dir;
    try {
        dir = io::prepare_output_directory(o.out);
    } catch (const OutputError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return OutputFailed;
    }
    if (dir.renamed)
        std::cerr << "note: '" << o.out << "' holds earlier results; writing to '" << dir.path.string() << "' instead\n";
    std::cerr << "barracuda validate: " << chosen.size() << " case(s), " << h.variant << " variant, " << h.backend
              << " (" << h.device << ")\n";

    std::vector<CaseReport> reports;
    bool failed = false;
    try {
        for (const auto* c : chosen) {
            std::string current;
            ctx.log = [&](const std::string& line) {
                if (!o.quiet) std::cerr << "  " << c->name << ": " << line << "\n";
            };
            auto r = run_case(*c, ctx, dir.path);
            std::printf("%-24s %-8s %7.1f s", c->name.c_str(), validation::status_name(r.status), r.wall_seconds);
            for (const auto& x : r.outcome.comparisons)
                if (!x.pass()) std::printf("\n    failed: %s = %.4g (tolerance %.4g)", x.what.c_str(), x.error, x.tolerance);
            if (!r.message.empty()) std::printf("\n    %s", r.message.c_str());
            std::printf("\n");
            std::fflush(stdout);
            const bool bad = r.status == CaseReport::Status::Fail || r.status == CaseReport::Status::Error ||
                             (r.status == CaseReport::Status::NotRun && !all);
            failed = failed || bad;
            reports.push_back(std::move(r));
            validation::write_report(dir.path, h, reports);  // after each case: a long run keeps what it has
        }
    } catch (const OutputError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return OutputFailed;
    }
    std::printf("report: %s\n", (dir.path / "report.md").string().c_str());
    return failed ? ValidationFailed : Ok;
}

}  // namespace barracuda::apps
