// Shared by the GPU tests: which combinations this binary can run on the GPU.
#pragma once
#include <cstdio>
#include <string>

#include "backend/device_info.hpp"
#include "backend/offered.hpp"
#include "common/error.hpp"

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

/// Runs `read` (reading or checking a case, which checks it against the table) and
/// returns true; where the table of this build does not offer the case's configuration
/// (a trimmed src/configurations.txt: tools/device-ab.sh), says so and returns false.
/// Any other error propagates.
template <class Read>
bool case_offered(Read&& read) {
    try {
        read();
        return true;
    } catch (const CaseError& e) {
        if (std::string(e.what()).find("not offered") == std::string::npos) throw;
        std::printf("  skipped, not offered by this build: %.120s\n", e.what());
        return false;
    }
}

}  // namespace barracuda::test
