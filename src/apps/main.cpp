// barracuda: the command line. `barracuda run` with no case runs the built-in
// default (a 3D lid-driven cavity) on the GPU if there is one, else the CPU.
#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <cstdint>
#include <iostream>
#include <string>

#include "apps/commands.hpp"
#include "apps/exit_codes.hpp"
#include "parallel/comm.hpp"

namespace {
// The command line as typed, each argument quoted for a POSIX shell when it needs it.
std::string command_line(int argc, char** argv) {
    std::string out;
    for (int i = 0; i < argc; ++i) {
        std::string a = i == 0 ? std::string("barracuda") : std::string(argv[i]);
        const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789-_=.,/:+@%") == std::string::npos;
        if (!plain) {
            std::string q = "'";
            for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
            a = q + "'";
        }
        out += (i ? " " : "") + a;
    }
    return out;
}
/// A whole number from 1 to `max`, parsed here: CLI11's numeric checks print their
/// range as floating point (a 309-digit upper bound) and clamp values past int64.
CLI::Validator whole_number(std::int64_t max) {
    return CLI::Validator(
        [max](std::string& text) -> std::string {
            std::int64_t v = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (ec != std::errc() || end != text.data() + text.size() || v < 1 || v > max)
                return "'" + text + "' is not a whole number from 1 to " + std::to_string(max);
            return {};
        },
        "INT in [1, " + std::to_string(max) + "]");
}

/// A positive number of seconds.
CLI::Validator positive_seconds() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0' || !(v > 0) || !std::isfinite(v))
                return "'" + text + "' is not a positive number of seconds";
            return {};
        },
        "SECONDS > 0");
}

}  // namespace

int run_main(int argc, char** argv);

int main(int argc, char** argv) {
    // MPI starts only under an MPI launcher (mpirun); a plain run is one rank.
    barracuda::parallel::Comm::init(argc, argv);
    const int code = run_main(argc, argv);
    barracuda::parallel::Comm::finalize();
    return code;
}

int run_main(int argc, char** argv) {
    using namespace barracuda::apps;
    CLI::App app{"Barracuda: a lattice Boltzmann CFD solver for GPUs and CPUs.\n"
                 "Exit codes: 0 ok, 1 internal error, 2 bad command line, 3 invalid case, 4 no GPU or not enough "
                 "memory, 5 diverged, 6 output failed, 7 validation failed, 8 stopped by SIGINT/SIGTERM (a checkpoint "
                 "was saved: go on with --restart)."};
    app.require_subcommand(0, 1);
    app.set_version_flag("--version", std::string("barracuda ") + BARRACUDA_VERSION);

    RunOptions run;
    auto* run_cmd = app.add_subcommand("run", "Run a case (default: the built-in 3D lid-driven cavity)");
    run_cmd->add_option("CASE", run.case_file, "Case file (TOML); see docs/case-file.md")->check(CLI::ExistingFile);
    run_cmd->add_option("--set", run.overrides, "Override a case key, e.g. --set model.tau=0.8 (repeatable)")
        ->allow_extra_args(false);
    run_cmd->add_option("--backend", run.backend, "Backend: auto, cpu or cuda (overrides run.backend)")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    auto* out_opt = run_cmd->add_option("--out", run.out, "Output directory (overrides output.directory)");
    run_cmd->add_option("--checkpoint-every", run.checkpoint_every,
                        "Save a checkpoint every N steps and at the end, in the output directory (one file per rank)")
        ->check(whole_number(std::int64_t(1) << 62));
    run_cmd
        ->add_option("--restart", run.restart,
                     "Go on from the checkpoint in DIR, an earlier run's output directory, and write there; the case "
                     "must be the same but for run.steps, run.backend and [output]")
        ->excludes(out_opt);
    run_cmd->add_flag("-q,--quiet", run.quiet, "No progress line");
    auto* serve_opt = run_cmd
        ->add_option("--serve", run.serve,
                     "Live view in a web browser: serve the page on [host:]port (default 127.0.0.1 and a free port; "
                     "the URL with its token is printed); docs/cli.md#live-view")
        ->expected(0, 1);
    run_cmd->add_flag("--serve-public", run.serve_public,
                      "Allow --serve on an address other than loopback (every request then needs the token)")
        ->needs(serve_opt);
    run_cmd->add_flag("--serve-open-view", run.serve_open_view,
                      "Let anyone who reaches the port watch without the token (steering still needs it)")
        ->needs(serve_opt);

    app.add_subcommand("info", "Backends, GPUs and build options");

    BenchOptions bench;
    auto* bench_cmd = app.add_subcommand(
        "bench", "Measure the copy bandwidth, then the stream-collide kernel for each configuration asked for "
                 "(MLUPS, bytes/cell, GB/s, % of copy bandwidth, memory)");
    std::vector<CLI::Option*> axes;  // what --case leaves to the case file
    axes.push_back(bench_cmd->add_option("--size", bench.sizes, "Cube edge N (N^3 cells; N^2 for D2Q9); several values or repeated")
        ->check(whole_number(1 << 20))
        ->delimiter(','));
    axes.push_back(bench_cmd->add_option("--lattice", bench.lattices,
                          "D2Q9, D3Q13, D3Q15, D3Q19 or D3Q27 (default D3Q19); several values or repeated")
        ->check(CLI::IsMember({"D2Q9", "D3Q13", "D3Q15", "D3Q19", "D3Q27"}))
        ->delimiter(','));
    axes.push_back(bench_cmd->add_option("--collision", bench.collisions, "bgk, trt, mrt or regularized (default bgk); several values or repeated")
        ->check(CLI::IsMember({"bgk", "trt", "mrt", "regularized", "entropic"}))
        ->delimiter(','));
    axes.push_back(bench_cmd->add_option("--precision", bench.precisions, "fp64, fp32 or fp16 (default fp32); several values or repeated")
        ->check(CLI::IsMember({"fp64", "fp32", "fp16"}))
        ->delimiter(','));
    axes.push_back(bench_cmd->add_option("--streaming", bench.streamings, "two-copy or in-place (default two-copy); several values or repeated")
        ->check(CLI::IsMember({"two-copy", "in-place"}))
        ->delimiter(','));
    axes.push_back(bench_cmd->add_option("--scalar", bench.scalars,
                          "A coupled temperature lattice: none, D3Q7, D3Q6 (3D) or D2Q5, D2Q4 (D2Q9) (default none); "
                          "several values or repeated")
        ->check(CLI::IsMember({"none", "D2Q4", "D2Q5", "D3Q6", "D3Q7"}))
        ->delimiter(','));
    axes.push_back(bench_cmd->add_option("--smagorinsky", bench.smagorinsky,
                          "Smagorinsky constant of the LES closure (default 0: none); several values or repeated")
        ->check(CLI::Range(0.0, 1.0))
        ->delimiter(','));
    auto* case_opt = bench_cmd->add_option("--case", bench.cases,
                                           "A case file: its own engine (faces, obstacles) stepped as a run steps it, "
                                           "against the same box and model without boundaries; repeated for several")
                         ->check(CLI::ExistingFile);
    for (auto* axis : axes) case_opt->excludes(axis);
    bench_cmd->add_option("--set", bench.overrides, "KEY=VALUE: override a key of every --case file (as run --set)")
        ->needs(case_opt);
    bench_cmd->add_option("--backend", bench.backend, "auto, cpu or cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    bench_cmd->add_option("--steps", bench.steps, "Timed steps per repetition (default: from the size)")
        ->check(whole_number(INT32_MAX));
    bench_cmd->add_option("--repetitions", bench.repetitions, "Timed repetitions (the median is reported)")
        ->check(whole_number(1000));
    bench_cmd->add_option("--copy-bytes", bench.copy_bytes,
                          "Size of each copy-bandwidth buffer in bytes (default 1073741824 on a GPU, 268435456 on the CPU)")
        ->check(CLI::Range(std::int64_t(1) << 20, std::int64_t(1) << 40));
    auto* sparse_opt = bench_cmd->add_flag(
        "--sparse", bench.sparse,
        "Seed 001's Table 6: random spheres of --diameter in a periodic --size box (default 192) at each --porosity, "
        "sparse against dense storage (MFLUPS: fluid nodes only; tile utilisation; bytes per fluid node)");
    sparse_opt->excludes(case_opt);
    bench_cmd->add_option("--porosity", bench.porosities, "--sparse: the porosities (default 0.1,0.3,0.5,0.7,0.9)")
        ->check(CLI::Range(0.05, 0.95))
        ->delimiter(',')
        ->needs(sparse_opt);
    bench_cmd->add_option("--diameter", bench.diameter, "--sparse: the spheres' diameter in cells (default 40)")
        ->check(CLI::Range(1.0, 1e6))
        ->needs(sparse_opt);
    bench_cmd->add_flag("--json", bench.json, "Print one JSON document instead of a table");
    bench_cmd->add_flag("--weak", bench.weak,
                        "Under mpirun: every rank gets a --size block (weak scaling); default: one --size box split "
                        "over the ranks (strong scaling)");

    ValidateOptions val;
    auto* val_cmd = app.add_subcommand(
        "validate", "Run validation cases against published and analytic references; write report.md, report.json "
                    "and a plot per case (docs/validation.md)");
    val_cmd->add_option("NAME", val.names, "Cases to run (default: all); --list shows them");
    bool short_variant = false;
    auto* short_flag = val_cmd->add_flag("--short", short_variant, "The short variants (CPU, CI; the default)");
    val_cmd->add_flag("--full", val.full, "The full variants at the papers' resolution (for a GPU)")->excludes(short_flag);
    val_cmd->add_option("--out", val.out, "Report directory (default validation-out; never overwritten)");
    val_cmd->add_option("--backend", val.backend, "auto, cpu or cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    val_cmd->add_option("--checkpoint", val.checkpoints,
                        "Directory where long runs keep checkpoints and from which they go on when run again");
    val_cmd->add_option("--stop-after", val.stop_after,
                        "Seconds after which a long run saves its checkpoint and stops (not a result: the same "
                        "command goes on); needs --checkpoint")
        ->check(positive_seconds());
    val_cmd->add_flag("--list", val.list, "List the cases and exit");
    val_cmd->add_flag("-q,--quiet", val.quiet, "No progress lines");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? Ok : UsageError;
    }
    if (*bench_cmd) {
        bench.command_line = command_line(argc, argv);
        return bench_command(bench);
    }
    if (app.got_subcommand("info")) return info_command();
    if (*val_cmd) {
        val.command_line = command_line(argc, argv);
        return validate_command(val);
    }
    run.serve_given = serve_opt->count() > 0;
    if (*run_cmd || app.get_subcommands().empty()) return run_command(run);
    return Ok;
}
