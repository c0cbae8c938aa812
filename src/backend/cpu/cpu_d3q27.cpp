// CPU engines for D3Q27 (all collisions, equilibria and precisions offered on it).
#include "backend/cpu/cpu_engine.hpp"

namespace barracuda::backend::cpu {
std::unique_ptr<Engine> make_d3q27(const EngineSetup& s) { return make_for_lattice<lattice::D3Q27>(s); }
}  // namespace barracuda::backend::cpu
