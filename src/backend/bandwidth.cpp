// Copy bandwidth of the host, as the CPU backend sees it: an OpenMP loop that
// reads one array and writes another (the same static schedule as the engine's
// loop, so each thread touches the memory it first touched), and std::memcpy of
// each thread's chunk. GB/s count read + write bytes (2 * size / time).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "backend/bandwidth.hpp"
#include "common/error.hpp"

namespace barracuda::backend {

namespace {

std::int64_t host_available_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key, unit;
    std::int64_t kib = 0;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return std::int64_t(1) << 62;  // unknown
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// [begin, end) of thread t of nt over n items, as schedule(static) splits them.
void chunk_of(std::int64_t n, int t, int nt, std::int64_t& begin, std::int64_t& end) {
    const std::int64_t q = n / nt, r = n % nt;
    begin = t * q + std::min<std::int64_t>(t, r);
    end = begin + q + (t < r ? 1 : 0);
}

}  // namespace

CopyBandwidth measure_cpu_copy_bandwidth(std::int64_t bytes) {
    bytes = std::min(bytes, host_available_bytes() / 4);  // two buffers, at most half of what is free
    bytes -= bytes % std::int64_t(sizeof(double));
    if (bytes < (std::int64_t(1) << 20)) throw ResourceError("copy bandwidth: not enough host memory for the buffers");
    const std::int64_t n = bytes / std::int64_t(sizeof(double));

    std::unique_ptr<double[]> src(new double[std::size_t(n)]), dst(new double[std::size_t(n)]);
    double* const s = src.get();
    double* const d = dst.get();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {  // first touch by the thread that copies it later
        s[i] = double(i & 1023);
        d[i] = 0.0;
    }

    constexpr int repetitions = 7;
    const auto seconds_of = [](auto&& work) {
        const auto t0 = std::chrono::steady_clock::now();
        work();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    std::vector<double> kernel, memcpy_;
    for (int r = -1; r < repetitions; ++r) {  // r = -1: warm-up, not kept
        const double t = seconds_of([&] {
#pragma omp parallel for schedule(static)
            for (std::int64_t i = 0; i < n; ++i) d[i] = s[i];
        });
        if (r >= 0) kernel.push_back(2.0 * double(bytes) / t / 1e9);
    }
    for (int r = -1; r < repetitions; ++r) {
        const double t = seconds_of([&] {
#pragma omp parallel
            {
                std::int64_t b = 0, e = 0;
                chunk_of(n, omp_get_thread_num(), omp_get_num_threads(), b, e);
                if (e > b) std::memcpy(d + b, s + b, std::size_t(e - b) * sizeof(double));
            }
        });
        if (r >= 0) memcpy_.push_back(2.0 * double(bytes) / t / 1e9);
    }
    if (d[n / 2] != s[n / 2]) throw ResourceError("copy bandwidth: the host copy did not copy");

    CopyBandwidth out;
    out.bytes = bytes;
    out.repetitions = repetitions;
    out.kernel_gbps = median_of(kernel);
    out.memcpy_gbps = median_of(memcpy_);
    out.kernel_best_gbps = *std::max_element(kernel.begin(), kernel.end());
    out.memcpy_best_gbps = *std::max_element(memcpy_.begin(), memcpy_.end());
    const std::string threads = std::to_string(omp_get_max_threads()) + " OpenMP threads";
    out.kernel_method = "OpenMP copy loop on double, " + threads;
    out.memcpy_method = "std::memcpy of each thread's chunk, " + threads;
    return out;
}

CopyBandwidth measure_copy_bandwidth(bool cuda, std::int64_t bytes) {
    return cuda ? measure_cuda_copy_bandwidth(bytes) : measure_cpu_copy_bandwidth(bytes);
}

}  // namespace barracuda::backend
