// Run-time lattice choice -> the CUDA translation unit that instantiates it.
#include "backend/cuda/cuda_check.hpp"
#include "backend/device_info.hpp"
#include "backend/engine.hpp"
#include "common/error.hpp"

namespace barracuda::backend {

namespace cuda {
std::unique_ptr<Engine> make_d2q9(const EngineSetup&);
std::unique_ptr<Engine> make_d3q13(const EngineSetup&);
std::unique_ptr<Engine> make_d3q15(const EngineSetup&);
std::unique_ptr<Engine> make_d3q19(const EngineSetup&);
std::unique_ptr<Engine> make_d3q27(const EngineSetup&);
}  // namespace cuda

std::unique_ptr<Engine> make_cuda_engine(const EngineSetup& s) {
    check_offered(s);
    if (cuda_device_count() == 0) throw ResourceError("backend = cuda: no CUDA GPU is available on this machine");
    // The engine lives on the current GPU: device 0, or the rank's (use_cuda_device).
    switch (s.lattice) {
        case lattice::Kind::D2Q9: return cuda::make_d2q9(s);
        case lattice::Kind::D3Q13: return cuda::make_d3q13(s);
        case lattice::Kind::D3Q15: return cuda::make_d3q15(s);
        case lattice::Kind::D3Q19: return cuda::make_d3q19(s);
        case lattice::Kind::D3Q27: return cuda::make_d3q27(s);
    }
    throw ResourceError("unknown lattice");
}

}  // namespace barracuda::backend
