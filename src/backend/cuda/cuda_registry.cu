// Run-time lattice and precision -> the CUDA translation unit that instantiates them.
#include "backend/cuda/cuda_check.hpp"
#include "backend/cuda/cuda_makers.hpp"
#include "backend/cuda/cuda_units.hpp"  // generated: which units this build holds
#include "backend/dispatch.hpp"
#include "backend/device_info.hpp"
#include "backend/engine.hpp"
#include "common/error.hpp"

namespace barracuda::backend {

namespace {
template <class L>
std::unique_ptr<Engine> make_on(const EngineSetup& s) {
    return on_storage(s.precision, [&]<class S, class T>() -> std::unique_ptr<Engine> {
        if constexpr (cuda::unit_built<L, S>)
            return cuda::make_for_storage<L, S, T>(s);
        else
            throw ResourceError(std::string("backend = cuda: this binary was built without the CUDA engines of lattice ") +
                                std::string(L::name) + " with " + storage::name_of(s.precision) +
                                " storage (CMake option BARRACUDA_CUDA_UNITS = \"" + cuda::units_built +
                                "\"; \"all\" builds every one)");
    });
}
}  // namespace

bool cuda_engines_built(lattice::Kind l, storage::Precision p) {
    return lattice::visit(l, [&](auto lat) {
        return on_storage(p, [&]<class S, class T>() { return cuda::unit_built<decltype(lat), S>; });
    });
}

std::unique_ptr<Engine> make_cuda_engine(const EngineSetup& s) {
    check_offered(s);
    if (cuda_device_count() == 0) throw ResourceError("backend = cuda: no CUDA GPU is available on this machine");
    // The engine lives on the current GPU: device 0, or the rank's (use_cuda_device).
    switch (s.lattice) {
        case lattice::Kind::D2Q9: return make_on<lattice::D2Q9>(s);
        case lattice::Kind::D3Q13: return make_on<lattice::D3Q13>(s);
        case lattice::Kind::D3Q15: return make_on<lattice::D3Q15>(s);
        case lattice::Kind::D3Q19: return make_on<lattice::D3Q19>(s);
        case lattice::Kind::D3Q27: return make_on<lattice::D3Q27>(s);
    }
    throw ResourceError("unknown lattice");
}

}  // namespace barracuda::backend
