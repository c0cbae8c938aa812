// CUDA engines for D3Q15 (all collisions, equilibria and precisions offered on it).
#include "backend/cuda/cuda_engine.cuh"

namespace barracuda::backend::cuda {
std::unique_ptr<Engine> make_d3q15(const EngineSetup& s) { return make_for_lattice<lattice::D3Q15>(s); }
}  // namespace barracuda::backend::cuda
