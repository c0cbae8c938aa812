// CPU engines for D2Q9 (all collisions, equilibria and precisions offered on it).
#include "backend/cpu/cpu_engine.hpp"

namespace barracuda::backend::cpu {
std::unique_ptr<Engine> make_d2q9(const EngineSetup& s) { return make_for_lattice<lattice::D2Q9>(s); }
}  // namespace barracuda::backend::cpu
