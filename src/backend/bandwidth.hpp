// The copy bandwidth of the machine a backend runs on, measured by the program
// itself: the yardstick for the stream-collide kernel, which moves populations
// and does little arithmetic (barracuda bench reports its % of this figure).
//
// Both figures count the bytes read plus the bytes written, 2 * bytes / time,
// as STREAM-like copy benchmarks conventionally do.
#pragma once
#include <cstdint>
#include <string>

namespace barracuda::backend {

struct CopyBandwidth {
    double kernel_gbps = 0;       // read+write kernel (CUDA: grid-stride float4 copy; CPU: OpenMP loop)
    double memcpy_gbps = 0;       // cudaMemcpy device-to-device; CPU: std::memcpy of each thread's chunk
    double kernel_best_gbps = 0;  // the fastest repetition of each
    double memcpy_best_gbps = 0;
    std::int64_t bytes = 0;       // size of the source buffer (the destination is the same size)
    int repetitions = 0;          // timed repetitions of each (the median is kernel_gbps / memcpy_gbps)
    std::string kernel_method, memcpy_method;  // what was timed, in words
};

/// Default buffer sizes: 1 GiB on a GPU, 256 MiB on the CPU.
constexpr std::int64_t default_copy_bytes(bool cuda) { return cuda ? std::int64_t(1) << 30 : std::int64_t(256) << 20; }

/// Measures the copy bandwidth of GPU 0 (cuda) or of the host (OpenMP threads)
/// with buffers of about `bytes` each (reduced when memory is short). Throws
/// ResourceError when cuda is asked for and the binary has no CUDA backend or
/// no GPU, or when the buffers cannot be allocated.
CopyBandwidth measure_copy_bandwidth(bool cuda, std::int64_t bytes);

/// The CUDA measurement (backend/cuda/bandwidth.cu; a stub that throws without CUDA).
CopyBandwidth measure_cuda_copy_bandwidth(std::int64_t bytes);
/// Seconds (median of `repetitions`) of one cudaMemcpy of `bytes` from GPU 0's memory into
/// freshly allocated, untouched pageable host memory: the yardstick of fetching a field
/// into a new numpy array (docs/python.md). Throws ResourceError without CUDA or a GPU.
double measure_cuda_download_seconds(std::int64_t bytes, int repetitions);
/// The host measurement (backend/bandwidth.cpp).
CopyBandwidth measure_cpu_copy_bandwidth(std::int64_t bytes);

}  // namespace barracuda::backend
