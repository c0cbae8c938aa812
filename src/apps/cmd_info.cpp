// barracuda info: what this binary can run on.
#include <omp.h>

#include <iostream>
#include <string>

#include "apps/commands.hpp"
#include "apps/exit_codes.hpp"
#include "backend/device_info.hpp"
#include "parallel/comm.hpp"

namespace barracuda::apps {

int info_command() {
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
        // A build with a subset of the CUDA engine units (BARRACUDA_CUDA_UNITS) names what it holds.
        std::string held;
        bool all = true;
        for (auto l : {lattice::Kind::D2Q9, lattice::Kind::D3Q13, lattice::Kind::D3Q15, lattice::Kind::D3Q19,
                       lattice::Kind::D3Q27})
            for (auto p : {storage::Precision::FP64, storage::Precision::FP32, storage::Precision::FP16}) {
                if (!backend::cuda_engines_built(l, p)) {
                    all = false;
                    continue;
                }
                held += std::string(held.empty() ? "" : ", ") + std::string(lattice::name_of(l)) + " " + storage::name_of(p);
            }
        if (!all) std::cout << "        only these engines (BARRACUDA_CUDA_UNITS): " << held << "\n";
    }
    std::cout << (parallel::Comm::built_with_mpi() ? "  mpi   built: several ranks with mpirun -np N barracuda run\n"
                                                    : "  mpi   not built: one rank\n");
    std::cout << "lattices: D2Q9, D3Q13 (one sub-lattice), D3Q15, D3Q19, D3Q27\n"
              << "collisions: bgk, trt, regularized, mrt (all lattices; D3Q13: mrt only), entropic (D2Q9, D3Q27);\n"
              << "  smagorinsky LES with bgk, trt, regularized, mrt (not on D3Q13)\n"
              << "equilibria: compressible, incompressible (He-Luo)\n"
              << "precisions: fp64, fp32, fp16 storage with fp32 arithmetic (shifted populations)\n"
              << "streaming: two-copy (AB pull), in-place (AA); fused stream-collide\n";
    return Ok;
}

}  // namespace barracuda::apps
