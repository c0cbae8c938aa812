// CUDA error checking: every runtime call and every launch is checked, and a
// failure becomes a ResourceError naming the call.
#pragma once
#include <cuda_runtime.h>

#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"

namespace barracuda::backend::cuda {

inline void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw ResourceError(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}

/// Device memory owned by one object.
template <class V>
class DeviceArray {
public:
    DeviceArray() = default;
    explicit DeviceArray(std::size_t n) : n_(n) {
        if (n) check(cudaMalloc(&p_, n * sizeof(V)), "cudaMalloc");
    }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    DeviceArray(DeviceArray&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
    DeviceArray& operator=(DeviceArray&& o) noexcept {
        std::swap(p_, o.p_), std::swap(n_, o.n_);
        return *this;
    }
    ~DeviceArray() {
        if (p_) cudaFree(p_);
    }
    V* get() const { return p_; }
    std::size_t size() const { return n_; }
    void swap(DeviceArray& o) noexcept { std::swap(p_, o.p_), std::swap(n_, o.n_); }

private:
    V* p_ = nullptr;
    std::size_t n_ = 0;
};

/// A host vector's copy in device memory (none for an empty vector).
template <class V>
DeviceArray<V> upload(const std::vector<V>& host, const char* what) {
    DeviceArray<V> d(host.size());
    if (!host.empty()) check(cudaMemcpy(d.get(), host.data(), host.size() * sizeof(V), cudaMemcpyHostToDevice), what);
    return d;
}

}  // namespace barracuda::backend::cuda
