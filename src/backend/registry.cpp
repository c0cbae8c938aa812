// Run-time choice of lattice -> the translation unit that instantiates it.
#include <string>

#include "backend/engine.hpp"
#include "common/error.hpp"

namespace barracuda::backend {

namespace cpu {
std::unique_ptr<Engine> make_d2q9(const EngineSetup&);
std::unique_ptr<Engine> make_d3q15(const EngineSetup&);
std::unique_ptr<Engine> make_d3q19(const EngineSetup&);
std::unique_ptr<Engine> make_d3q27(const EngineSetup&);
}  // namespace cpu

void check_offered(const EngineSetup& s) {
    const bool mrt_lattice = s.lattice == lattice::Kind::D2Q9 || s.lattice == lattice::Kind::D3Q19;
    if (s.collision == physics::CollisionKind::MRT && !mrt_lattice)
        throw CaseError("model.collision = \"mrt\": offered for D2Q9 and D3Q19, not for " +
                        std::string(lattice::name_of(s.lattice)));
}

std::unique_ptr<Engine> make_cpu_engine(const EngineSetup& s) {
    check_offered(s);
    switch (s.lattice) {
        case lattice::Kind::D2Q9: return cpu::make_d2q9(s);
        case lattice::Kind::D3Q15: return cpu::make_d3q15(s);
        case lattice::Kind::D3Q19: return cpu::make_d3q19(s);
        case lattice::Kind::D3Q27: return cpu::make_d3q27(s);
    }
    throw CaseError("model.lattice: unknown lattice");
}

}  // namespace barracuda::backend
