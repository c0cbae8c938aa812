// Shared by the GPU tests: which combinations this binary can run on the GPU.
#pragma once
#include <cstdio>
#include <string>

#include "backend/device_info.hpp"
#include "backend/offered.hpp"

namespace barracuda::test {

/// Whether this binary can run configuration c on the GPU. A configuration outside
/// the table (src/configurations.txt) or outside a build with a subset of the CUDA
/// engines (BARRACUDA_CUDA_UNITS) is skipped, and said so, rather than failed.
inline bool gpu_engine_built(const backend::Configuration& c) {
    if (backend::cuda_engine_built(c)) return true;
    std::printf("  skipped: %s (%s)\n", backend::name_of(c).c_str(),
                backend::is_offered(c) ? "not in this build's BARRACUDA_CUDA_UNITS" : "not offered");
    return false;
}

}  // namespace barracuda::test
