// CUDA engines for D3Q13 on one sub-lattice (MRT, both equilibria, every precision).
#include "backend/cuda/cuda_engine.cuh"

namespace barracuda::backend::cuda {
std::unique_ptr<Engine> make_d3q13(const EngineSetup& s) { return make_for_lattice<lattice::D3Q13>(s); }
}  // namespace barracuda::backend::cuda
