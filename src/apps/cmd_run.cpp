// barracuda run: parse and check the case (before anything is allocated),
// pick the backend, run with a live progress line, print a summary.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <iostream>

#include "apps/commands.hpp"
#include "apps/exit_codes.hpp"
#include "common/error.hpp"
#include "io/case_file.hpp"
#include "io/run_checkpoint.hpp"
#include "io/run_writer.hpp"
#include "parallel/comm.hpp"
#include "sim/simulation.hpp"
#ifdef BARRACUDA_HAVE_SERVE
#include "live/server.hpp"
#include "live/session.hpp"
#endif

namespace barracuda::apps {

namespace {

std::string format_duration(double s) {
    char b[32];
    if (s < 60) std::snprintf(b, sizeof b, "%.0f s", s);
    else if (s < 3600) std::snprintf(b, sizeof b, "%dm%02ds", int(s) / 60, int(s) % 60);
    else std::snprintf(b, sizeof b, "%dh%02dm", int(s) / 3600, (int(s) % 3600) / 60);
    return b;
}

/// One live line on a terminal; a line every few seconds otherwise (logs, CI).
class ProgressLine {
public:
    explicit ProgressLine(bool quiet) : quiet_(quiet), tty_(isatty(STDERR_FILENO)) {}
    void operator()(const sim::Progress& p) {
        if (quiet_) return;
        const auto now = std::chrono::steady_clock::now();
        const bool last = p.step == p.total;
        if (!tty_ && !last && now - last_print_ < std::chrono::seconds(5)) return;
        last_print_ = now;
        char si[96] = "";
        if (p.simulated_seconds > 0)
            std::snprintf(si, sizeof si, "  t = %.4g s  %.1fx real time", p.simulated_seconds, p.realtime_factor);
        std::fprintf(stderr, "%sstep %lld/%lld%s  %.1f MLUPS  ETA %s  max|u| %.4g  mean rho %.7f%s", tty_ ? "\r\033[K" : "",
                     static_cast<long long>(p.step), static_cast<long long>(p.total), si, p.mlups,
                     format_duration(p.eta_seconds).c_str(), p.u_max, p.mean_density, tty_ ? "" : "\n");
        std::fflush(stderr);
        printed_ = true;
    }
    void finish() {
        if (printed_ && tty_) std::fprintf(stderr, "\n");
    }

private:
    bool quiet_, tty_, printed_ = false;
    std::chrono::steady_clock::time_point last_print_{};
};

// SIGINT and SIGTERM (Ctrl-C, a batch scheduler's time limit) ask the run to stop:
// it finishes the chunk of steps under way (about 0.2 s), saves a checkpoint and
// exits with code Stopped. A second signal ends the process at once.
volatile std::sig_atomic_t stop_signal = 0;

extern "C" void on_stop_signal(int sig) {
    if (stop_signal != 0) {  // the second one: at once, as if no handler were there
        std::signal(sig, SIG_DFL);
        std::raise(sig);
        return;
    }
    stop_signal = sig;
    static const char note[] = "\nbarracuda: stopping after the current steps and saving a checkpoint "
                               "(send the signal again to stop at once)\n";
    [[maybe_unused]] const auto n = ::write(STDERR_FILENO, note, sizeof note - 1);
}

void install_stop_handlers() {
    struct sigaction a {};
    a.sa_handler = on_stop_signal;
    // Each handler blocks the other signal: INT and TERM sent back to back would
    // otherwise both enter the handler before either marked the stop, and both count
    // as the first (an orderly stop instead of the second signal's kill; seen in CI).
    sigemptyset(&a.sa_mask);
    sigaddset(&a.sa_mask, SIGINT);
    sigaddset(&a.sa_mask, SIGTERM);
    a.sa_flags = SA_RESTART;
    sigaction(SIGINT, &a, nullptr);
    sigaction(SIGTERM, &a, nullptr);
}

sim::BackendChoice parse_backend(const std::string& s, sim::BackendChoice fallback) {
    if (s == "cpu") return sim::BackendChoice::Cpu;
    if (s == "cuda") return sim::BackendChoice::Cuda;
    if (s == "auto") return sim::BackendChoice::Auto;
    return fallback;
}

}  // namespace

int run_command(const RunOptions& options) {
    const auto& comm = parallel::Comm::world();
    const bool lead = comm.rank() == 0;  // prints; every rank reaches the same verdicts
    sim::CaseSpec spec;
    std::string case_text;  // the case file's text, kept for the live view's steering
    try {
        if (!options.case_file.empty()) case_text = io::read_case_text(options.case_file);
        spec = options.case_file.empty() ? io::parse_case_string(io::default_case_toml(), options.overrides, "default case")
                                         : io::parse_case_string(case_text, options.overrides, options.case_file);
#ifdef BARRACUDA_HAVE_SERVE
        if (options.serve_given) live::check_servable(spec);
#endif
    } catch (const CaseError& e) {
        if (lead) std::cerr << "error: " << e.what() << "\n";
        return CaseInvalid;
    }
    // The live view's address is checked before anything is allocated.
#ifdef BARRACUDA_HAVE_SERVE
    live::ServeOptions serve;
    serve.public_bind = options.serve_public, serve.open_view = options.serve_open_view;
    if (options.serve_given) {
        try {
            live::parse_serve_address(options.serve, serve);
        } catch (const CaseError& e) {
            if (lead) std::cerr << "error: " << e.what() << "\n";
            return UsageError;
        }
    }
#else
    if (options.serve_given) {
        if (lead)
            std::cerr << "error: --serve: this binary was built without the live view (it needs cpp-httplib: apt "
                         "install libcpp-httplib-dev, or tools/install-deps.sh, then build again; docs/building.md)\n";
        return UsageError;
    }
#endif
    const auto backend = parse_backend(options.backend, spec.run.backend);
    const bool restart = !options.restart.empty();
    const std::string out_dir = restart ? options.restart : options.out.empty() ? spec.output.directory : options.out;
    if (restart && !std::filesystem::is_directory(out_dir)) {  // before anything is allocated
        if (lead) std::cerr << "error: --restart: '" << out_dir << "' is not a directory\n";
        return CaseInvalid;
    }
    ProgressLine progress(options.quiet || !lead);
    // An error only this rank sees: the others would wait for it in the next exchange.
    auto alone = [&](int code) {
        if (comm.size() > 1) comm.abort(code);
        return code;
    };
    try {
        // The output directory is claimed (created and locked, or for a restart locked)
        // once the case has passed every check and before the engine is allocated.
        io::OutputDirectory directory;
        sim::Simulation simulation(spec, backend, [&] {
            directory = restart ? io::claim_run_directory(out_dir) : io::claim_output_directory(out_dir);
        });
        const auto& sub = simulation.subdomain();
        if (lead)
            std::cerr << "barracuda: " << spec.title << " | " << simulation.engine().description() << " | "
                      << spec.size[0] << " x " << spec.size[1] << " x " << spec.size[2] << " cells, "
                      << spec.run.steps << " steps\n";
        if (lead && spec.units.si && !options.quiet) std::cerr << sim::conversion_table(spec);
        if (const sim::Wetting* w = simulation.wetting(); lead && w && !options.quiet) {
            char line[400], phases[120];
            if (spec.multiphase.binary)
                std::snprintf(phases, sizeof phases, "phases rho_A/rho_B %.4f/%.4f and %.4f/%.4f", w->phase_a[0],
                              w->phase_a[1], w->phase_b[0], w->phase_b[1]);
            else
                std::snprintf(phases, sizeof phases, "liquid %.4f, vapour %.4f", w->phase_a[0], w->phase_b[0]);
            std::snprintf(line, sizeof line,
                          "barracuda: contact_angle %g: walls and obstacles add %.5f to %s beyond the mirror image "
                          "(%s, interface tension %.5f; %d calibration drops of %lld steps in all, the last at "
                          "%.2f degrees)\n",
                          spec.multiphase.contact_angle, w->adhesion,
                          spec.multiphase.binary ? "psi_A and take it from psi_B" : "psi", phases, w->gamma, w->drops,
                          static_cast<long long>(w->steps), w->angle);
            std::cerr << line;
        }
        if (lead && comm.size() > 1) {
            std::cerr << "barracuda: " << comm.size() << " ranks as [" << sub.dims[0] << ", " << sub.dims[1] << ", "
                      << sub.dims[2] << "] subdomains of about " << sub.owned_size[0] << " x " << sub.owned_size[1]
                      << " x " << sub.owned_size[2] << " cells, " << comm.local_size() << " on this node; MPI: "
                      << comm.library();
            if (simulation.backend() == sim::BackendChoice::Cuda) {
                std::cerr << (comm.cuda_aware() ? "; CUDA-aware" : "; not CUDA-aware");
                std::cerr << (comm.all_same_node() ? "; halos GPU to GPU by CUDA IPC (MPI only signals)"
                              : comm.cuda_aware() ? "; halos from device memory"
                                                  : "; halos staged in pinned host memory");
            }
            std::cerr << "\n";
        }
        // A restart restores the state first: the earlier run's files are only
        // truncated to its checkpoint once the checkpoint is known to fit.
        if (restart || options.checkpoint_every > 0) {
            // A checkpoint passes through one host copy of the engine's state (from the GPU,
            // or besides the CPU engine's own arrays): refuse now rather than at the first one.
            const std::int64_t need = simulation.engine().memory_bytes();
            const std::int64_t have = sim::available_memory(sim::BackendChoice::Cpu);
            if (comm.any(need > have))
                throw ResourceError("checkpoints of this run need " + std::to_string(need >> 20) +
                                    " MiB of host memory per rank for a copy of the state; " +
                                    std::to_string(have >> 20) + " MiB are available");
        }
        std::optional<io::RunCheckpoints> checkpoints;
        io::RunCheckpoints::Resumed resumed;
        if (restart) {
            checkpoints.emplace(spec, sub, out_dir);
            resumed = checkpoints->restore(simulation);
            if (lead)
                std::cerr << "barracuda: going on from the checkpoint at step " << resumed.step << " ("
                          << resumed.file.string() << ")\n";
        }
        std::optional<io::RunWriter> writer_storage;
        if (restart) writer_storage.emplace(spec, std::move(directory), &sub, resumed.step);
        else writer_storage.emplace(spec, std::move(directory), &sub);
        io::RunWriter& writer = *writer_storage;
        if (lead && writer.directory().renamed)
            std::cerr << "note: '" << out_dir << "' holds an earlier run's results; writing to '"
                      << writer.directory().path.string() << "' instead\n";
        sim::CheckpointSchedule schedule;
        schedule.every = options.checkpoint_every > 0 ? options.checkpoint_every : resumed.every;
        schedule.earlier_force_samples = resumed.force_samples;
        // Periodic checkpoints when asked for; one where a signal stops the run in any case.
        if (!checkpoints) checkpoints.emplace(spec, sub, writer.directory().path);
        schedule.save = [&](std::int64_t samples) { checkpoints->save(simulation, samples, schedule.every); };
        install_stop_handlers();
        sim::OutputSink* sink = &writer;
        sim::ChunkControl control;
#ifdef BARRACUDA_HAVE_SERVE
        // The live view: every rank takes part in the session (slices, steering); rank 0
        // serves. Declared in this order so that the server stops before the session goes.
        std::optional<live::Session> session;
        std::optional<live::SessionSink> session_sink;
        std::unique_ptr<live::Server> server;
        if (options.serve_given) {
            // The case as it was read at the start: steering reads this text again with
            // its overrides, never the file, which may have been edited since.
            live::Session::Options so;
            so.case_text = case_text, so.source = options.case_file, so.overrides = options.overrides;
            so.stop_requested = [] { return stop_signal != 0; };
            session.emplace(simulation, &writer, so);
            session_sink.emplace(writer, *session);
            sink = &*session_sink;
            std::string failed;
            if (lead) {
                try {
                    server = std::make_unique<live::Server>(*session, serve);
                } catch (const ResourceError& e) {
                    failed = e.what();
                }
            }
            if (comm.any(!failed.empty())) throw ResourceError(lead ? failed : "--serve failed on rank 0");
            if (lead) {
                std::cerr << "barracuda: live view at " << server->url() << "\n";
                if (!live::is_loopback(serve.host))
                    std::cerr << "barracuda: serving on " << serve.host
                              << " (--serve-public): anyone with the token can steer this run"
                              << (serve.open_view ? "; anyone who reaches the port can watch it" : "") << "\n";
            }
            control = session->control();
        }
#endif
        const bool controlled = static_cast<bool>(control.between);
        const auto r = simulation.run(sink, [&](const sim::Progress& p) { progress(p); }, schedule,
                                      [] { return stop_signal != 0; }, controlled ? &control : nullptr);
        progress.finish();
        if (r.stopped) {
            if (lead) {
                const char* name = stop_signal == SIGINT ? "SIGINT" : stop_signal == SIGTERM ? "SIGTERM" : "a signal";
                std::cerr << "barracuda: stopped by " << (stop_signal ? name : "another rank's signal") << " at step "
                          << r.steps << " of " << spec.run.steps << "; checkpoint "
                          << checkpoints->path().string()
                          << (comm.size() > 1 ? " (one per rank)" : "") << ", outputs up to step " << r.steps
                          << " in " << writer.directory().path.string() << "\n"
                          << "go on with: barracuda run "
                          << (options.case_file.empty() ? std::string() : options.case_file + " ")
                          << "--restart " << writer.directory().path.string() << "\n";
            }
            return Stopped;
        }
        if (!lead) return Ok;
        std::cout << "done: " << r.steps - resumed.step << " steps";
        if (restart) std::cout << " (from the checkpoint at step " << resumed.step << " to " << r.steps << ")";
        std::cout << (r.steady ? " (steady state reached)" : "") << " in " << format_duration(r.wall_seconds) << " ("
                  << r.wall_seconds << " s), " << r.mlups << " MLUPS";
        if (spec.units.si && r.wall_seconds > 0) {
            const double simulated = double(r.steps - resumed.step) * spec.units.dt();
            std::cout << "; " << simulated << " s simulated, " << simulated / r.wall_seconds << "x real time";
        }
        std::cout << "\n" << "max |u| = " << r.last.u_max << ", ";
        if (sim::two_components(spec))  // the observation's rho is A's density, theta B's
            std::cout << "density of A in [" << r.last.rho_min << ", " << r.last.rho_max << "], of B in ["
                      << r.last.theta_min << ", " << r.last.theta_max << "], mean over the fluid "
                      << r.last.mean_density() + r.last.mean_theta() << " (A " << r.last.mean_density() << ", B "
                      << r.last.mean_theta() << ")";
        else
            std::cout << "density in [" << r.last.rho_min << ", " << r.last.rho_max << "], mean over the fluid "
                      << r.last.mean_density();
        if (sim::order_parameter(spec))
            std::cout << "; phi in [" << r.last.theta_min << ", " << r.last.theta_max << "]";
        if (spec.thermal.enabled)
            std::cout << "; temperature in [" << r.last.theta_min + spec.thermal.reference << ", "
                      << r.last.theta_max + spec.thermal.reference << "]";
        std::cout << "\n"
                  << "output: " << writer.directory().path.string() << " ("
                  << (comm.size() > 1 ? "rank 0: " : "") << writer.files().size()
                  << " files; open fields.pvd in ParaView";
        if (!writer.last_png().empty()) std::cout << ", quick look: " << writer.last_png().filename().string();
        std::cout << ")\n";
        if (!writer.forces_csv().empty()) {
            const auto& f = spec.forces;
            std::cout << "forces: " << writer.forces_csv().filename().string() << ", " << r.force_samples
                      << " samples every " << sim::force_interval(spec) << " steps (U = " << f.reference_velocity
                      << ", A = " << f.reference_area << "); at step " << r.forces_step << ":";
            for (std::size_t k = 0; k < r.forces.size(); ++k) {
                const auto c = io::RunWriter::coefficients(f, r.forces[k]);
                std::cout << (k ? "," : "") << " \"" << f.obstacles[k] << "\" C_d = " << c[0] << ", C_l = " << c[1];
            }
            std::cout << "\n";
        }
        if (const auto& k = writer.last_permeability(); k.step >= 0) {
            std::cout << "permeability (Darcy, along " << "xyz"[k.axis] << ", permeability.csv): k = " << k.k << " cells^2";
            if (spec.units.si) std::cout << " = " << k.k * spec.units.cell * spec.units.cell << " m^2";
            std::cout << " at step " << k.step << "; superficial velocity " << k.velocity << ", porosity " << k.porosity
                      << "\n";
        }
        if (!writer.probes_csv().empty())
            std::cout << "probes: " << writer.probes_csv().filename().string() << ", " << spec.probes.points.size()
                      << " point(s) every " << sim::probe_interval(spec) << " steps\n";
        if (r.mean_samples > 0) {
            const auto& a = spec.average;
            std::cout << "means: " << (comm.size() > 1 ? "mean.pvti" : "mean.vti") << " over " << r.mean_samples
                      << " samples from step " << a.from;
            if (spec.units.si) std::cout << " (" << double(a.from) * spec.units.dt() << " s)";
            std::cout << (a.section_axis >= 0 ? "; the section in mean_section.csv and mean_section_*.png" : "")
                      << (a.profiles.empty() ? "" : ", profiles in mean_profiles.png") << "\n";
            const auto& b = writer.last_heat_balance();
            if (!b.rows.empty()) {
                const char* unit = spec.units.si ? " W" : "";
                std::cout << "heat balance over the window (heat_balance.csv): in " << b.in << unit << ", out " << b.out
                          << unit << ", storage " << b.storage << unit;
                if (b.in > 0)
                    std::cout << "; net " << 100 * b.net / b.in << "% and residual " << 100 * (b.net - b.storage) / b.in
                              << "% of the inflow";
                std::cout << "\n";
            }
        }
        if (schedule.every > 0)
            std::cout << "checkpoint: " << checkpoints->path().filename().string()
                      << (comm.size() > 1 ? " (one per rank)" : "") << " at step " << r.steps << ", every "
                      << schedule.every << " steps; go on with --restart " << writer.directory().path.string()
                      << (spec.run.time > 0 ? " --set run.time=SECONDS\n" : " --set run.steps=N\n");
        return Ok;
    } catch (const CaseError& e) {  // raised on every rank alike (sim::Simulation shares the verdict)
        progress.finish();
        if (lead) std::cerr << "error: " << e.what() << "\n";
        return CaseInvalid;
    } catch (const ResourceError& e) {
        progress.finish();
        if (lead) std::cerr << "error: " << e.what() << "\n";
        return NoResources;
    } catch (const DivergenceError& e) {  // from the reduced observation: every rank
        progress.finish();
        if (lead) std::cerr << "error: " << e.what() << "\n";
        return Diverged;
    } catch (const OutputError& e) {
        progress.finish();
        std::cerr << "error" << (comm.size() > 1 ? " (rank " + std::to_string(comm.rank()) + ")" : "") << ": "
                  << e.what() << "\n";
        return alone(OutputFailed);
    } catch (const std::exception& e) {
        progress.finish();
        std::cerr << "internal error" << (comm.size() > 1 ? " (rank " + std::to_string(comm.rank()) + ")" : "")
                  << ": " << e.what() << "\n";
        return alone(InternalError);
    }
}

}  // namespace barracuda::apps
