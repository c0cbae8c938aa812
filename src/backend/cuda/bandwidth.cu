// Copy bandwidth of GPU 0: a grid-stride read+write kernel on float4 and
// cudaMemcpy device-to-device, each timed with CUDA events over several
// repetitions after a warm-up. GB/s count read + write bytes (2 * size / time).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <cstdint>
#include <vector>

#include "backend/bandwidth.hpp"
#include "backend/cuda/cuda_check.hpp"
#include "common/error.hpp"

namespace barracuda::backend {

namespace {

__global__ void copy_float4(const float4* __restrict__ src, float4* __restrict__ dst, std::size_t n) {
    const std::size_t stride = std::size_t(blockDim.x) * gridDim.x;
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) dst[i] = src[i];
}

/// A pair of CUDA events that brackets work on the default stream.
class EventTimer {
public:
    EventTimer() {
        cuda::check(cudaEventCreate(&start_), "cudaEventCreate");
        cuda::check(cudaEventCreate(&stop_), "cudaEventCreate");
    }
    EventTimer(const EventTimer&) = delete;
    EventTimer& operator=(const EventTimer&) = delete;
    ~EventTimer() {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }
    void start() { cuda::check(cudaEventRecord(start_), "cudaEventRecord"); }
    /// Seconds since start(), after the work in between finished.
    double stop() {
        cuda::check(cudaEventRecord(stop_), "cudaEventRecord");
        cuda::check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
        float ms = 0;
        cuda::check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
        return double(ms) * 1e-3;
    }

private:
    cudaEvent_t start_{}, stop_{};
};

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Throws ResourceError naming `what` when no GPU is there.
void require_gpu(const std::string& what) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        cudaGetLastError();
        throw ResourceError(what + ": no CUDA GPU is available on this machine");
    }
}

}  // namespace

CopyBandwidth measure_cuda_copy_bandwidth(std::int64_t bytes) {
    require_gpu("copy bandwidth");
    // Measured on the current GPU (the rank's, under mpirun).
    std::size_t free_b = 0, total_b = 0;
    cuda::check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    // Two buffers; leave room for the context and whatever else is resident.
    const std::int64_t cap = std::int64_t(free_b) * 2 / 5;
    bytes = std::min(bytes, cap);
    bytes -= bytes % std::int64_t(sizeof(float4));
    if (bytes < (std::int64_t(1) << 20))
        throw ResourceError("copy bandwidth: not enough free GPU memory for the copy buffers");
    const std::size_t n = std::size_t(bytes) / sizeof(float4);

    cuda::DeviceArray<float4> src(n), dst(n);
    cuda::check(cudaMemset(src.get(), 0x3c, std::size_t(bytes)), "cudaMemset");
    cuda::check(cudaMemset(dst.get(), 0, std::size_t(bytes)), "cudaMemset");

    constexpr int threads = 256;
    int per_sm = 0, sms = 0;
    cuda::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, copy_float4, threads, 0),
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    cuda::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
    const std::size_t needed = (n + threads - 1) / threads;
    const unsigned blocks = unsigned(std::max<std::size_t>(1, std::min<std::size_t>(needed, std::size_t(per_sm) * sms)));

    constexpr int repetitions = 20;
    EventTimer timer;
    std::vector<double> kernel, memcpy_;
    for (int r = -1; r < repetitions; ++r) {  // r = -1: warm-up, not kept
        timer.start();
        copy_float4<<<blocks, threads>>>(src.get(), dst.get(), n);
        cuda::check(cudaGetLastError(), "copy kernel launch");
        const double s = timer.stop();
        if (r >= 0) kernel.push_back(2.0 * double(bytes) / s / 1e9);
    }
    for (int r = -1; r < repetitions; ++r) {
        timer.start();
        cuda::check(cudaMemcpy(dst.get(), src.get(), std::size_t(bytes), cudaMemcpyDeviceToDevice), "cudaMemcpy");
        const double s = timer.stop();
        if (r >= 0) memcpy_.push_back(2.0 * double(bytes) / s / 1e9);
    }
    cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

    CopyBandwidth out;
    out.bytes = bytes;
    out.repetitions = repetitions;
    out.kernel_gbps = median_of(kernel);
    out.memcpy_gbps = median_of(memcpy_);
    out.kernel_best_gbps = *std::max_element(kernel.begin(), kernel.end());
    out.memcpy_best_gbps = *std::max_element(memcpy_.begin(), memcpy_.end());
    out.kernel_method = "grid-stride float4 copy kernel, " + std::to_string(blocks) + " blocks x " +
                        std::to_string(threads) + " threads, CUDA events";
    out.memcpy_method = "cudaMemcpy device-to-device, CUDA events";
    return out;
}

double measure_cuda_download_seconds(std::int64_t bytes, int repetitions) {
    require_gpu("download time");
    cuda::DeviceArray<char> src{static_cast<std::size_t>(bytes)};
    cuda::check(cudaMemset(src.get(), 1, std::size_t(bytes)), "cudaMemset");
    std::vector<double> seconds;
    for (int r = 0; r < std::max(repetitions, 1); ++r) {
        // new char[] leaves the pages untouched, as numpy.empty does: the copy faults them in.
        std::unique_ptr<char[]> host(new char[std::size_t(bytes)]);
        cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        const auto t0 = std::chrono::steady_clock::now();
        cuda::check(cudaMemcpy(host.get(), src.get(), std::size_t(bytes), cudaMemcpyDeviceToHost), "cudaMemcpy");
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return median_of(seconds);
}

}  // namespace barracuda::backend
