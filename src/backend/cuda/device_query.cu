// What the CUDA runtime reports about the GPUs of this machine.
#include <cuda_runtime.h>

#include "backend/device_info.hpp"

namespace barracuda::backend {

std::vector<GpuInfo> cuda_devices() {
    std::vector<GpuInfo> out;
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky "no device" error
        return out;
    }
    int current = 0;
    cudaGetDevice(&current);
    for (int d = 0; d < n; ++d) {
        cudaDeviceProp p{};
        if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
        GpuInfo g;
        g.index = d;
        g.name = p.name;
        g.total_memory = std::int64_t(p.totalGlobalMem);
        g.compute_major = p.major, g.compute_minor = p.minor;
        g.multiprocessors = p.multiProcessorCount;
        size_t free_b = 0, total_b = 0;
        if (cudaSetDevice(d) == cudaSuccess && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess)
            g.free_memory = std::int64_t(free_b);
        out.push_back(g);
    }
    cudaSetDevice(current);  // querying must not change the GPU this process uses
    return out;
}

int cuda_device_count() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}

void use_cuda_device(int index) { cudaSetDevice(index); }

std::int64_t cuda_free_memory() {
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) return 0;
    return std::int64_t(free_b);
}

int cuda_runtime_version() {
    int v = 0;
    cudaRuntimeGetVersion(&v);
    return v;
}

}  // namespace barracuda::backend
