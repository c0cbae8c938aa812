// The subcommands of `barracuda`. Each returns an exit code (exit_codes.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace barracuda::apps {

struct RunOptions {
    std::string case_file;             // empty: the built-in default case
    std::vector<std::string> overrides;  // --set key=value
    std::string backend;               // --backend (empty: the case's choice)
    std::string out;                   // --out (empty: the case's output.directory)
    std::int64_t checkpoint_every = 0;   // --checkpoint-every (0: none, or the restarted run's)
    std::string restart;               // --restart DIR (empty: a fresh run)
    bool quiet = false;
    /// --serve [host:]port: the live view (docs/cli.md#live-view); serve_given without a
    /// value: 127.0.0.1 and a free port.
    bool serve_given = false;
    std::string serve;
    bool serve_public = false;     // --serve-public: a non-loopback address is allowed
    bool serve_open_view = false;  // --serve-open-view: watching needs no token
};
int run_command(const RunOptions& options);

int info_command();

struct BenchOptions {
    // Each list is one axis of the cartesian product that is measured; an empty
    // list takes the default (D3Q19, bgk, fp32, two-copy; the size from the
    // lattice and backend: 256 / 4096 for D2Q9 on a GPU, 64 / 512 on the CPU).
    std::vector<std::string> lattices, collisions, precisions, streamings;
    std::vector<std::string> scalars;  // a coupled temperature lattice ("none", "D3Q7", ...)
    std::vector<double> smagorinsky;   // LES constants (0: none)
    std::vector<int> sizes;  // cube edge (square edge for D2Q9)
    std::string backend = "auto";
    int steps = 0;  // timed steps per repetition; 0: chosen from the size
    int repetitions = 5;
    std::int64_t copy_bytes = 0;  // copy-bandwidth buffer; 0: 1 GiB on a GPU, 256 MiB on the CPU
    bool json = false;
    /// Under mpirun: each rank a `size` block (weak scaling) instead of one `size` box
    /// split over the ranks (strong scaling).
    bool weak = false;
    /// --case FILE: each case's own engine against the same box without boundaries
    /// (the axes above are then not used); --set overrides apply to every case.
    std::vector<std::string> cases, overrides;
    /// --sparse: seed 001's Table 6 set-up (random spheres of `diameter` in a periodic
    /// --size box at each porosity), sparse against dense storage in the same run.
    bool sparse = false;
    std::vector<double> porosities;  // default 0.1, 0.3, 0.5, 0.7, 0.9
    double diameter = 40;
    std::string command_line;  // as typed, for the report
};
int bench_command(const BenchOptions& options);

struct ValidateOptions {
    std::vector<std::string> names;  // empty: every registered case
    bool full = false;               // --full: the paper's resolution (for a GPU); else --short
    std::string out = "validation-out";
    std::string backend = "auto";
    bool list = false, quiet = false;
    std::string checkpoints;   // --checkpoint DIR: long runs keep their state there and go on from it
    double stop_after = 0;     // --stop-after SECONDS: long runs save and stop past this time (0: never)
    std::string command_line;  // as typed, for the report
};
int validate_command(const ValidateOptions& options);

}  // namespace barracuda::apps
