// Run-time choice of lattice -> the translation unit that instantiates it.
#include <string>

#include "backend/dispatch.hpp"
#include "backend/engine.hpp"
#include "common/error.hpp"

namespace barracuda::backend {

namespace cpu {
std::unique_ptr<Engine> make_d2q9(const EngineSetup&);
std::unique_ptr<Engine> make_d3q13(const EngineSetup&);
std::unique_ptr<Engine> make_d3q15(const EngineSetup&);
std::unique_ptr<Engine> make_d3q19(const EngineSetup&);
std::unique_ptr<Engine> make_d3q27(const EngineSetup&);
}  // namespace cpu

namespace {
/// What D3Q13 (one sub-lattice, MRT only) does not offer, and a grid it cannot hold.
void check_d3q13(const EngineSetup& s) {
    if (s.collision != physics::CollisionKind::MRT) throw CaseError(physics::d3q13_refusal(s.collision));
    if (s.smagorinsky > 0)
        throw CaseError("model.smagorinsky: not offered on lattice D3Q13 (its two stress rates would need their own "
                        "eddy-viscosity closure)");
    if (!s.grid.half) throw CaseError("lattice D3Q13: the grid must store one sub-lattice (storage::Grid::half)");
    if (s.grid.n[0] % 2) throw CaseError("domain.size: lattice D3Q13 needs an even nx (one sub-lattice of half the nodes per row)");
    for (int a = 0; a < 3; ++a)
        if (s.grid.periodic[a] && s.grid.n[a] % 2)
            throw CaseError("domain.size: lattice D3Q13 needs an even size along every periodic axis");
    for (int f = 0; f < 6; ++f) {
        const std::string key = "boundary." + std::string(boundary::face_name(f));
        if (s.faces.type[f] == boundary::FaceType::Outflow)
            throw CaseError(key + ".type = \"outflow\": not offered on lattice D3Q13 (the node one step inside is "
                                  "on the other sub-lattice)");
        if (s.faces.is_open(f) && s.faces.method[f] == boundary::Method::Regularized)
            throw CaseError(key + ".method = \"regularized\": not offered on lattice D3Q13 (its Hermite projection "
                                  "needs the fourth moments D3Q13 lacks); use \"zou_he\", \"equilibrium\" or \"bounce_back\"");
    }
    if (!s.halo.messages.empty())
        throw CaseError("lattice D3Q13 runs on one rank for now (its halo would carry one sub-lattice)");
}
}  // namespace

void check_offered(const EngineSetup& s) {
    for (int f = 0; f < 6; ++f) {
        const std::string key = "boundary." + std::string(boundary::face_name(f));
        if (s.faces.type[f] == boundary::FaceType::Outflow && s.pattern == storage::Pattern::InPlace)
            throw CaseError(key + ".type = \"outflow\": needs model.streaming = \"two-copy\" (the face reads what the "
                                  "node inside receives, which in-place streaming overwrites while the step runs)");
        if (s.faces.type[f] == boundary::FaceType::Pressure && s.faces.method[f] == boundary::Method::BounceBack)
            throw CaseError(key + ".method = \"bounce_back\": offered on velocity faces only");
    }
    if (s.collision == physics::CollisionKind::Entropic) {
        const std::string why = entropic_refusal(lattice::name_of(s.lattice), physics::name_of(s.equilibrium));
        if (!why.empty()) throw CaseError(why);
        if (s.smagorinsky > 0)
            throw CaseError("model.smagorinsky: the entropic collision adjusts its relaxation itself (alpha); "
                            "it takes no LES closure");
    }
    if (s.lattice == lattice::Kind::D3Q13) check_d3q13(s);
    else if (s.grid.half)
        throw CaseError(std::string("lattice ") + std::string(lattice::name_of(s.lattice)) +
                        " stores every node; storage::Grid::half is for D3Q13 only");
}

std::unique_ptr<Engine> make_cpu_engine(const EngineSetup& s) {
    check_offered(s);
    switch (s.lattice) {
        case lattice::Kind::D2Q9: return cpu::make_d2q9(s);
        case lattice::Kind::D3Q13: return cpu::make_d3q13(s);
        case lattice::Kind::D3Q15: return cpu::make_d3q15(s);
        case lattice::Kind::D3Q19: return cpu::make_d3q19(s);
        case lattice::Kind::D3Q27: return cpu::make_d3q27(s);
    }
    throw CaseError("model.lattice: unknown lattice");
}

}  // namespace barracuda::backend
