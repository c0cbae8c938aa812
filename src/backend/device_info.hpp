// GPUs visible to this build (empty without the CUDA backend or without a GPU).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

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

}  // namespace barracuda::backend
