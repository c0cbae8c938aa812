// Run-time choice of lattice -> the translation unit that instantiates it.
#include <string>

#include "backend/dispatch.hpp"
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
    for (int f = 0; f < 6; ++f)
        if (s.faces.type[f] == boundary::FaceType::Outflow && s.pattern == storage::Pattern::InPlace)
            throw CaseError("boundary." + std::string(boundary::face_name(f)) +
                            ".type = \"outflow\": needs model.streaming = \"two-copy\" (the face reads what the node "
                            "inside receives, which in-place streaming overwrites while the step runs)");
    if (s.collision == physics::CollisionKind::Entropic) {
        const std::string why = entropic_refusal(lattice::name_of(s.lattice), physics::name_of(s.equilibrium));
        if (!why.empty()) throw CaseError(why);
        if (s.smagorinsky > 0)
            throw CaseError("model.smagorinsky: the entropic collision adjusts its relaxation itself (alpha); "
                            "it takes no LES closure");
    }
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
