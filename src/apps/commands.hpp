// The subcommands of `barracuda`. Each returns an exit code (exit_codes.hpp).
#pragma once
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
    bool quiet = false;
};
int run_command(const RunOptions& options);

int info_command();

struct BenchOptions {
    std::vector<int> sizes;  // cube edge; empty: 256 on a GPU, 64 on the CPU
    std::string lattice = "D3Q19", collision = "bgk", precision = "fp32", backend = "auto";
    int steps = 0;  // timed steps per repetition; 0: chosen from the size
    int repetitions = 5;
    bool json = false;
};
int bench_command(const BenchOptions& options);

}  // namespace barracuda::apps
