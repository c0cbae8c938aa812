// The CUDA backend: one thread per cell runs the same fused update as the CPU
// backend (kernel/stream_collide.hpp). Launch shape: 1D blocks along x-fastest
// cell order, so a warp's loads and stores of one direction are coalesced.
#pragma once
#include <cmath>
#include <vector>

#include "backend/cuda/cuda_check.hpp"
#include "backend/dispatch.hpp"
#include "backend/engine_common.hpp"
#include "kernel/observe.hpp"
#include "kernel/stream_collide.hpp"
#include "storage/two_copy.hpp"

namespace barracuda::backend::cuda {

constexpr int block_size = 256;
constexpr int reduce_blocks = 1024;

__device__ __forceinline__ bool cell_coordinates(const storage::Grid& g, storage::index_t cell, int& x, int& y,
                                                 int& z) {
    if (cell >= g.cells()) return false;
    x = int(cell % g.n[0]);
    const storage::index_t yz = cell / g.n[0];
    y = int(yz % g.n[1]);
    z = int(yz / g.n[1]);
    return true;
}

template <class K>
__global__ void __launch_bounds__(block_size) stream_collide_kernel(const __grid_constant__ K k) {
    const storage::index_t cell = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    int x, y, z;
    if (cell_coordinates(k.in.grid, cell, x, y, z)) k(x, y, z);
}

template <class K, class T>
__global__ void __launch_bounds__(block_size) observe_kernel(const __grid_constant__ K k, double lo, double hi, T* prev_u,
                                                             kernel::Partial* partials) {
    kernel::Partial p = kernel::Partial::identity();
    const storage::index_t n = k.grid.cells();
    for (storage::index_t cell = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x; cell < n;
         cell += storage::index_t(gridDim.x) * blockDim.x) {
        int x, y, z;
        cell_coordinates(k.grid, cell, x, y, z);
        T r, v[3];
        k.macroscopic(x, y, z, r, v);
        p.add_cell(cell, r, v[0], v[1], v[2], lo, hi);
        if (prev_u) {
            T* pu = prev_u + 3 * cell;
            p.add_change(double(v[0] - pu[0]), double(v[1] - pu[1]), double(v[2] - pu[2]));
            pu[0] = v[0], pu[1] = v[1], pu[2] = v[2];
        }
    }
    __shared__ kernel::Partial shared[block_size];
    shared[threadIdx.x] = p;
    __syncthreads();
    for (int s = block_size / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) shared[threadIdx.x].merge(shared[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) partials[blockIdx.x] = shared[0];
}

template <class K, class T>
__global__ void __launch_bounds__(block_size) fields_kernel(const __grid_constant__ K k, T* rho, T* u) {
    const storage::index_t cell = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    int x, y, z;
    if (!cell_coordinates(k.grid, cell, x, y, z)) return;
    T r, v[3];
    k.macroscopic(x, y, z, r, v);
    rho[cell] = r;
    u[3 * cell] = v[0], u[3 * cell + 1] = v[1], u[3 * cell + 2] = v[2];
}

template <class L, class Eq, class Collision, class S>
class CudaEngine final : public Engine {
    using T = S;
    using Store = storage::TwoCopy<S, T>;
    using Kernel = kernel::StreamCollide<L, Eq, Collision, Store>;
    using Gather = kernel::Gather<L, Eq, Store>;

public:
    explicit CudaEngine(const EngineSetup& s)
        : setup_(s),
          cells_(s.grid.cells()),
          a_(std::size_t(L::Q) * cells_),
          b_(std::size_t(L::Q) * cells_),
          kind_(cells_),
          collision_(CollisionFactory<Collision>::make(s)) {
        check(cudaMemcpy(kind_.get(), s.node_kind.data(), cells_, cudaMemcpyHostToDevice), "copy node kinds");
    }

    std::string description() const override { return describe<L, Eq, Collision, S>("cuda", setup_, Store::pattern); }

    void initialize(const std::vector<double>& rho, const std::vector<double>& u) override {
        // Equilibrium on the host with the same function, then one copy: initialisation is rare.
        std::vector<S> f(std::size_t(L::Q) * cells_);
        equilibrium_populations<L, Eq>(setup_, rho, u, f.data());
        check(cudaMemcpy(a_.get(), f.data(), f.size() * sizeof(S), cudaMemcpyHostToDevice), "upload populations");
        check(cudaMemcpy(b_.get(), f.data(), f.size() * sizeof(S), cudaMemcpyHostToDevice), "upload populations");
    }

    void step(std::int64_t steps) override {
        const unsigned blocks = unsigned((cells_ + block_size - 1) / block_size);
        for (std::int64_t n = 0; n < steps; ++n) {
            stream_collide_kernel<<<blocks, block_size>>>(make_kernel());
            a_.swap(b_);
        }
        check(cudaGetLastError(), "stream_collide_kernel launch");
        check(cudaDeviceSynchronize(), "stream_collide_kernel");
    }

    void fields(std::vector<double>& rho, std::vector<double>& u) override {
        DeviceArray<T> d_rho(cells_), d_u(3 * cells_);
        const unsigned blocks = unsigned((cells_ + block_size - 1) / block_size);
        fields_kernel<<<blocks, block_size>>>(make_gather(), d_rho.get(), d_u.get());
        check(cudaGetLastError(), "fields_kernel launch");
        std::vector<T> hr(cells_), hu(3 * cells_);
        check(cudaMemcpy(hr.data(), d_rho.get(), cells_ * sizeof(T), cudaMemcpyDeviceToHost), "download density");
        check(cudaMemcpy(hu.data(), d_u.get(), 3 * cells_ * sizeof(T), cudaMemcpyDeviceToHost), "download velocity");
        rho.assign(hr.begin(), hr.end());
        u.assign(hu.begin(), hu.end());
    }

    void populations(std::vector<double>& f) override {
        std::vector<S> h(std::size_t(L::Q) * cells_);
        check(cudaMemcpy(h.data(), a_.get(), h.size() * sizeof(S), cudaMemcpyDeviceToHost), "download populations");
        f.assign(h.begin(), h.end());
    }

    Observation observe(double lo, double hi, bool track_change) override {
        if (track_change && prev_u_.size() == 0) {
            prev_u_ = DeviceArray<T>(3 * cells_);
            check(cudaMemset(prev_u_.get(), 0, 3 * cells_ * sizeof(T)), "cudaMemset");
        }
        if (partials_.size() == 0) partials_ = DeviceArray<kernel::Partial>(reduce_blocks);
        observe_kernel<<<reduce_blocks, block_size>>>(make_gather(), lo, hi, track_change ? prev_u_.get() : nullptr,
                                                      partials_.get());
        check(cudaGetLastError(), "observe_kernel launch");
        std::vector<kernel::Partial> h(reduce_blocks);
        check(cudaMemcpy(h.data(), partials_.get(), h.size() * sizeof(kernel::Partial), cudaMemcpyDeviceToHost),
              "download reduction");
        kernel::Partial p = kernel::Partial::identity();
        for (const auto& q : h) p.merge(q);
        Observation o = observation_from(p);
        if (o.bad_cell >= 0) {
            std::vector<double> r, u;
            fields(r, u);  // rare: the run is about to stop
            o.bad_density = r[p.bad_cell];
            const double* v = &u[3 * p.bad_cell];
            o.bad_speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        }
        return o;
    }

    std::int64_t bytes_per_cell_update() const override { return two_copy_bytes_per_cell<L, S>(); }
    std::int64_t memory_bytes() const override { return two_copy_memory_bytes<L, S>(cells_); }

private:
    Gather make_gather() const {
        Gather g{};
        g.grid = setup_.grid;
        g.faces = setup_.faces;
        g.kind = kind_.get();
        g.store = Store{a_.get(), b_.get(), cells_};
        for (int d = 0; d < 3; ++d) g.force[d] = T(setup_.force[d]);
        return g;
    }
    Kernel make_kernel() const {
        return Kernel{make_gather(), collision_,
                      setup_.force[0] != 0 || setup_.force[1] != 0 || setup_.force[2] != 0};
    }

    EngineSetup setup_;
    std::int64_t cells_;
    DeviceArray<S> a_, b_;
    DeviceArray<std::uint8_t> kind_;
    DeviceArray<T> prev_u_;
    DeviceArray<kernel::Partial> partials_;
    Collision collision_;
};

template <class L>
std::unique_ptr<Engine> make_for_lattice(const EngineSetup& s) {
    return dispatch_on_lattice<L>(s, [&]<class Lat, class Eq, class C, class S>() -> std::unique_ptr<Engine> {
        return std::make_unique<CudaEngine<Lat, Eq, C, S>>(s);
    });
}

}  // namespace barracuda::backend::cuda
