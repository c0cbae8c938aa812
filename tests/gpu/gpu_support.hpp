// Shared by the GPU tests: which combinations this binary can run on the GPU.
#pragma once
#include <cstdio>
#include <string>

#include "backend/device_info.hpp"

namespace barracuda::test {

/// Whether this binary holds the CUDA engines of lattice l with precision p. A
/// build with a subset of them (BARRACUDA_CUDA_UNITS) skips the others, and says
/// so, rather than failing on an engine it was built without.
inline bool gpu_engines_built(lattice::Kind l, storage::Precision p) {
    if (backend::cuda_engines_built(l, p)) return true;
    std::printf("  skipped: %s %s (not in this build's BARRACUDA_CUDA_UNITS)\n", std::string(lattice::name_of(l)).c_str(),
                storage::name_of(p));
    return false;
}

}  // namespace barracuda::test
