// barracuda info: what this binary can run on.
#include <omp.h>

#include <algorithm>
#include <iostream>
#include <string>

#include "apps/commands.hpp"
#include "apps/exit_codes.hpp"
#include "backend/device_info.hpp"
#include "backend/offered.hpp"
#include "parallel/comm.hpp"

namespace barracuda::apps {

int info_command() {
    const auto all = backend::offered_configurations();
    std::cout << "barracuda " << BARRACUDA_VERSION << " (" << BARRACUDA_BUILD_TYPE << ")\n"
              << "backends:\n"
              << "  cpu   OpenMP, " << omp_get_max_threads() << " threads\n";
    if (!backend::cuda_built()) {
        std::cout << "  cuda  not built (nvcc was not found at build time)\n";
    } else {
        const int v = backend::cuda_runtime_version();
        std::cout << "  cuda  built for sm_" << BARRACUDA_CUDA_ARCHS << ", runtime " << v / 1000 << "." << (v % 1000) / 10
                  << "\n";
        const auto gpus = backend::cuda_devices();
        if (gpus.empty()) std::cout << "        no CUDA GPU available: runs use the CPU backend\n";
        for (const auto& g : gpus)
            std::cout << "  gpu " << g.index << ": " << g.name << ", " << g.total_memory / (1 << 20) << " MiB ("
                      << g.free_memory / (1 << 20) << " MiB free), compute capability " << g.compute_major << "."
                      << g.compute_minor << ", " << g.multiprocessors << " multiprocessors\n";
        // A build with a subset of the CUDA engines (BARRACUDA_CUDA_UNITS) says how many it holds.
        const auto held = std::count_if(all.begin(), all.end(), [](const auto& c) { return backend::cuda_engine_built(c); });
        if (held < std::ptrdiff_t(all.size()))
            std::cout << "        CUDA engines of " << held << " of the " << all.size()
                      << " configurations (BARRACUDA_CUDA_UNITS)\n";
    }
    std::cout << (parallel::Comm::built_with_mpi() ? "  mpi   built: several ranks with mpirun -np N barracuda run\n"
                                                    : "  mpi   not built: one rank\n");
    std::cout << "configurations offered (src/configurations.txt; each row offers every combination of its values, "
              << all.size() << " in all):\n"
              << backend::offered_table_text("  ")
              << "  D3Q13 stores one sub-lattice; smagorinsky LES with every collision but entropic, not on D3Q13;\n"
              << "  fp16 stores binary16 shifted populations and computes in fp32\n";
    return Ok;
}

}  // namespace barracuda::apps
