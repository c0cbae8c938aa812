// CPU engines for D3Q19 (all collisions, equilibria and precisions offered on it).
#include "backend/cpu/cpu_engine.hpp"

namespace barracuda::backend::cpu {
std::unique_ptr<Engine> make_d3q19(const EngineSetup& s) { return make_for_lattice<lattice::D3Q19>(s); }
}  // namespace barracuda::backend::cpu
