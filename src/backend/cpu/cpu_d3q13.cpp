// CPU engines for D3Q13 on one sub-lattice (MRT, both equilibria, every precision).
#include "backend/cpu/cpu_engine.hpp"

namespace barracuda::backend::cpu {
std::unique_ptr<Engine> make_d3q13(const EngineSetup& s) { return make_for_lattice<lattice::D3Q13>(s); }
}  // namespace barracuda::backend::cpu
