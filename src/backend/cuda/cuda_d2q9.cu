// CUDA engines for D2Q9 (all collisions, equilibria and precisions offered on it).
#include "backend/cuda/cuda_engine.cuh"

namespace barracuda::backend::cuda {
std::unique_ptr<Engine> make_d2q9(const EngineSetup& s) { return make_for_lattice<lattice::D2Q9>(s); }
}  // namespace barracuda::backend::cuda
