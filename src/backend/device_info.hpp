// GPUs visible to this build (empty without the CUDA backend or without a GPU).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lattice/lattice.hpp"
#include "storage/precision.hpp"

namespace barracuda::backend {

struct GpuInfo {
    int index = 0;
    std::string name;
    std::int64_t total_memory = 0, free_memory = 0;
    int compute_major = 0, compute_minor = 0;
    int multiprocessors = 0;
};

std::vector<GpuInfo> cuda_devices();
int cuda_runtime_version();  // 0 without CUDA
bool cuda_built();           // whether this binary has the CUDA backend
/// GPUs visible, without creating a context on any (0 without CUDA or GPU).
int cuda_device_count();
/// Makes GPU `index` the one this process (rank) uses from now on.
void use_cuda_device(int index);
/// Free memory of the GPU this process uses.
std::int64_t cuda_free_memory();

}  // namespace barracuda::backend
