// Stand-ins when the binary is built without the CUDA backend: they report
// its absence, so `--backend cuda` gets a clear error.
#include "backend/bandwidth.hpp"
#include "backend/device_info.hpp"
#include "backend/engine.hpp"
#include "common/error.hpp"

namespace barracuda::backend {

#if defined(BARRACUDA_WITH_CUDA)
bool cuda_built() { return true; }
#else
bool cuda_built() { return false; }
std::vector<GpuInfo> cuda_devices() { return {}; }
int cuda_runtime_version() { return 0; }
int cuda_device_count() { return 0; }
void use_cuda_device(int) {}
std::int64_t cuda_free_memory() { return 0; }
CopyBandwidth measure_cuda_copy_bandwidth(std::int64_t) {
    throw ResourceError("copy bandwidth: this binary was built without the CUDA backend (nvcc was not found)");
}
double measure_cuda_download_seconds(std::int64_t, int) {
    throw ResourceError("download time: this binary was built without the CUDA backend (nvcc was not found)");
}
#endif

}  // namespace barracuda::backend
