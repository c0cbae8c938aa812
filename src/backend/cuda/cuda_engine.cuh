// The CUDA backend: one thread per cell runs the same fused update as the CPU
// backend (kernel/stream_collide.hpp). Launch shape: 1D blocks along x-fastest
// cell order, so a warp's loads and stores of one direction are coalesced.
// Steps run on the engine's own stream, in batches captured as CUDA graphs.
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <map>
#include <stdexcept>
#include <array>
#include <cmath>
#include <vector>

#include "backend/cuda/cuda_check.hpp"
#include "backend/configured.hpp"
#include "backend/interleave.hpp"
#include "backend/makers.hpp"
#include "backend/engine_common.hpp"
#include "kernel/momentum_exchange.hpp"
#include "kernel/observe.hpp"
#include "kernel/stream_collide.hpp"
#include "kernel/node_class.hpp"
#include "parallel/comm.hpp"

namespace barracuda::backend::cuda {

constexpr int block_size = 256;       // reductions and field output
constexpr int update_block_size = 128;  // the stream-collide kernels
constexpr int reduce_blocks = 1024;

// The bulk kernel runs over every cell and updates the bulk ones, except in the
// warps that hold reflecting cells' records (record_warp_kernel updates those
// warps whole) or Plain cells (plain_warp_kernel); the boundary kernel runs over the list of the others. Apart, neither has warps that wait
// on the other's much longer per-cell path.
// The boundary kernel also takes a subdomain's border list (the owned cells next
// to the ghost layers, bulk ones included): on a bulk cell its per-link tests find
// every x - c_i streamed, so it computes what the bulk path does, in the same
// order of operations. A third kernel with both paths (as the CPU's update_border)
// would add a copy of every collision to each unit's compile for a few layers of
// cells.
// No minimum of resident blocks is asked for: capping registers at 64 (8 x 128
// threads) made the in-place odd-step kernels spill (they hold 19 64-bit
// destination addresses across the collision).
//
// Sparse storage (TiledBox with its neighbour-tile table): a block is two tiles; their
// 27 neighbour tiles' indices are read into shared memory once, before any thread
// leaves, and every link's tile is found there (seed 001 Alg. 2). Read from the table
// in global memory instead, each of a cell's 18 links (D3Q19) cost a load request a
// warp through L1, twice the requests of a dense kernel (docs/performance.md).
/// The sparse kernels' cursor of a cell whose tile's 27 neighbour-tile entries the block
/// holds in shared memory (`around`, seed 001 Alg. 2). The table is there, and the
/// compiler is told so: without it the compiler kept TiledBox::neighbour's test of it, and
/// the path without it, at every link (a branch and its convergence barrier each; sm_90
/// SASS of the FP16 bulk kernel: 2,330 instructions from the block's barrier to its exit,
/// 1,202 with it).
__device__ __forceinline__ storage::TiledBox::Cursor shared_tile_cursor(const storage::TiledBox& layout,
                                                                        const std::int32_t* around) {
    const storage::TiledBox::Cursor s{layout.map, around, {layout.n[0], layout.n[1], layout.n[2]},
                                      {layout.t[0], layout.t[1]}, {0, 0, 0}};  // base: read only without the table
    __builtin_assume(s.near != nullptr);
    return s;
}

template <class K>
__device__ __forceinline__ void bulk_block(const K& k, storage::index_t block, storage::index_t cells,
                                           const std::uint32_t* skipped) {
    // A box layout holds fewer than 2^32 cells (max_box_cells; sim/simulation.cpp refuses
    // more) and its blocks end by 2^32, so its threads' cells fit in 32 bits, and made
    // from a 32-bit number the index is known to fit: its populations' addresses are
    // 32-bit products (storage/access.hpp's DirectionArrays). Sparse storage numbers more.
    const storage::index_t cell = K::Layout::narrow
                                      ? storage::index_t(std::uint32_t(block) * blockDim.x + threadIdx.x)
                                      : block * blockDim.x + threadIdx.x;
    // A warp with a bit in `skipped` is record_warp_kernel's or plain_warp_kernel's, its
    // bulk cells included. The cell's class and the warp's bit are loaded before any test,
    // side by side (tested one after the other, the second load would wait for the first).
    const storage::index_t warp = cell / 32;
    const std::uint8_t kind = cell < cells ? kernel::class_at(k.in.node_class, cell) : std::uint8_t(kernel::Solid);
    const std::uint32_t bits = skipped ? __ldg(skipped + warp / 32) : 0u;
    const bool mine = kind == kernel::Bulk && !((bits >> (warp % 32)) & 1u);
    if constexpr (std::is_same_v<typename K::Layout, storage::TiledBox>) {
        static_assert(update_block_size % storage::TiledBox::tile_cells == 0, "a block holds whole tiles");
        constexpr int tiles = update_block_size / storage::TiledBox::tile_cells;
        __shared__ std::int32_t around[27 * tiles];
        const storage::TiledBox& layout = k.in.layout;
        if (layout.near && !k.in.faces.has_sponge) {
            const storage::index_t first = block * tiles;  // the block's first tile
            const storage::index_t stored = cells / storage::TiledBox::tile_cells;
            for (int j = threadIdx.x; j < 27 * tiles; j += blockDim.x)
                around[j] = first + j / 27 < stored ? __ldg(layout.near + 27 * first + j) : 0;
            __syncthreads();
            if (mine)
                k.update_bulk_at(cell, shared_tile_cursor(layout, around + 27 * (threadIdx.x / storage::TiledBox::tile_cells)));
            return;
        }
    }
    if (mine) k.update_bulk(cell);
}
template <class K>
__global__ void __launch_bounds__(update_block_size)
    bulk_kernel(const __grid_constant__ K k, storage::index_t cells, const std::uint32_t* skipped) {
    bulk_block(k, blockIdx.x, cells, skipped);
}

// A warp's 32 cells of which some have records (kernel/reflecting_cells.hpp): lane j
// is cell first_cell + j; `lanes` marks the record cells, whose records follow one
// another from first_record on.
struct RecordWarp {
    storage::index_t first_cell;
    storage::index_t first_record;
    std::uint32_t lanes;
};

// One warp's 32 cells from first_cell on, updated whole by the record path: `lanes`'
// cells from their records (records[0] the first's), Plain cells (kernel/links.hpp) from
// the records their neighbours' classes give, bulk cells as records of streamed links
// only (the same update, bit for bit); the warp's other cells (general boundary, solid,
// a subdomain's border, the records of another kernel) left to their kernels. Sparse
// storage: the warp's tile's 27 neighbour-tile entries in shared memory, as in
// bulk_kernel, and where the warp holds Plain cells, the classes of its 4 x 4 x 2 cells'
// neighbourhood, 6 x 6 x 4 of them, read once by the warp (seed 001 Alg. 2); a Plain
// cell's links are then 18 shared-memory reads (D3Q19) at fixed offsets. Read through
// the tile table from global memory instead (plain_links), as one load and its address
// each, the warps with Plain cells ran 14% slower than their records (H200, porosity
// 0.3, FP32). The caller returns whole warps only.
template <bool Open, class K>
__device__ __forceinline__ void warp_update(const K& k, storage::index_t first_cell, std::uint32_t lanes,
                                            const kernel::ReflectingCell* records, storage::index_t cells) {
    using L = typename K::Lattice;
    constexpr bool tiled = std::is_same_v<typename K::Layout, storage::TiledBox>;
    constexpr bool plain_cells = K::plain_cells && tiled;  // the engines flag Plain cells in sparse storage alone
    constexpr int per_block = update_block_size / 32;
    const unsigned lane = threadIdx.x % 32;
    // In 32 bits in a box layout, as in bulk_block.
    const storage::index_t cell = K::Layout::narrow ? storage::index_t(std::uint32_t(first_cell) + lane) : first_cell + lane;
    const bool recorded = (lanes >> lane) & 1u;
    const std::uint8_t kind = recorded || cell >= cells ? std::uint8_t(kernel::Solid) : kernel::class_at(k.in.node_class, cell);
    const bool plain = plain_cells && kind == (kernel::Boundary | kernel::Plain);
    const bool runs = recorded || plain || kind == kernel::Bulk;
    kernel::ReflectingCell r = recorded ? records[__popc(lanes & ((1u << lane) - 1u))]
                                        : kernel::ReflectingCell::streaming(cell, K::thermal ? K::Scalar::Q : 0);
    if constexpr (tiled) {
        __shared__ std::int32_t around[27 * per_block];
        __shared__ std::uint8_t near_classes[plain_cells ? 144 * per_block : 1];
        const storage::TiledBox& layout = k.in.layout;
        if (layout.near && !k.in.faces.has_sponge) {
            std::int32_t* mine = around + 27 * (threadIdx.x / 32);
            const storage::index_t tile = first_cell / storage::TiledBox::tile_cells;
            if (lane < 27) mine[lane] = __ldg(layout.near + 27 * tile + lane);
            __syncwarp();
            if constexpr (plain_cells) {
                if (__any_sync(0xffffffffu, plain)) {
                    // Node e of the neighbourhood: x = e % 6 - 1, y = e / 6 % 6 - 1 and
                    // z = e / 36 + z0 in the tile's coordinates (-1 and 4: the tiles beside).
                    std::uint8_t* classes = near_classes + 144 * (threadIdx.x / 32);
                    const int z0 = 2 * int((first_cell & 63) >> 5) - 1;
                    for (int e = int(lane); e < 144; e += 32) {
                        const int x = e % 6 - 1, y = e / 6 % 6 - 1, z = e / 36 + z0;
                        const int t = ((x + 4) >> 2) + 3 * ((y + 4) >> 2) + 9 * ((z + 4) >> 2);
                        classes[e] = kernel::class_at(
                            k.in.node_class, storage::index_t(mine[t]) * storage::TiledBox::tile_cells + (x & 3) +
                                                 4 * (y & 3) + 16 * (z & 3));
                    }
                    __syncwarp();
                    if (plain) {  // as kernel::plain_links: the links from solid nodes
                        const int l = int(cell & 63);
                        const int at = (l & 3) + 1 + 6 * (((l >> 2) & 3) + 1) + 36 * ((l >> 4) - z0);
                        r = {cell, kernel::solid_links<L>([&](int i) {
                                 return classes[at - L::c(i, 0) - 6 * L::c(i, 1) - 36 * L::c(i, 2)];
                             }),
                             0u, 0u, -1};
                    }
                }
            }
            if (runs) {
                int pos[3];
                layout.position(cell, pos);
                k.template update_reflecting_at<Open>(r, shared_tile_cursor(layout, mine), pos);
            }
            return;
        }
    }
    if (runs) {
        int pos[3];
        k.in.layout.position(cell, pos);
        const auto s = k.in.layout.cursor(pos);
        if constexpr (plain_cells)
            if (plain) r = k.plain_record(cell, s);
        k.template update_reflecting_at<Open>(r, s, pos);
    }
}

// The warps that hold reflecting cells' records, whole (warp_update), their Plain cells
// included. A warp thus reads and writes 32 neighbouring cells, as the bulk
// kernel's do: an inlet plane normal to x, updated from a list of its own cells, lies
// one cell in every row and read 32 sectors for a warp's 32 values of a population
// (H100, sphere duct: 2 kB of DRAM traffic a cell against 153 B in the bulk kernel;
// docs/performance.md). Open: warps with open faces' records (their Zou-He, regularized
// or equilibrium completion); the others run without that code, in fewer registers.
/// Resident blocks asked of record_warp_kernel: the walls' warps of an uncoupled two-copy
/// model with FP32 arithmetic (FP32 or FP16 storage) on a box layout with at most 19
/// velocities fit 56 registers (sm_90, D3Q19: BGK, TRT, MRT and regularized without
/// spilling in FP32; in FP16 one of the four spills 4 B), 9 blocks of 128 threads an SM where their natural 63
/// allowed 8: a record warp's update waits on memory (Nsight Compute: 70% of its stalls on
/// loads), and more warps hide more of it. The others (open faces' code, coupled scalars,
/// FP64, in place, D3Q27, sparse storage's shared neighbourhoods) spill there or were not
/// checked, and are left as the compiler makes them.
template <bool Open, class K>
inline constexpr int record_warp_blocks =
    !Open && !K::coupled && sizeof(typename K::T) == 4 && K::Lattice::Q <= 19 && K::Layout::narrow &&
            std::remove_cvref_t<decltype(K::in.store)>::copies == 2
        ? 9
        : 1;

template <bool Open, class K>
__global__ void __launch_bounds__(update_block_size, record_warp_blocks<Open, K>)
    record_warp_kernel(const __grid_constant__ K k, const RecordWarp* warps, storage::index_t count,
                       const kernel::ReflectingCell* records, storage::index_t cells) {
    constexpr int per_block = update_block_size / 32;
    const storage::index_t w = storage::index_t(blockIdx.x) * per_block + threadIdx.x / 32;
    if (w >= count) return;  // the whole warp
    const RecordWarp rw = warps[w];
    warp_update<Open>(k, rw.first_cell, rw.lanes, records + rw.first_record, cells);
}

// The warps with Plain cells (kernel/links.hpp) and no records run here, whole: their
// Plain and bulk cells (warp_update). A list of 4 B a warp where the records were 24 B a
// cell (issue 22's memory per fluid node); bulk_kernel skips these warps.
template <class K>
__global__ void __launch_bounds__(update_block_size)
    plain_warp_kernel(const __grid_constant__ K k, const std::uint32_t* warps, storage::index_t count,
                      storage::index_t cells) {
    constexpr int per_block = update_block_size / 32;
    const storage::index_t w = storage::index_t(blockIdx.x) * per_block + threadIdx.x / 32;
    if (w >= count) return;  // the whole warp
    warp_update<false>(k, 32 * storage::index_t(__ldg(warps + w)), 0u, nullptr, cells);
}

template <class K>
__global__ void __launch_bounds__(update_block_size)
    boundary_kernel(const __grid_constant__ K k, const storage::index_t* list, storage::index_t count) {
    const storage::index_t j = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j < count) k.update_boundary(list[j]);
}

// FP16 storage: the records alone, 32 to a warp (reflecting_cells.hpp), the bulk cells
// beside them in bulk_kernel. Its kernels are bound by instruction issue (the rounding),
// not by memory: the record path's per-link choices on a warp's 31 bulk cells cost more
// there than the scattered reads of a face plane save (H100: sphere3d 256x96x96 TRT
// 70.8% of its bulk with the records packed, 65-66% with whole warps; seed 004's room
// 24.0x against 20.6x real time). Open: as in record_warp_kernel.
template <bool Open, class K>
__global__ void __launch_bounds__(update_block_size)
    reflecting_kernel(const __grid_constant__ K k, const kernel::ReflectingCell* list, storage::index_t count) {
    const storage::index_t j = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j < count) k.template update_reflecting<Open>(list[j]);
}

// One step's bulk cells and packed records in one launch: schedule[b] names what block b
// updates (backend::scheduled_block, backend/interleave.hpp): a bulk block, or
// update_block_size records of the open faces' list or of the walls'. Blocks start in index order, and a record block comes a
// few waves of blocks before the bulk blocks of its cells (interleaved_schedule), so that the records'
// scattered sectors (an x-normal face: one cell of a row, 32 rows to a warp) are read and
// written while the bulk blocks beside them hold the same sectors in L2. Launched apart,
// beside the bulk kernel, each record's population cost a DRAM burst of its own (seed
// 004's room, H200: 2 kB of reads a cell of the open face), and the step waited on a
// join of the kernels' streams.
template <class K>
__global__ void __launch_bounds__(update_block_size)
    step_kernel(const __grid_constant__ K k, storage::index_t cells, const std::int32_t* schedule,
                const kernel::ReflectingCell* open, storage::index_t open_count,
                const kernel::ReflectingCell* walls, storage::index_t wall_count, const std::uint32_t* skipped) {
    const std::int32_t entry = __ldg(schedule + blockIdx.x);
    if (entry >= 0) {  // a bulk block (tested first: the decoding's selects stay off its path)
        bulk_block(k, entry, cells, skipped);
        return;
    }
    const backend::ScheduledBlock block = backend::scheduled_block(entry, update_block_size);
    const storage::index_t j = block.first + threadIdx.x;
    if (block.open) {
        if (j < open_count) k.template update_reflecting<true>(open[j]);
    } else {
        if (j < wall_count) k.template update_reflecting<false>(walls[j]);
    }
}

/// Shan-Chen's macro-field pass (kernel/pseudopotential.hpp): psi of every fluid cell from
/// the populations the coming step gathers. K: the update or the observer (both hold the
/// gather and the part).
template <class K>
__global__ void __launch_bounds__(block_size) macro_field_kernel(const __grid_constant__ K k) {
    const storage::index_t cell = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (cell < k.in.layout.cells()) k.scalar.macro_field(k.in, cell);
}

// Halo exchange (parallel/halo.hpp): populations at the plan's offsets into the
// send buffer, and the receive buffer into the ghosts.
// Offsets from `split` on are a coupled scalar's, in g (parallel::HaloPlan::split).
template <class S>
__global__ void __launch_bounds__(block_size)
    pack_kernel(const S* __restrict__ f, const S* __restrict__ g, storage::index_t split,
                const storage::index_t* __restrict__ at, S* __restrict__ buf, storage::index_t n) {
    const storage::index_t j = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= n) return;
    const storage::index_t k = at[j];
    buf[j] = k < split ? f[k] : g[k - split];
}
template <class S>
__global__ void __launch_bounds__(block_size)
    unpack_kernel(S* __restrict__ f, S* __restrict__ g, storage::index_t split, const storage::index_t* __restrict__ at,
                  const S* __restrict__ buf, storage::index_t n) {
    const storage::index_t j = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= n) return;
    const storage::index_t k = at[j];
    if (k < split) f[k] = buf[j];
    else g[k - split] = buf[j];
}

template <class K, class T>
__global__ void __launch_bounds__(block_size) observe_kernel(const __grid_constant__ K k, double lo, double hi, T* prev_u,
                                                             kernel::Partial* partials) {
    kernel::Partial p = kernel::Partial::identity();
    const storage::index_t n = k.in.layout.cells();
    for (storage::index_t cell = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x; cell < n;
         cell += storage::index_t(gridDim.x) * blockDim.x) {
        if (k.in.node_class[cell] == kernel::Ghost) continue;  // observed by its owner rank
        T r, v[3], th;
        k.macroscopic(cell, r, v, th);
        p.add_cell(cell, r, v[0], v[1], v[2], lo, hi);
        if (kernel::path_of(k.in.node_class[cell]) != kernel::Solid) {
            p.add_fluid(double(r));
            if constexpr (K::coupled) p.add_scalar(cell, double(th), K::second_density ? lo : -1e30, K::second_density ? hi : 1e30);
        }
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

// Obstacle forces by momentum exchange (kernel/momentum_exchange.hpp, seed 000 §4.2). The
// links of obstacle k are links[offsets[k] .. offsets[k + 1]); blockIdx.y picks
// the obstacle (striding by gridDim.y when there are more), the blocks along x
// share its links, and each block writes its sum (double) to partials[k][block],
// which the host adds. Per-cell sums are double, the rest order-independent
// FixedSums (kernel/fixed_sum.hpp): the result equals the CPU's bit for bit.
template <class L, class G>
__global__ void __launch_bounds__(block_size)
    force_kernel(const __grid_constant__ G g, const kernel::ForceLink* links, const storage::index_t* offsets,
                 int obstacles, kernel::FixedSum* partials) {
    __shared__ kernel::FixedSum shared[3][block_size];
    for (int k = blockIdx.y; k < obstacles; k += gridDim.y) {  // uniform within a block
        kernel::FixedSum F[3];
        const storage::index_t end = offsets[k + 1];
        for (storage::index_t j = offsets[k] + storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x; j < end;
             j += storage::index_t(gridDim.x) * blockDim.x) {
            double cell[3] = {0, 0, 0};
            kernel::add_exchange<L>(g, links[j], cell);
            for (int a = 0; a < 3; ++a) F[a].add(cell[a]);
        }
        for (int a = 0; a < 3; ++a) shared[a][threadIdx.x] = F[a];
        __syncthreads();
        for (int s = block_size / 2; s > 0; s >>= 1) {
            if (threadIdx.x < s)
                for (int a = 0; a < 3; ++a) shared[a][threadIdx.x].merge(shared[a][threadIdx.x + s]);
            __syncthreads();
        }
        if (threadIdx.x == 0)
            for (int a = 0; a < 3; ++a) partials[(std::size_t(k) * gridDim.x + blockIdx.x) * 3 + a] = shared[a][0];
        __syncthreads();  // `shared` is reused for the next obstacle
    }
}

// Interpolated bounce-back over the wall links after a step (kernel/interpolated_wall.hpp).
template <class W>
__global__ void __launch_bounds__(block_size) wall_kernel(const __grid_constant__ W w, storage::index_t count) {
    const storage::index_t k = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k < count) w.apply(k);
}

// Advances the step clock of stochastic FP16 rounding (part of each captured step).
static __global__ void tick_kernel(std::uint32_t* clock) { ++*clock; }  // one per translation unit

template <class L, class Eq, class Store, class T>
__global__ void __launch_bounds__(block_size)
    uniform_kernel(const __grid_constant__ kernel::Gather<L, Eq, Store> g, T drho, T ux, T uy, T uz) {
    const storage::index_t cell = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (cell >= g.layout.cells()) return;
    const T u[3] = {ux, uy, uz};
    kernel::place_equilibrium_at<L, Eq>(g.layout, g.faces, g.node_class, g.store, cell, drho, u);
}

/// Density, velocity and a coupled scalar, each where its pointer is not null.
template <class K, class T>
__global__ void __launch_bounds__(block_size) fields_kernel(const __grid_constant__ K k, T* rho, T* u, T* theta) {
    const storage::index_t cell = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (cell >= k.in.layout.cells()) return;
    T r, v[3], th;
    k.macroscopic(cell, r, v, th);
    if (rho) rho[cell] = r;
    if (u) u[3 * cell] = v[0], u[3 * cell + 1] = v[1], u[3 * cell + 2] = v[2];
    if (theta) theta[cell] = th;
}

/// Probes: rho, ux, uy, uz, theta at a few cells (Engine::sample).
template <class K>
__global__ void __launch_bounds__(block_size)
    sample_kernel(const __grid_constant__ K k, const std::int64_t* cells, std::int64_t n, double* out) {
    const std::int64_t j = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= n) return;
    typename K::T r, v[3], th;
    k.macroscopic(storage::index_t(cells[j]), r, v, th);
    double* o = out + 5 * j;
    o[0] = double(r), o[1] = double(v[0]), o[2] = double(v[1]), o[3] = double(v[2]), o[4] = double(th);
}

/// The heat balance's terms (Engine::scalar_flows) over the boundary cells: per-thread
/// sums, reduced per warp, then added atomically (a diagnostic: the order of the
/// additions, and so the last bits, may vary from call to call).
template <class K>
__global__ void __launch_bounds__(block_size)
    scalar_flow_kernel(const __grid_constant__ K k, const storage::index_t* cells, storage::index_t count, double* total) {
    double flows[kernel::scalar_flow_rows] = {};
    for (storage::index_t j = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x; j < count;
         j += storage::index_t(gridDim.x) * blockDim.x)
        k.scalar_flows(cells[j], flows);
    for (int r = 0; r < kernel::scalar_flow_rows; ++r) {
        double v = flows[r];
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        if ((threadIdx.x & 31) == 0 && v != 0) atomicAdd(total + r, v);
    }
}

/// Time averages: a cell's fields added to the running sums (Engine::accumulate), in double.
template <class K>
__device__ __forceinline__ void accumulate_cell(const K& k, storage::index_t c, storage::index_t n, double* sums) {
    typename K::T r, v[3], th;
    k.macroscopic(c, r, v, th);
    const double u0 = double(v[0]), u1 = double(v[1]), u2 = double(v[2]);
    sums[MeanRho * n + c] += double(r);
    sums[MeanUx * n + c] += u0, sums[MeanUy * n + c] += u1, sums[MeanUz * n + c] += u2;
    sums[MeanUU * n + c] += u0 * u0 + u1 * u1 + u2 * u2;
    sums[MeanTheta * n + c] += double(th);
}
/// Every cell, or (`skip_boundary`) every cell but those of class Boundary, which
/// accumulate_list_kernel takes from their list: a coupled scalar's observer gathers them
/// by the general path, and run by the lanes of the warps they share with bulk cells (an
/// x-normal face: a cell in every row) that path held the whole grid's warps.
template <class K>
__global__ void __launch_bounds__(block_size) accumulate_kernel(const __grid_constant__ K k, double* sums, bool skip_boundary) {
    const storage::index_t n = k.in.layout.cells();
    const storage::index_t c = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= n || (skip_boundary && k.in.node_class[c] == kernel::Boundary)) return;
    accumulate_cell(k, c, n, sums);
}
template <class K>
__global__ void __launch_bounds__(block_size)
    accumulate_list_kernel(const __grid_constant__ K k, const storage::index_t* cells, storage::index_t count, double* sums) {
    const storage::index_t j = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j < count) accumulate_cell(k, cells[j], k.in.layout.cells(), sums);
}

template <class Ls, class Layout, class Store, class T>
__global__ void __launch_bounds__(block_size)
    uniform_scalar_kernel(Layout layout, boundary::Parameters faces, const std::uint8_t* node_class, Store previous,
                          T theta, T ux, T uy, T uz) {
    const storage::index_t cell = storage::index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (cell >= layout.cells()) return;
    const T u[3] = {ux, uy, uz};
    kernel::place_scalar_at<Ls>(layout, faces, node_class, previous, cell, theta, u);
}

template <class L, class Eq, class Collision, class Store, class Ls>
class CudaEngine final : public Engine {
    using S = typename Store::storage_type;
    using T = typename Store::compute_type;
    using Kernel = kernel::StreamCollide<L, Eq, Collision, Store, Ls>;
    using Observer = kernel::Observer<L, Eq, Store, Ls>;
    using Gather = kernel::Gather<L, Eq, Store>;
    static constexpr bool two_copy = Store::copies == 2;
    static constexpr bool coupled = Kernel::coupled;
    static constexpr bool interacting = Kernel::interacting;  // Shan-Chen: a macro-field pass first
    static constexpr bool binary = Kernel::binary;            // ... of two fluids: its part updates the cell
    static constexpr int scalar_q = coupled ? Kernel::Scalar::Q : 0;
    using ScalarStore = kernel::SecondStoreFor<Ls, Store>;
    static constexpr bool tiled = std::is_same_v<typename Gather::Layout, storage::TiledBox>;
    /// Plain cells (kernel/links.hpp) without records: sparse storage alone, where memory is
    /// what the layout is for; with them, issue 22's largest run (FP16 in place, porosity
    /// 0.4) needs 53.2 B a fluid node, 57.2 with the records. A dense box keeps its records:
    /// there its warps with Plain cells ran slower than with records (H200, FP16: a
    /// porous 64^3 box -20%, sphere3d -17%; docs/performance.md).
    static constexpr bool plain_cells = Kernel::plain_cells && tiled;

public:
    explicit CudaEngine(const EngineSetup& s)
        : setup_(s),
          cells_(s.grid.cells()),
          a_(std::size_t(L::Q) * cells_),
          b_(two_copy ? std::size_t(L::Q) * cells_ : 0),
          ga_(std::size_t(scalar_q) * cells_),
          gb_(two_copy ? std::size_t(scalar_q) * cells_ : 0),
          class_(cells_),
          clock_(1),
          host_class_(kernel::node_classes<L, typename Store::layout_type>(s)),
          collision_(CollisionFactory<Collision>::make(s)) {
        if constexpr (interacting) psi_ = DeviceArray<T>(std::size_t(Kernel::Scalar::fields) * std::size_t(cells_));
        if constexpr (tiled) {  // sparse storage: the tile tables the kernels' layout reads
            const storage::TileTables& t = *s.grid.tiles;
            tile_map_ = upload(t.map, "copy tile map");
            tile_origin_ = upload(t.origin, "copy tile origins");
            if (!t.near.empty()) tile_near_ = upload(t.near, "copy neighbour tiles");
        }
        {
            std::vector<storage::index_t> all, general;
            std::vector<kernel::ReflectingCell> reflecting;
            for (std::int64_t c = 0; c < cells_; ++c)
                if (host_class_[c] == kernel::Boundary) all.push_back(c);
            // Shan-Chen: every boundary cell on the general path (kernel/stream_collide.hpp).
            if (s.general_boundaries || interacting) general = all;
            else kernel::split_boundary_cells<L, Ls, typename Store::layout_type>(s.grid, s.faces, host_class_, reflecting, general);
            if constexpr (plain_cells)
                if (!std::getenv("BARRACUDA_RECORD_ALL")) take_plain_cells(reflecting);
            // The whole list only where the heat balance tallies it (8 B a boundary cell:
            // 1.5 GB in a porous box of 10^9 fluid nodes).
            has_boundary_ = !all.empty();
            if constexpr (Kernel::thermal) boundary_cells_ = upload(all, "copy boundary cell list");
            general_cells_ = upload(general, "copy boundary cell list");
            check(cudaMemcpy(class_.get(), host_class_.data(), cells_, cudaMemcpyHostToDevice), "copy node classes");
            plan_record_warps(reflecting);
        }
        upload_force_links();
        if (!s.wall_links.empty()) {
            wall_links_ = DeviceArray<kernel::WallLink>(s.wall_links.size());
            exchanged_ = DeviceArray<double>(s.wall_links.size());
            check(cudaMemcpy(wall_links_.get(), s.wall_links.data(), s.wall_links.size() * sizeof(kernel::WallLink),
                             cudaMemcpyHostToDevice),
                  "copy wall links");
            // Forces read before the first initialisation are zero, as on the CPU.
            check(cudaMemset(exchanged_.get(), 0, s.wall_links.size() * sizeof(double)), "cudaMemset");
        }
        for (int f = 0; f < 6; ++f) {
            if (s.face_values[f].empty()) continue;
            face_values_[f] = DeviceArray<double>(s.face_values[f].size());
            set_face_values(f, s.face_values[f]);
            setup_.faces.values[f] = face_values_[f].get();  // fixed from here on: captured graphs keep it
        }
        for (int f = 0; f < 6; ++f) {  // a coupled scalar's face temperatures (fixed for the run)
            const auto& theta = s.thermal.face_values[f];
            setup_.thermal.faces.values[f] = nullptr;
            if (theta.empty()) continue;
            scalar_face_values_[f] = DeviceArray<double>(theta.size());
            check(cudaMemcpy(scalar_face_values_[f].get(), theta.data(), theta.size() * sizeof(double),
                             cudaMemcpyHostToDevice),
                  "copy face temperatures");
            setup_.thermal.faces.values[f] = scalar_face_values_[f].get();
        }
        // A blocking stream: the synchronous copies on the default stream order with it.
        if (s.halo.messages.empty()) {
            check(cudaStreamCreate(&stream_), "cudaStreamCreate");
            if (has_boundary_) {
                // The boundary cells' kernels run beside the bulk kernel (launch_update), on
                // high-priority streams: their blocks are then placed first and run in the
                // shadow of the bulk kernel's, instead of after them.
                int least = 0, greatest = 0;
                check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
                check(cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming), "cudaEventCreate");
                for (int j = 0; j < sides; ++j) {
                    check(cudaStreamCreateWithPriority(&side_[j], cudaStreamNonBlocking, greatest), "cudaStreamCreate");
                    check(cudaEventCreateWithFlags(&join_[j], cudaEventDisableTiming), "cudaEventCreate");
                }
            }
        } else {
            // A subdomain: the border cells, packing and unpacking go first on the GPU, ahead
            // of the interior's blocks, so that the exchange overlaps the interior update.
            int least = 0, greatest = 0;
            check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
            check(cudaStreamCreateWithPriority(&stream_, cudaStreamDefault, greatest), "cudaStreamCreateWithPriority");
            require_halo_support(two_copy, setup_);
            setup_halo(kernel::border_cells(host_class_));
            if constexpr (interacting) setup_field_halo();
        }
        check(cudaMemset(clock_.get(), 0, sizeof(std::uint32_t)), "cudaMemset");
    }
    ~CudaEngine() override {
        destroy_graphs();
        if (interior_) cudaStreamDestroy(interior_);
        for (auto& [peer, base] : ipc_open_)
            for (S* b : base)
                if (b) cudaIpcCloseMemHandle(b);
        if (host_send_) cudaFreeHost(host_send_);
        if (host_recv_) cudaFreeHost(host_recv_);
        for (int j = 0; j < sides; ++j) {
            if (side_[j]) cudaStreamDestroy(side_[j]);
            if (join_[j]) cudaEventDestroy(join_[j]);
        }
        if (fork_) cudaEventDestroy(fork_);
        if (trial_start_) cudaEventDestroy(trial_start_), cudaEventDestroy(trial_end_);
        cudaStreamDestroy(stream_);
    }

    std::string description() const override { return describe<L, Eq, Store>("cuda", setup_); }

    using Engine::initialize;
    void initialize(const std::vector<double>& rho, const std::vector<double>& u,
                    const std::vector<double>& strain) override {
        // Placed on the host with the same function as the CPU backend, then one copy:
        // initialisation is rare.
        std::vector<S> f(std::size_t(L::Q) * cells_, S{});
        odd_ = false;
        check(cudaMemset(clock_.get(), 0, sizeof(std::uint32_t)), "cudaMemset");
        place_equilibrium<L, Eq>(setup_, host_class_, host_store(f.data(), true), rho, u, strain);
        check(cudaMemcpy(a_.get(), f.data(), f.size() * sizeof(S), cudaMemcpyHostToDevice), "upload populations");
        if constexpr (two_copy)
            check(cudaMemcpy(b_.get(), f.data(), f.size() * sizeof(S), cudaMemcpyHostToDevice), "upload populations");
        if constexpr (coupled) upload_scalar({second_initial(setup_)}, u);
        exchange_initial();
        launch_walls();
        check(cudaStreamSynchronize(stream_), "wall_kernel");
    }

    void initialize_uniform(double rho, const std::array<double, 3>& u) override {
        odd_ = false;
        check(cudaMemset(clock_.get(), 0, sizeof(std::uint32_t)), "cudaMemset");
        check(cudaMemset(a_.get(), 0, a_.size() * sizeof(S)), "cudaMemset");
        Gather g = make_gather();
        if constexpr (two_copy) g.store = Store{nullptr, a_.get(), cells_};
        else g.store = Store{a_.get(), cells_, true};  // the step before the first is odd
        uniform_kernel<L, Eq, Store, T><<<blocks(), block_size, 0, stream_>>>(g, T(rho - 1.0), T(u[0]), T(u[1]), T(u[2]));
        check(cudaGetLastError(), "uniform_kernel launch");
        if constexpr (two_copy)
            check(cudaMemcpyAsync(b_.get(), a_.get(), a_.size() * sizeof(S), cudaMemcpyDeviceToDevice, stream_),
                  "copy populations");
        if constexpr (coupled) {
            check(cudaMemset(ga_.get(), 0, ga_.size() * sizeof(S)), "cudaMemset");
            ScalarStore prev;
            if constexpr (two_copy) prev = ScalarStore{nullptr, ga_.get(), cells_};
            else prev = ScalarStore{ga_.get(), cells_, true};
            if constexpr (std::is_same_v<Ls, lattice::OrderParameter>) {  // placed on the host, as initialize
                check(cudaStreamSynchronize(stream_), "uniform_kernel");
                std::vector<double> velocity(std::size_t(3 * cells_));
                for (std::int64_t c = 0; c < cells_; ++c)
                    for (int a = 0; a < 3; ++a) velocity[std::size_t(3 * c + a)] = u[std::size_t(a)];
                upload_scalar({second_initial(setup_)}, velocity);
            } else if constexpr (binary) {  // component B: the flow's equilibrium of its density
                Gather gb = g;
                gb.store = prev;
                uniform_kernel<L, Eq, Store, T><<<blocks(), block_size, 0, stream_>>>(
                    gb, T(setup_.density_b - 1.0), T(u[0]), T(u[1]), T(u[2]));
            } else {
                uniform_scalar_kernel<Ls><<<blocks(), block_size, 0, stream_>>>(
                    g.layout, g.faces, g.node_class, prev, T(setup_.thermal.initial), T(u[0]), T(u[1]), T(u[2]));
            }
            check(cudaGetLastError(), "uniform_scalar_kernel launch");
            if constexpr (two_copy)
                check(cudaMemcpyAsync(gb_.get(), ga_.get(), ga_.size() * sizeof(S), cudaMemcpyDeviceToDevice, stream_),
                      "copy populations");
        }
        check(cudaStreamSynchronize(stream_), "uniform_kernel");
        exchange_initial();
        launch_walls();
        check(cudaStreamSynchronize(stream_), "wall_kernel");
    }

    /// Steps in batches captured once as CUDA graphs (one launch per batch), so that
    /// small grids are not bound by launch overhead: graphs of graph_steps, then the rest
    /// of the call in graphs of 16, 8, 4, 2 and 1 steps, at most one of each (a run
    /// advances in chunks between its samples: seed 004's room, 19 steps between those of
    /// its means). The room's own run kept its time with them (H200, FP16, 44.4-44.6x
    /// either way: its 0.1 ms steps outlast a launch); a box of small steps is where the
    /// rest launched one by one would cost.
    void finish() override {
        check(cudaStreamSynchronize(stream_), "the steps");
        if (interior_) check(cudaStreamSynchronize(interior_), "the steps (interior)");
    }

    void step(std::int64_t steps) override {
        std::int64_t n = 0;
        if (interior_) {  // a subdomain: MPI between the kernels of each step, no graphs
            for (; n < steps; ++n) step_subdomain();
            return;
        }
        if (form_pending_) n += try_forms(steps);
        for (int size = 0; size < graph_sizes; ++size) {
            const std::int64_t count = graph_steps >> size;
            while (steps - n >= count) {
                cudaGraphExec_t& graph = graph_[size][phase()];
                if (!graph) graph = capture_graph(count);
                check(cudaGraphLaunch(graph, stream_), "graph launch");
                if (count % 2) advance();  // an odd count ends in the other phase
                n += count;
                if (size > 0) break;  // the rest after the whole graphs: at most one of each
            }
        }
        check(cudaGetLastError(), "stream-collide launch");
        check(cudaStreamSynchronize(stream_), "stream-collide");
    }

    void initialize_scalar(const std::vector<double>& theta, const std::vector<double>& u) override {
        if constexpr (coupled) {
            check(cudaStreamSynchronize(stream_), "steps before initialisation");
            upload_scalar(theta, u);
        } else {
            Engine::initialize_scalar(theta, u);
        }
    }

    void scalar_field(std::vector<double>& theta) override {
        theta.clear();
        if constexpr (coupled) {
            std::vector<T> h(cells_);
            download_fields(nullptr, nullptr, h.data(), scratch(std::size_t(cells_)));
            theta.assign(h.begin(), h.end());
        }
    }

    void fields(std::vector<double>& rho, std::vector<double>& u) override {
        std::vector<T> hr(cells_), hu(3 * cells_);
        download_fields(hr.data(), hu.data(), nullptr, scratch(4 * std::size_t(cells_)));
        rho.assign(hr.begin(), hr.end());
        u.assign(hu.begin(), hu.end());
    }

    int native_bytes() const override { return int(sizeof(T)); }
    void fields_native(void* rho, void* u, void* theta) override {
        if (theta && !coupled) throw std::logic_error("fields_native: this engine has no scalar");
        // A scratch array kept for the next call (the Python module asks for one field at a
        // time, 3 values a cell at most): a fetch is then one kernel and one device-to-host
        // copy, without cudaMalloc (docs/python.md).
        const std::size_t need = std::size_t(cells_) * ((rho ? 1 : 0) + (u ? 3 : 0) + (theta ? 1 : 0));
        download_fields(static_cast<T*>(rho), static_cast<T*>(u), static_cast<T*>(theta), scratch(need));
    }
    /// field_scratch_ with at least `need` values, kept for the next call: a run's outputs
    /// and a Python fetch without a cudaMalloc and a cudaFree (which waits for the device) each.
    T* scratch(std::size_t need) {
        if (field_scratch_.size() < need) field_scratch_ = DeviceArray<T>(need);
        return field_scratch_.get();
    }

    std::vector<double> sample(const std::vector<std::int64_t>& cells) override {
        std::vector<double> out(5 * cells.size());
        if (cells.empty()) return out;
        // The cells and the values' array kept for the next call with the same cells (a run's
        // probes, every 91 steps in seed 004's room): no allocation and free (cudaFree waits
        // for the device) a sample.
        if (cells != sample_cells_) {
            sample_cells_ = cells;
            sample_at_ = DeviceArray<std::int64_t>(cells.size());
            sample_out_ = DeviceArray<double>(out.size());
            check(cudaMemcpyAsync(sample_at_.get(), cells.data(), cells.size() * sizeof(std::int64_t),
                                  cudaMemcpyHostToDevice, stream_),
                  "upload probe cells");
        }
        const auto n = std::int64_t(cells.size());
        refresh_field();
        sample_kernel<<<unsigned((n + block_size - 1) / block_size), block_size, 0, stream_>>>(
            make_observer(), sample_at_.get(), n, sample_out_.get());
        check(cudaGetLastError(), "sample_kernel launch");
        check(cudaMemcpyAsync(out.data(), sample_out_.get(), out.size() * sizeof(double), cudaMemcpyDeviceToHost,
                              stream_),
              "download probes");
        check(cudaStreamSynchronize(stream_), "sample_kernel");
        return out;
    }

    std::vector<double> scalar_flows() override {
        if constexpr (!Kernel::thermal) {
            return {};
        } else {
            std::vector<double> out(kernel::scalar_flow_rows, 0.0);
            // Kept for the next call (every sample of a run's means): no free, which waits.
            if (flow_sums_.size() == 0) flow_sums_ = DeviceArray<double>(out.size());
            DeviceArray<double>& d = flow_sums_;
            check(cudaMemsetAsync(d.get(), 0, out.size() * sizeof(double), stream_), "cudaMemset");
            // The boundary cells, and a subdomain's border cells (those on the box's faces
            // are boundary cells too, listed apart: parallel/halo.hpp).
            for (const auto* list : {&boundary_cells_, &border_cells_}) {
                const auto count = storage::index_t(list->size());
                if (count == 0) continue;
                const unsigned b = unsigned(std::min<storage::index_t>((count + block_size - 1) / block_size, 1024));
                refresh_field();
                scalar_flow_kernel<<<b, block_size, 0, stream_>>>(make_observer(), list->get(), count, d.get());
                check(cudaGetLastError(), "scalar_flow_kernel launch");
            }
            check(cudaMemcpyAsync(out.data(), d.get(), out.size() * sizeof(double), cudaMemcpyDeviceToHost, stream_),
                  "download scalar flows");
            check(cudaStreamSynchronize(stream_), "scalar_flow_kernel");
            return out;
        }
    }

    void accumulate() override {
        if (sums_.size() == 0) {
            sums_ = DeviceArray<double>(std::size_t(mean_components) * std::size_t(cells_));
            check(cudaMemsetAsync(sums_.get(), 0, sums_.size() * sizeof(double), stream_), "cudaMemset");
        }
        refresh_field();
        // The boundary cells apart where their list is kept (a coupled scalar).
        const auto listed = storage::index_t(boundary_cells_.size());
        accumulate_kernel<<<blocks(), block_size, 0, stream_>>>(make_observer(), sums_.get(), listed > 0);
        if (listed > 0)
            accumulate_list_kernel<<<unsigned((listed + block_size - 1) / block_size), block_size, 0, stream_>>>(
                make_observer(), boundary_cells_.get(), listed, sums_.get());
        check(cudaGetLastError(), "accumulate_kernel launch");  // ordered on stream_ before the next step
    }

    void accumulated(std::vector<double>& sums) override {
        sums.resize(sums_.size());
        check(cudaStreamSynchronize(stream_), "accumulate_kernel");
        if (!sums.empty())
            check(cudaMemcpy(sums.data(), sums_.get(), sums.size() * sizeof(double), cudaMemcpyDeviceToHost),
                  "download sums");
    }

    void set_accumulated(const std::vector<double>& sums) override {
        check_sums(sums.size(), cells_);
        check(cudaStreamSynchronize(stream_), "steps before set_accumulated");
        sums_ = DeviceArray<double>(sums.size());
        if (!sums.empty())
            check(cudaMemcpy(sums_.get(), sums.data(), sums.size() * sizeof(double), cudaMemcpyHostToDevice),
                  "upload sums");
    }

    EngineState save_state() override {
        check(cudaStreamSynchronize(stream_), "steps before a checkpoint");
        EngineState st;
        st.engine = state_key<L, Eq, Store>(setup_);
        st.populations.resize((a_.size() + ga_.size()) * sizeof(S));
        check(cudaMemcpy(st.populations.data(), a_.get(), a_.size() * sizeof(S), cudaMemcpyDeviceToHost),
              "download populations");
        if (ga_.size() > 0)
            check(cudaMemcpy(st.populations.data() + a_.size() * sizeof(S), ga_.get(), ga_.size() * sizeof(S),
                             cudaMemcpyDeviceToHost),
                  "download scalar populations");
        st.odd = odd_;
        check(cudaMemcpy(&st.clock, clock_.get(), sizeof(std::uint32_t), cudaMemcpyDeviceToHost), "download clock");
        st.wall_momenta.resize(exchanged_.size());
        if (!st.wall_momenta.empty())
            check(cudaMemcpy(st.wall_momenta.data(), exchanged_.get(), exchanged_.size() * sizeof(double),
                             cudaMemcpyDeviceToHost),
                  "download wall momenta");
        return st;
    }
    void restore_state(const EngineState& st) override {
        check_state(st, state_key<L, Eq, Store>(setup_), (a_.size() + ga_.size()) * sizeof(S), exchanged_.size());
        check(cudaStreamSynchronize(stream_), "steps before a restore");
        // Into both copies, as initialize() does; the next step reads a_.
        const std::size_t flow = a_.size() * sizeof(S), scalar = ga_.size() * sizeof(S);
        check(cudaMemcpy(a_.get(), st.populations.data(), flow, cudaMemcpyHostToDevice), "upload populations");
        if constexpr (two_copy)
            check(cudaMemcpy(b_.get(), st.populations.data(), flow, cudaMemcpyHostToDevice), "upload populations");
        if (scalar > 0) {
            check(cudaMemcpy(ga_.get(), st.populations.data() + flow, scalar, cudaMemcpyHostToDevice),
                  "upload scalar populations");
            if constexpr (two_copy)
                check(cudaMemcpy(gb_.get(), st.populations.data() + flow, scalar, cudaMemcpyHostToDevice),
                      "upload scalar populations");
        }
        odd_ = st.odd;
        check(cudaMemcpy(clock_.get(), &st.clock, sizeof(std::uint32_t), cudaMemcpyHostToDevice), "upload clock");
        if (!st.wall_momenta.empty())
            check(cudaMemcpy(exchanged_.get(), st.wall_momenta.data(), exchanged_.size() * sizeof(double),
                             cudaMemcpyHostToDevice),
                  "upload wall momenta");
        // Copies from pageable memory may return before the data has landed, and a
        // subdomain's interior stream does not wait for the default stream.
        check(cudaDeviceSynchronize(), "restore");
    }

    void populations(std::vector<double>& f) override {
        // Raw copies to the host, then read through the same store on the host.
        std::vector<S> ha(a_.size()), hb(b_.size());
        check(cudaMemcpy(ha.data(), a_.get(), ha.size() * sizeof(S), cudaMemcpyDeviceToHost), "download populations");
        if constexpr (two_copy)
            check(cudaMemcpy(hb.data(), b_.get(), hb.size() * sizeof(S), cudaMemcpyDeviceToHost), "download populations");
        Gather g = make_gather();
        g.layout = storage::layout_of<typename Gather::Layout>(setup_.grid);  // the host's tables
        g.node_class = host_class_.data();
        g.store = host_store(ha.data(), false, hb.data());
        posted_populations<L>(g, f);
    }

    std::vector<ForceSum> obstacle_force_sums() override {
        const int n = int(setup_.force_links.size());
        std::vector<ForceSum> out(static_cast<std::size_t>(n));
        if (exchanged_.size() > 0) {  // the wall pass's momenta, added up on the host as on the CPU
            std::vector<double> h(exchanged_.size());
            check(cudaMemcpy(h.data(), exchanged_.get(), h.size() * sizeof(double), cudaMemcpyDeviceToHost),
                  "download wall momenta");
            add_wall_forces<L>(setup_.wall_links, h.data(), out);
        }
        if (force_links_.size() == 0) return out;  // no obstacle has a half-way link
        const dim3 grid(force_blocks_, unsigned(std::min(n, 65535)));
        force_kernel<L><<<grid, block_size, 0, stream_>>>(make_gather(), force_links_.get(), force_offsets_.get(), n,
                                                          force_partials_.get());
        check(cudaGetLastError(), "force_kernel launch");
        check(cudaStreamSynchronize(stream_), "force_kernel");
        std::vector<kernel::FixedSum> h(force_partials_.size());
        check(cudaMemcpy(h.data(), force_partials_.get(), h.size() * sizeof(h[0]), cudaMemcpyDeviceToHost),
              "download forces");
        for (std::size_t k = 0; k < out.size(); ++k)
            for (unsigned b = 0; b < force_blocks_; ++b)
                for (int a = 0; a < 3; ++a) out[k][std::size_t(a)].merge(h[(k * force_blocks_ + b) * 3 + std::size_t(a)]);
        return out;
    }

    Observation observe(double lo, double hi, bool track_change) override {
        if (track_change && prev_u_.size() == 0) {
            prev_u_ = DeviceArray<T>(3 * cells_);
            check(cudaMemset(prev_u_.get(), 0, 3 * cells_ * sizeof(T)), "cudaMemset");
        }
        if (partials_.size() == 0) partials_ = DeviceArray<kernel::Partial>(reduce_blocks);
        refresh_field();
        observe_kernel<<<reduce_blocks, block_size, 0, stream_>>>(
            make_observer(), lo, hi, track_change ? prev_u_.get() : nullptr, partials_.get());
        check(cudaGetLastError(), "observe_kernel launch");
        check(cudaStreamSynchronize(stream_), "observe_kernel");
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
            if constexpr (coupled) {
                std::vector<double> th;
                scalar_field(th);
                o.bad_theta = th[p.bad_cell];
            }
            const double* v = &u[3 * p.bad_cell];
            o.bad_speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        }
        return o;
    }

    /// A synchronous copy on the legacy default stream: the engine's blocking stream orders
    /// it after the steps launched before and before the ones launched after.
    void set_face_values(int face, const std::vector<double>& values) override {
        check_face_values(face_values_[face].size(), face, values);
        check(cudaMemcpy(face_values_[face].get(), values.data(), values.size() * sizeof(double),
                         cudaMemcpyHostToDevice),
              "copy face values");
    }
    std::int64_t cells() const override { return cells_; }
    std::int64_t bytes_per_cell_update() const override { return backend::bytes_per_cell_update<L>(setup_); }
    std::int64_t memory_bytes() const override {
        return backend::memory_bytes<L>(setup_) +
               std::int64_t((boundary_cells_.size() + general_cells_.size()) * sizeof(storage::index_t) +
                            (records_.size() + open_records_.size() + wall_records_.size() + all_cells_.size()) *
                                sizeof(kernel::ReflectingCell) +
                            (open_warps_.size() + wall_warps_.size() + all_warps_.size()) * sizeof(RecordWarp) +
                            (skipped_warps_.size() + plain_warps_.size()) * sizeof(std::uint32_t) +
                            schedule_.size() * sizeof(std::int32_t));
    }

    RecordForm record_form_in_use() const override {
        if (!has_records_) return RecordForm::None;
        return form_pending_ ? RecordForm::Timed : form_;
    }

private:
    // Steps per captured graph (step() captures shorter ones for the rest of a call).
    static constexpr std::int64_t graph_steps = 32;

    unsigned blocks() const { return unsigned((cells_ + block_size - 1) / block_size); }

    /// The force link lists of the setup as one array with offsets per obstacle.
    void upload_force_links() {
        const auto& lists = setup_.force_links;
        if (lists.empty()) return;
        std::vector<kernel::ForceLink> flat;
        std::vector<storage::index_t> offsets{0};
        std::size_t longest = 0;
        for (const auto& list : lists) {
            flat.insert(flat.end(), list.begin(), list.end());
            offsets.push_back(storage::index_t(flat.size()));
            longest = std::max(longest, list.size());
        }
        if (flat.empty()) return;
        force_links_ = DeviceArray<kernel::ForceLink>(flat.size());
        force_offsets_ = DeviceArray<storage::index_t>(offsets.size());
        check(cudaMemcpy(force_links_.get(), flat.data(), flat.size() * sizeof(flat[0]), cudaMemcpyHostToDevice),
              "copy force links");
        check(cudaMemcpy(force_offsets_.get(), offsets.data(), offsets.size() * sizeof(offsets[0]),
                         cudaMemcpyHostToDevice),
              "copy force link offsets");
        // Enough blocks per obstacle to spread its links, few enough to add up on the host.
        force_blocks_ = unsigned(std::clamp<std::size_t>((longest + block_size - 1) / block_size, 1, 64));
        force_partials_ = DeviceArray<kernel::FixedSum>(lists.size() * force_blocks_ * 3);
    }

    // --- A rank's subdomain (parallel/halo.hpp) ---
    /// Device copies of the border list and the halo offsets; one send and one receive
    /// buffer for all messages (on the device, and pinned on the host unless MPI is
    /// CUDA-aware); a second stream for the interior.
    void setup_halo(const std::vector<storage::index_t>& border) {
        border_cells_ = DeviceArray<storage::index_t>(border.size());
        if (!border.empty())
            check(cudaMemcpy(border_cells_.get(), border.data(), border.size() * sizeof(border[0]), cudaMemcpyHostToDevice),
                  "copy border cell list");
        std::vector<storage::index_t> send, recv;
        for (const auto& m : setup_.halo.messages) {
            message_at_.push_back(send.size());
            recv_message_at_.push_back(recv.size());
            send.insert(send.end(), m.send.begin(), m.send.end());
            recv.insert(recv.end(), m.recv.begin(), m.recv.end());
        }
        message_at_.push_back(send.size());
        recv_message_at_.push_back(recv.size());
        send_at_ = DeviceArray<storage::index_t>(send.size());
        recv_at_ = DeviceArray<storage::index_t>(recv.size());
        check(cudaMemcpy(send_at_.get(), send.data(), send.size() * sizeof(send[0]), cudaMemcpyHostToDevice), "copy halo");
        check(cudaMemcpy(recv_at_.get(), recv.data(), recv.size() * sizeof(recv[0]), cudaMemcpyHostToDevice), "copy halo");
        send_buf_ = DeviceArray<S>(send.size());
        recv_buf_ = DeviceArray<S>(recv.size());
        const auto& comm = parallel::Comm::world();
        if (comm.all_same_node()) {  // the same verdict on every rank: setup_ipc is collective
            setup_ipc(recv.size());
        } else if (!comm.cuda_aware()) {
            check(cudaMallocHost(&host_send_, send.size() * sizeof(S)), "cudaMallocHost");
            check(cudaMallocHost(&host_recv_, recv.size() * sizeof(S)), "cudaMallocHost");
        }
        check(cudaStreamCreateWithFlags(&interior_, cudaStreamNonBlocking), "cudaStreamCreate");
    }
    /// Every neighbour on this node: each rank writes its halo straight into the
    /// neighbour's receive buffer (CUDA IPC; NVLink or PCIe peer to peer), then tells
    /// it so with an empty MPI message. Receive buffers alternate by step, so that a
    /// neighbour a step ahead never overwrites what this rank has not unpacked yet.
    void setup_ipc(std::size_t recv_count) {
        const auto& comm = parallel::Comm::world();
        for (auto& r : recv_ipc_) r = DeviceArray<S>(std::max<std::size_t>(recv_count, 1));
        struct Record {
            cudaIpcMemHandle_t handle[2];
            int count;
            struct {
                int peer, tag;
                long long offset, count;  // where the message lands in the receive buffer, its values
            } m[26];
        } mine{};
        for (int p = 0; p < 2; ++p) check(cudaIpcGetMemHandle(&mine.handle[p], recv_ipc_[p].get()), "cudaIpcGetMemHandle");
        const auto& msgs = setup_.halo.messages;
        mine.count = int(msgs.size());
        for (std::size_t m = 0; m < msgs.size(); ++m)
            mine.m[m] = {msgs[m].peer, msgs[m].recv_tag, static_cast<long long>(recv_message_at_[m]),
                         static_cast<long long>(msgs[m].recv.size())};
        const auto all = comm.all_gather(&mine, sizeof mine);
        for (std::size_t m = 0; m < msgs.size(); ++m) {
            Record theirs;
            std::memcpy(&theirs, all.data() + std::size_t(msgs[m].peer) * sizeof theirs, sizeof theirs);
            auto& base = ipc_open_[msgs[m].peer];
            for (int p = 0; p < 2; ++p)
                if (!base[std::size_t(p)]) {
                    void* ptr = nullptr;
                    check(cudaIpcOpenMemHandle(&ptr, theirs.handle[p], cudaIpcMemLazyEnablePeerAccess),
                          "cudaIpcOpenMemHandle");
                    base[std::size_t(p)] = static_cast<S*>(ptr);
                }
            long long offset = -1, count = -1;
            for (int k = 0; k < theirs.count; ++k)
                if (theirs.m[k].peer == comm.rank() && theirs.m[k].tag == msgs[m].send_tag)
                    offset = theirs.m[k].offset, count = theirs.m[k].count;
            if (offset < 0) throw ResourceError("halo exchange: rank " + std::to_string(msgs[m].peer) + " expects no message from rank " + std::to_string(comm.rank()));
            // Sparse storage leaves solid nodes out of both ends' lists (backend/tiled_engine.cpp),
            // so a message's two ends must still agree on its length; the same holds over MPI,
            // whose receive would otherwise be cut short or truncated.
            if (count != static_cast<long long>(msgs[m].send.size()))
                throw std::logic_error("halo exchange: rank " + std::to_string(msgs[m].peer) + " expects " +
                                       std::to_string(count) + " values from rank " + std::to_string(comm.rank()) +
                                       ", which sends " + std::to_string(msgs[m].send.size()));
            ipc_remote_.push_back({base[0] + offset, base[1] + offset});
        }
    }
    /// The multiphase models' macro fields (parallel::make_field_plan): offsets on the
    /// device, one send and one receive buffer for all messages, staged through the host
    /// (one layer of cells a step: small beside the populations' exchange).
    void setup_field_halo() {
        std::vector<storage::index_t> send, recv;
        for (const auto& m : setup_.field_halo.messages) {
            field_message_at_.push_back(send.size());
            field_recv_message_at_.push_back(recv.size());
            send.insert(send.end(), m.send.begin(), m.send.end());
            recv.insert(recv.end(), m.recv.begin(), m.recv.end());
        }
        field_message_at_.push_back(send.size());
        field_recv_message_at_.push_back(recv.size());
        field_send_at_ = upload(send, "copy field halo");
        field_recv_at_ = upload(recv, "copy field halo");
        field_buf_ = DeviceArray<T>(std::max(send.size(), recv.size()));
        field_host_send_.resize(send.size());
        field_host_recv_.resize(recv.size());
    }
    /// After the macro-field pass (on stream_): the fields of the outermost owned layers
    /// into the neighbours' ghost layers; returns with the ghosts written (stream_ ordered).
    void exchange_fields() const {
        // Every message is posted even when its lists are empty: sparse storage leaves a
        // rank's all-solid layers out (its neighbour still waits for the message), and a
        // rank may send nothing yet receive (a launch of no block fails).
        if (setup_.field_halo.messages.empty()) return;
        const auto ns = storage::index_t(field_send_at_.size()), nr = storage::index_t(field_recv_at_.size());
        const auto split = setup_.field_halo.split;  // every offset is below it: one array
        if (ns > 0) {
            pack_kernel<<<blocks_for(ns), block_size, 0, stream_>>>(psi_.get(), psi_.get(), split, field_send_at_.get(),
                                                                    field_buf_.get(), ns);
            check(cudaMemcpyAsync(field_host_send_.data(), field_buf_.get(), std::size_t(ns) * sizeof(T),
                                  cudaMemcpyDeviceToHost, stream_),
                  "field halo D2H");
            check(cudaStreamSynchronize(stream_), "field halo pack");
        }
        std::vector<parallel::Transfer> r, s;
        const auto& msgs = setup_.field_halo.messages;
        for (std::size_t m = 0; m < msgs.size(); ++m) {
            r.push_back({field_host_recv_.data() + field_recv_message_at_[m], msgs[m].recv.size() * sizeof(T), msgs[m].peer,
                         msgs[m].recv_tag});
            s.push_back({field_host_send_.data() + field_message_at_[m], msgs[m].send.size() * sizeof(T), msgs[m].peer,
                         msgs[m].send_tag});
        }
        parallel::Comm::world().start(r, s);
        parallel::Comm::world().wait();
        if (nr == 0) return;
        check(cudaMemcpyAsync(field_buf_.get(), field_host_recv_.data(), std::size_t(nr) * sizeof(T),
                              cudaMemcpyHostToDevice, stream_),
              "field halo H2D");
        unpack_kernel<<<blocks_for(nr), block_size, 0, stream_>>>(psi_.get(), psi_.get(), split, field_recv_at_.get(),
                                                                  field_buf_.get(), nr);
        check(cudaGetLastError(), "field halo unpack");
    }
    bool ipc() const { return !ipc_remote_.empty(); }
    unsigned blocks_for(storage::index_t n) const { return unsigned((n + block_size - 1) / block_size); }
    /// Packs copy f, exchanges, unpacks into f's ghosts; on stream_, returning after the unpack.
    void pack_send(const S* f, const S* g) {
        const auto n = storage::index_t(send_at_.size());
        // A sparse box's message may hold no value (all solid); a launch of no block fails.
        if (n > 0)
            pack_kernel<<<blocks_for(n), block_size, 0, stream_>>>(f, g, setup_.halo.split, send_at_.get(), send_buf_.get(), n);
        if (ipc()) {
            for (std::size_t m = 0; m < ipc_remote_.size(); ++m) {
                const std::size_t at = message_at_[m], count = message_at_[m + 1] - at;
                if (count > 0)
                    check(cudaMemcpyAsync(ipc_remote_[m][std::size_t(parity_)], send_buf_.get() + at, count * sizeof(S),
                                      cudaMemcpyDeviceToDevice, stream_),
                      "halo copy to the neighbour's GPU");
            }
            check(cudaStreamSynchronize(stream_), "halo copy");
            // Empty messages: "my halo is in your buffer" (tags offset past the data tags).
            std::vector<parallel::Transfer> r, s;
            for (const auto& msg : setup_.halo.messages) {
                r.push_back({nullptr, 0, msg.peer, msg.recv_tag + 27});
                s.push_back({nullptr, 0, msg.peer, msg.send_tag + 27});
            }
            parallel::Comm::world().start(r, s);
            return;
        }
        if (host_send_ && n > 0)
            check(cudaMemcpyAsync(host_send_, send_buf_.get(), n * sizeof(S), cudaMemcpyDeviceToHost, stream_), "halo D2H");
        check(cudaStreamSynchronize(stream_), "halo pack");
        std::vector<parallel::Transfer> r, s;
        S* sb = host_send_ ? host_send_ : send_buf_.get();
        S* rb = host_recv_ ? host_recv_ : recv_buf_.get();
        for (std::size_t m = 0; m < setup_.halo.messages.size(); ++m) {
            const auto& msg = setup_.halo.messages[m];
            // A sparse box's two lists of a message differ in length (solid nodes left out).
            const std::size_t at = message_at_[m], count = message_at_[m + 1] - at;
            const std::size_t rat = recv_message_at_[m], rcount = recv_message_at_[m + 1] - rat;
            r.push_back({rb + rat, rcount * sizeof(S), msg.peer, msg.recv_tag});
            s.push_back({sb + at, count * sizeof(S), msg.peer, msg.send_tag});
        }
        parallel::Comm::world().start(r, s);
    }
    void receive_unpack(S* f, S* g) {
        parallel::Comm::world().wait();
        const auto n = storage::index_t(recv_at_.size());
        const auto split = setup_.halo.split;
        if (ipc()) {
            if (n > 0)
                unpack_kernel<<<blocks_for(n), block_size, 0, stream_>>>(f, g, split, recv_at_.get(), recv_ipc_[parity_].get(), n);
            check(cudaGetLastError(), "unpack_kernel launch");
            parity_ ^= 1;
            return;
        }
        if (n == 0) return;
        if (host_recv_)
            check(cudaMemcpyAsync(recv_buf_.get(), host_recv_, n * sizeof(S), cudaMemcpyHostToDevice, stream_), "halo H2D");
        unpack_kernel<<<blocks_for(n), block_size, 0, stream_>>>(f, g, split, recv_at_.get(), recv_buf_.get(), n);
        check(cudaGetLastError(), "unpack_kernel launch");
    }
    void exchange_initial() {
        if (!interior_) return;
        if constexpr (two_copy) {
            // a_ and b_ hold the same initial state; both get the neighbours' ghosts.
            pack_send(a_.get(), ga_.get());
            receive_unpack(a_.get(), ga_.get());
            check(cudaMemcpyAsync(b_.get(), a_.get(), a_.size() * sizeof(S), cudaMemcpyDeviceToDevice, stream_),
                  "copy populations");
            if (ga_.size() > 0)
                check(cudaMemcpyAsync(gb_.get(), ga_.get(), ga_.size() * sizeof(S), cudaMemcpyDeviceToDevice, stream_),
                      "copy populations");
            check(cudaStreamSynchronize(stream_), "halo exchange");
        }
    }
    /// One step of a subdomain (two copies): the border cells, their exchange on the
    /// host while the interior runs on its own stream (seed 003 §3.6), the ghosts.
    void step_subdomain() {
        if constexpr (two_copy) {
            const Kernel k = make_kernel();
            if constexpr (interacting) {
                macro_field_kernel<<<blocks(), block_size, 0, stream_>>>(k);
                check(cudaGetLastError(), "macro_field_kernel launch");
                exchange_fields();
            }
            launch_general(k, border_cells_, stream_);
            // The interior only reads copy a_, which the border kernel does not write.
            const auto b = unsigned((cells_ + update_block_size - 1) / update_block_size);
            bulk_kernel<<<b, update_block_size, 0, interior_>>>(k, cells_, skipped_warps());
            launch_boundary(k, interior_, interior_, interior_);
            check(cudaGetLastError(), "stream-collide launch");
            pack_send(b_.get(), gb_.get());
            receive_unpack(b_.get(), gb_.get());
            if constexpr (sizeof(S) == 2) tick_kernel<<<1, 1, 0, stream_>>>(clock_.get());
            check(cudaStreamSynchronize(interior_), "stream-collide (interior)");
            check(cudaStreamSynchronize(stream_), "halo exchange");
            advance();
        }
    }
    // The phase of the pattern: which copy is read (two-copy) or the parity (in place).
    bool phase() const { return two_copy ? swapped_ : odd_; }

    void launch_one() {
        if constexpr (two_copy) {
            launch_update(make_kernel());
        } else {
            if (odd_) launch_update(make_kernel().template fixed<1>());
            else launch_update(make_kernel().template fixed<0>());
        }
        advance();
        launch_walls();
    }
    /// The bulk and the boundary kernels of one step, side by side: they update disjoint
    /// cells and each cell reads and writes only its own slots (two copies: reads from the
    /// copy nobody writes; in place: the AA pattern's exclusive slots), so their order
    /// does not matter. The general boundary kernel is latency-bound (its cells' per-link
    /// tests, its long code): after the bulk kernel it took 43% of a step of seed 004's
    /// room on the H100, beside it it hides in the bulk kernel's time (docs/performance.md).
    /// Fork and join by events, which stream capture turns into graph edges.
    template <class K>
    void launch_update(const K& k) {
        const auto b = unsigned((cells_ + update_block_size - 1) / update_block_size);
        if constexpr (interacting) macro_field_kernel<<<blocks(), block_size, 0, stream_>>>(k);
        if constexpr (interleavable)
            if (form_ == RecordForm::Interleaved) return launch_interleaved(k);
        const bool side = has_boundary_;
        if (side) {
            check(cudaEventRecord(fork_, stream_), "cudaEventRecord");
            for (int j = 0; j < sides; ++j) check(cudaStreamWaitEvent(side_[j], fork_, 0), "cudaStreamWaitEvent");
            launch_boundary(k, side_[0], side_[1], side_[2]);
            for (int j = 0; j < sides; ++j) check(cudaEventRecord(join_[j], side_[j]), "cudaEventRecord");
        }
        if (form_ != RecordForm::AllWarps && form_ != RecordForm::AllPacked)
            bulk_kernel<<<b, update_block_size, 0, stream_>>>(k, cells_, skipped_warps());
        if (side)
            for (int j = 0; j < sides; ++j) check(cudaStreamWaitEvent(stream_, join_[j], 0), "cudaStreamWaitEvent");
        if constexpr (sizeof(S) == 2) tick_kernel<<<1, 1, 0, stream_>>>(clock_.get());
    }
    /// The records packed and interleaved with the bulk blocks in one launch (step_kernel),
    /// the general boundary cells beside it.
    template <class K>
    void launch_interleaved(const K& k) {
        const bool side = general_cells_.size() > 0 || plain_warps_.size() > 0;
        if (side) {
            check(cudaEventRecord(fork_, stream_), "cudaEventRecord");
            for (int j = 0; j < 2; ++j) check(cudaStreamWaitEvent(side_[j], fork_, 0), "cudaStreamWaitEvent");
            launch_general(k, general_cells_, side_[0]);
            launch_plain(k, side_[1]);
            for (int j = 0; j < 2; ++j) check(cudaEventRecord(join_[j], side_[j]), "cudaEventRecord");
        }
        step_kernel<<<unsigned(schedule_.size()), update_block_size, 0, stream_>>>(
            k, cells_, schedule_.get(), open_records_.get(), storage::index_t(open_records_.size()),
            wall_records_.get(), storage::index_t(wall_records_.size()), skipped_warps());
        if (side)
            for (int j = 0; j < 2; ++j) check(cudaStreamWaitEvent(stream_, join_[j], 0), "cudaStreamWaitEvent");
        if constexpr (sizeof(S) == 2) tick_kernel<<<1, 1, 0, stream_>>>(clock_.get());
    }
    /// The general path (boundary_kernel) over a list of cells, on `stream`.
    template <class K>
    void launch_general(const K& k, const DeviceArray<storage::index_t>& cells, cudaStream_t stream) {
        if (const auto n = storage::index_t(cells.size()))
            boundary_kernel<<<unsigned((n + update_block_size - 1) / update_block_size), update_block_size, 0, stream>>>(
                k, cells.get(), n);
    }
    /// The warps of Plain cells without records (plain_warp_kernel), on `stream`.
    template <class K>
    void launch_plain(const K& k, cudaStream_t stream) {
        if constexpr (plain_cells) {
            constexpr storage::index_t per_block = update_block_size / 32;
            if (const auto n = storage::index_t(plain_warps_.size()))
                plain_warp_kernel<<<unsigned((n + per_block - 1) / per_block), update_block_size, 0, stream>>>(
                    k, plain_warps_.get(), n, cells_);
        }
    }
    /// The general boundary cells, the warps with open faces' records and those with
    /// walls' records (after them, the warps of Plain cells), each on a stream of its own:
    /// all three run beside the bulk kernel (on one stream, a small box's step was the sum
    /// of the first two: the general path's few long warps, then the open faces' warps;
    /// room_heater_window.toml).
    template <class K>
    void launch_boundary(const K& k, cudaStream_t general, cudaStream_t open, cudaStream_t reflecting) {
        launch_general(k, general_cells_, general);
        launch_plain(k, reflecting);
        constexpr storage::index_t per_block = update_block_size / 32;
        // Each kernel inlines the record path.
        if (form_ == RecordForm::WholeWarps || form_ == RecordForm::AllWarps) {
            if (const auto n = storage::index_t(open_warps_.size()))
                record_warp_kernel<true><<<unsigned((n + per_block - 1) / per_block), update_block_size, 0, open>>>(
                    k, open_warps_.get(), n, records_.get(), cells_);
            const auto& walls = form_ == RecordForm::AllWarps ? all_warps_ : wall_warps_;
            if (const auto n = storage::index_t(walls.size()))
                record_warp_kernel<false><<<unsigned((n + per_block - 1) / per_block), update_block_size, 0,
                                            reflecting>>>(k, walls.get(), n, records_.get(), cells_);
            return;
        }
        if (const auto n = storage::index_t(open_records_.size()))
            reflecting_kernel<true><<<unsigned((n + update_block_size - 1) / update_block_size), update_block_size, 0,
                                      open>>>(k, open_records_.get(), n);
        const auto& walls = form_ == RecordForm::AllPacked ? all_cells_ : wall_records_;
        if (const auto n = storage::index_t(walls.size()))
            reflecting_kernel<false><<<unsigned((n + update_block_size - 1) / update_block_size), update_block_size, 0,
                                       reflecting>>>(k, walls.get(), n);
    }
    /// The bulk kernel's bit per warp of the warps updated whole (plan_skipped_warps).
    const std::uint32_t* skipped_warps() const { return skipped_warps_.get(); }
    /// A form of the records' update (RecordForm, Timed and None aside) and its blocks.
    struct Candidate {
        RecordForm form;
        std::vector<std::int32_t> schedule;  // Interleaved: step_kernel's blocks
        std::string name;                    // for BARRACUDA_FORM_TIMES
    };
    /// RecordForm::AllWarps: the walls' record warps and, in index order among them, every other
    /// warp with a bulk cell and no open face's record (a RecordWarp without record lanes,
    /// whose bulk cells record_warp_kernel updates as streaming records: the bulk update,
    /// bit for bit), so that no bulk kernel runs. Where nearly every warp holds a record (a
    /// porous medium in dense storage: 93% of the warps of a sphere pack at porosity 0.6),
    /// the bulk kernel's launch over the whole box skipped all but a few warps and took 13%
    /// of the step after the records' kernel (Nsight Compute, H200). Empty (no candidate)
    /// unless a quarter or more of the warps hold records, in a box layout without Plain
    /// cells (sparse storage's warps have their own kernel).
    std::vector<RecordWarp> every_warp(const std::vector<RecordWarp>& walls, const std::vector<RecordWarp>& open) const {
        const storage::index_t warps = (cells_ + 31) / 32;
        // Not on a subdomain of several ranks: its step (step_subdomain) runs the bulk kernel.
        if (!Kernel::Layout::narrow || !plain_warps_all_.empty() || !setup_.halo.messages.empty() ||
            4 * storage::index_t(walls.size() + open.size()) < warps)
            return {};
        std::vector<std::uint8_t> taken(std::size_t(warps), 0);
        for (const auto& w : open) taken[std::size_t(w.first_cell / 32)] = 1;
        std::vector<RecordWarp> all;
        std::size_t next = 0;
        for (storage::index_t w = 0; w < warps; ++w) {
            if (next < walls.size() && walls[next].first_cell == 32 * w) {
                all.push_back(walls[next++]);
                continue;
            }
            if (taken[std::size_t(w)]) continue;
            for (storage::index_t c = 32 * w; c < std::min(cells_, 32 * w + 32); ++c)
                if (host_class_[std::size_t(c)] == kernel::Bulk) {
                    all.push_back(RecordWarp{32 * w, 0, 0u});
                    break;
                }
        }
        return all;
    }
    /// RecordForm::AllPacked: the walls' records and a streaming record for every bulk cell, in
    /// index order, packed 32 to a warp (reflecting_kernel), and no bulk kernel: every lane
    /// a fluid cell, where a porous medium's whole warps leave a third or more of theirs on
    /// solid nodes, at 24 B read a cell more. Offered where every_warp is and the list
    /// takes at most an eighth of the GPU's free memory (the memory check before the run
    /// did not count it: 24 B a fluid cell beside FP16 in place's 39; the host holds it
    /// too until it is uploaded).
    std::vector<kernel::ReflectingCell> every_cell(const std::vector<kernel::ReflectingCell>& walls) const {
        std::size_t fluid = walls.size(), free = 0, total = 0;
        for (storage::index_t c = 0; c < cells_; ++c) fluid += host_class_[std::size_t(c)] == kernel::Bulk;
        check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
        if (fluid * sizeof(kernel::ReflectingCell) > free / 8) return {};
        std::vector<kernel::ReflectingCell> all;
        all.reserve(fluid);
        std::size_t next = 0;
        for (storage::index_t c = 0; c < cells_; ++c) {
            if (next < walls.size() && walls[next].cell == c) {
                all.push_back(walls[next++]);
                continue;
            }
            if (host_class_[std::size_t(c)] == kernel::Bulk)
                all.push_back(kernel::ReflectingCell::streaming(c, Kernel::thermal ? Kernel::Scalar::Q : 0));
        }
        return all;
    }
    /// The forms of the records' update (RecordForm): the records packed, beside the bulk
    /// kernel or interleaved with its blocks in one launch (step_kernel's schedules), the
    /// warps of 32 cells that hold them with the bit of each that bulk_kernel skips, every
    /// warp whole (every_warp) and every fluid cell packed (every_cell); the records and
    /// warps each split by whether a record is an open
    /// face's (its kernels run the open faces' code, the others run without it). The forms
    /// not in use are freed once one is chosen (keep_form). `records` in index order
    /// (kernel::split_boundary_cells).
    void plan_record_warps(const std::vector<kernel::ReflectingCell>& records) {
        std::vector<kernel::ReflectingCell> open_packed, walls_packed;
        for (const auto& r : records) (r.open() ? open_packed : walls_packed).push_back(r);
        open_records_ = upload(open_packed, "copy open face cells");
        wall_records_ = upload(walls_packed, "copy reflecting cells");
        all_cells_ = decltype(all_cells_)();
        std::vector<RecordWarp> open, walls;
        host_record_warps_.clear();
        for (std::size_t j = 0; j < records.size();) {
            const storage::index_t warp = records[j].cell / 32;
            RecordWarp w{32 * warp, storage::index_t(j), 0u};
            bool any_open = false;
            for (; j < records.size() && records[j].cell / 32 == warp; ++j) {
                if (j > 0 && records[j].cell <= records[j - 1].cell)
                    throw std::logic_error("records out of index order");
                w.lanes |= 1u << (records[j].cell % 32);
                any_open = any_open || records[j].open();
            }
            (any_open ? open : walls).push_back(w);
            host_record_warps_.push_back(std::uint32_t(warp));
        }
        records_ = upload(records, "copy reflecting cells");
        open_warps_ = upload(open, "copy record warps");
        all_warps_ = upload(every_warp(walls, open), "copy record warps");
        if (all_warps_.size() > 0) all_cells_ = upload(every_cell(walls_packed), "copy every cell's record");
        wall_warps_ = upload(walls, "copy record warps");
        // The candidates: whole warps, every warp whole and every fluid cell packed (where
        // offered), packed, interleaved with leads of 1, 2, 3 and 4 waves of resident
        // blocks, and every record block first.
        candidates_.clear();
        has_records_ = !records.empty();
        if (records.empty()) return keep_form(Candidate{default_form, {}, {}});
        auto named = [](RecordForm f) { return Candidate{f, {}, record_form_name(f)}; };
        candidates_.push_back(named(RecordForm::WholeWarps));
        if (all_warps_.size() > 0) candidates_.push_back(named(RecordForm::AllWarps));
        if (all_cells_.size() > 0) candidates_.push_back(named(RecordForm::AllPacked));
        candidates_.push_back(named(RecordForm::Packed));
        if constexpr (interleavable) {
            // The launched kernel's occupancy (in place: the even steps' kernel).
            using Launched = std::conditional_t<two_copy, Kernel, decltype(std::declval<Kernel>().template fixed<0>())>;
            int per_sm = 0, sms = 0;
            check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, step_kernel<Launched>, update_block_size, 0),
                  "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
            check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
            const storage::index_t wave = storage::index_t(std::max(1, per_sm * sms));
            for (const storage::index_t lead : {wave, 2 * wave, 3 * wave, 4 * wave, cells_})
                candidates_.push_back(
                    {RecordForm::Interleaved,
                     interleaved_schedule(cells_, update_block_size, open_packed, walls_packed, lead),
                     lead == cells_ ? "interleaved, every record block first"
                                    : "interleaved, " + std::to_string(lead / wave) + " waves ahead"});
        }
        // Timed only on one rank (a subdomain steps without graphs, its border first: its
        // kernels are bulk_kernel's and the records' own).
        const RecordForm asked = setup_.record_form;
        if (asked == RecordForm::Timed && setup_.halo.messages.empty()) {
            form_pending_ = true;
            trial_ = 0, trial_steps_ = 0, trial_ms_.assign(candidates_.size(), 0.0f);
            return;
        }
        RecordForm f = default_form;  // Timed on a subdomain, the default
        if (asked == RecordForm::WholeWarps || asked == RecordForm::Packed) f = asked;
        if (asked == RecordForm::Interleaved) f = interleavable ? RecordForm::Interleaved : RecordForm::Packed;
        if (asked == RecordForm::AllWarps && all_warps_.size() > 0) f = asked;
        if (asked == RecordForm::AllPacked && all_cells_.size() > 0) f = asked;
        for (auto& c : candidates_)  // the first of its form (interleaved: a lead of one wave)
            if (c.form == f) return keep_form(std::move(c));
    }
    /// Steps with one candidate's form; the graphs captured before are another's.
    void use_form(const Candidate& c) {
        form_ = c.form;
        if (c.form == RecordForm::Interleaved) schedule_ = upload(c.schedule, "copy the step's schedule");
        plan_skipped_warps();
        destroy_graphs();
    }
    /// The warps bulk_kernel skips in the form in use, a bit each, and those
    /// plain_warp_kernel runs: with whole warps, the records' warps (their Plain cells
    /// among them) and the other warps with Plain cells; packed or interleaved, every warp
    /// with Plain cells (its records, if any, packed apart).
    void plan_skipped_warps() {
        const bool whole = form_ == RecordForm::WholeWarps || form_ == RecordForm::AllWarps;
        std::vector<std::uint32_t> bits, plain;
        auto has = [&](std::uint32_t w) { return !bits.empty() && ((bits[w / 32] >> (w % 32)) & 1u); };
        auto mark = [&](std::uint32_t w) {
            if (bits.empty()) bits.assign(std::size_t((cells_ + 32 * 32 - 1) / (32 * 32)), 0u);
            bits[w / 32] |= 1u << (w % 32);
        };
        if (whole)
            for (const std::uint32_t w : host_record_warps_) mark(w);
        for (const std::uint32_t w : plain_warps_all_) {
            if (whole && has(w)) continue;  // a record warp: record_warp_kernel takes its Plain cells
            plain.push_back(w);
            mark(w);
        }
        skipped_warps_ = upload(bits, "copy skipped warps");
        plain_warps_ = upload(plain, "copy plain warps");
    }
    /// Drops the records of Plain cells (kernel/links.hpp, reflecting_cells.hpp's is_plain),
    /// flags their cells in the classes the GPU reads, and lists their warps in index order.
    /// BARRACUDA_RECORD_ALL=1 keeps every record (a diagnostic: the same run with and
    /// without Plain cells, bit for bit, to time one against the other).
    void take_plain_cells(std::vector<kernel::ReflectingCell>& records) {
        const auto layout = storage::layout_of<typename Store::layout_type>(setup_.grid);
        std::vector<std::uint8_t> plain(records.size());
#pragma omp parallel for schedule(static)
        for (std::int64_t j = 0; j < std::int64_t(records.size()); ++j)
            plain[std::size_t(j)] = kernel::is_plain<L>(layout, host_class_.data(), records[std::size_t(j)]);
        std::size_t kept = 0;
        plain_warps_all_.clear();
        for (std::size_t j = 0; j < records.size(); ++j) {
            if (!plain[j]) {
                records[kept++] = records[j];
                continue;
            }
            host_class_[std::size_t(records[j].cell)] |= kernel::Plain;
            const auto warp = std::uint32_t(records[j].cell / 32);
            if (plain_warps_all_.empty() || plain_warps_all_.back() != warp) plain_warps_all_.push_back(warp);
        }
        records.resize(kept);
        records.shrink_to_fit();
    }
    /// The captured graphs gone (captured again on the next call that runs them); no check:
    /// also called from the destructor.
    void destroy_graphs() noexcept {
        for (auto& by_phase : graph_)
            for (auto& g : by_phase)
                if (g) cudaGraphExecDestroy(g), g = nullptr;
    }
    /// Uses one form from here on and frees the others' arrays.
    void keep_form(Candidate c) {
        use_form(c);
        form_pending_ = false;
        candidates_.clear();
        if (form_ != RecordForm::WholeWarps && form_ != RecordForm::AllWarps)
            records_ = decltype(records_)(), open_warps_ = decltype(open_warps_)();
        if (form_ != RecordForm::WholeWarps) wall_warps_ = decltype(wall_warps_)();
        if (form_ != RecordForm::AllWarps) all_warps_ = decltype(all_warps_)();
        if (form_ != RecordForm::AllPacked) all_cells_ = decltype(all_cells_)();
        if (form_ == RecordForm::AllPacked) wall_records_ = decltype(wall_records_)();
        std::vector<std::uint32_t>().swap(host_record_warps_);
        std::vector<std::uint32_t>().swap(plain_warps_all_);
        if (form_ == RecordForm::WholeWarps || form_ == RecordForm::AllWarps)
            open_records_ = decltype(open_records_)(), wall_records_ = decltype(wall_records_)();
        if (form_ != RecordForm::Interleaved) schedule_ = decltype(schedule_)();
    }
    /// RecordForm::Timed: the run's own steps in each candidate form, and the fastest kept,
    /// a later candidate only where it saves more than 2% over the best before it (timing
    /// noise; whole warps, then packed, were the forms before). Every form gives the same
    /// update, bit for bit. Where the first call has the steps for all of them, each
    /// candidate's graph of graph_steps runs once untimed (its upload, a kernel's first
    /// launch loads it), then once timed: as the run will step. Otherwise (a run advances in
    /// chunks between its probes and samples: 18 steps in seed 004's room) one step untimed
    /// and graph_steps timed, launched one by one, over as many calls as it takes: timed so
    /// in a small box, the forms with fewer launches a step looked faster than they run in
    /// graphs (room_heater_window FP16, H200). Returns the steps taken, at most `steps`.
    std::int64_t try_forms(std::int64_t steps) {
        std::int64_t n = 0;
        if (!trial_start_) {
            check(cudaEventCreate(&trial_start_), "cudaEventCreate");
            check(cudaEventCreate(&trial_end_), "cudaEventCreate");
            trial_graphs_ = steps >= 2 * graph_steps * std::int64_t(candidates_.size());
        }
        auto timed = [&](auto&& launch) {
            check(cudaEventRecord(trial_start_, stream_), "cudaEventRecord");
            launch();
            check(cudaEventRecord(trial_end_, stream_), "cudaEventRecord");
            check(cudaEventSynchronize(trial_end_), "record form timing");
            float ms = 0;
            check(cudaEventElapsedTime(&ms, trial_start_, trial_end_), "cudaEventElapsedTime");
            trial_ms_[trial_] += ms;
        };
        while (form_pending_ && n < steps) {
            if (trial_graphs_) {
                use_form(candidates_[trial_]);
                cudaGraphExec_t g = capture_graph();
                check(cudaGraphLaunch(g, stream_), "graph launch");
                timed([&] { check(cudaGraphLaunch(g, stream_), "graph launch"); });
                check(cudaGraphExecDestroy(g), "cudaGraphExecDestroy");
                n += 2 * graph_steps;
            } else if (trial_steps_ == 0) {
                use_form(candidates_[trial_]);
                launch_one();
                ++n, ++trial_steps_;
                continue;
            } else {
                const std::int64_t k = std::min(steps - n, graph_steps + 1 - trial_steps_);
                timed([&] {
                    for (std::int64_t j = 0; j < k; ++j) launch_one();
                });
                n += k, trial_steps_ += k;
                if (trial_steps_ <= graph_steps) continue;
            }
            trial_steps_ = 0;
            if (++trial_ < candidates_.size()) continue;
            std::size_t best = 0;
            for (std::size_t c = 1; c < candidates_.size(); ++c)
                if (trial_ms_[c] < 0.98f * trial_ms_[best]) best = c;
            if (std::getenv("BARRACUDA_FORM_TIMES"))  // a diagnostic (docs/architecture.md, "Record warps")
                for (std::size_t c = 0; c < candidates_.size(); ++c)
                    std::fprintf(stderr, "record form %zu (%s): %.3f ms for %lld steps%s\n", c,
                                 candidates_[c].name.c_str(), double(trial_ms_[c]), static_cast<long long>(graph_steps),
                                 c == best ? ", kept" : "");
            keep_form(std::move(candidates_[best]));
        }
        return n;
    }
    /// The fields kernel once for the host arrays given (density, velocity, scalar: each
    /// where not null) through `d`, device memory for all of them (1, 3 and 1 values a
    /// cell), then one device-to-host copy of each.
    void download_fields(T* rho, T* u, T* theta, T* d) {
        T* const d_rho = rho ? d : nullptr;
        T* const d_u = u ? d + (rho ? cells_ : 0) : nullptr;
        T* const d_theta = theta ? d + (rho ? cells_ : 0) + (u ? 3 * cells_ : 0) : nullptr;
        refresh_field();
        fields_kernel<<<blocks(), block_size, 0, stream_>>>(make_observer(), d_rho, d_u, d_theta);
        check(cudaGetLastError(), "fields_kernel launch");
        const std::pair<T*, T*> copies[3] = {{rho, d_rho}, {u, d_u}, {theta, d_theta}};
        for (int j = 0; j < 3; ++j)
            if (copies[j].first)
                check(cudaMemcpyAsync(copies[j].first, copies[j].second, (j == 1 ? 3 : 1) * cells_ * sizeof(T),
                                      cudaMemcpyDeviceToHost, stream_),
                      "download fields");
        check(cudaStreamSynchronize(stream_), "fields_kernel");
    }
    /// Interpolated bounce-back through the store of the next step: after advance().
    void launch_walls() {
        const auto count = storage::index_t(wall_links_.size());
        if (count == 0) return;
        const kernel::InterpolatedWall<L, Store> w{make_store(), wall_links_.get(), exchanged_.get()};
        wall_kernel<<<blocks_for(count), block_size, 0, stream_>>>(w, count);
    }
    void advance() {
        if constexpr (two_copy) {
            a_.swap(b_);
            ga_.swap(gb_);
            swapped_ = !swapped_;
        } else {
            odd_ = !odd_;
        }
    }
    /// `count` steps from the current phase as a graph; the engine's phase as it was
    /// (advance() is its own inverse: an even count restores it, an odd one takes one more).
    cudaGraphExec_t capture_graph(std::int64_t count = graph_steps) {
        cudaGraph_t g = nullptr;
        cudaGraphExec_t exec = nullptr;
        check(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
        for (std::int64_t n = 0; n < count; ++n) launch_one();
        if (count % 2) advance();
        check(cudaStreamEndCapture(stream_, &g), "cudaStreamEndCapture");
        // The kernel nodes keep the priority of the stream they were captured on (side_).
        check(cudaGraphInstantiate(&exec, g, cudaGraphInstantiateFlagUseNodePriority), "cudaGraphInstantiate");
        check(cudaGraphDestroy(g), "cudaGraphDestroy");
        return exec;
    }

    /// A store of the pattern over host arrays with the engine's current phase;
    /// `previous` asks for the store of the step before the next one.
    Store host_store(S* a, bool previous, S* b = nullptr) const {
        if constexpr (two_copy) return previous ? Store{nullptr, a, cells_} : Store{a, b, cells_};
        else return Store{a, cells_, previous ? !odd_ : odd_};
    }
    Store make_store() const {
        if constexpr (two_copy) return Store{a_.get(), b_.get(), cells_, clock_.get()};
        else return Store{a_.get(), cells_, odd_, clock_.get()};
    }
    Gather make_gather() const {
        Gather g{};
        g.layout = storage::layout_of<typename Gather::Layout>(setup_.grid);
        if constexpr (tiled) {  // the GPU's copies of the tables
            g.layout.map = tile_map_.get();
            g.layout.origin = tile_origin_.get();
            g.layout.near = g.layout.near ? tile_near_.get() : nullptr;
        }
        g.faces = setup_.faces;
        g.node_class = class_.get();
        g.store = make_store();
        for (int d = 0; d < 3; ++d) g.force[d] = T(setup_.force[d]);
        return g;
    }
    ScalarStore make_scalar_store() const {
        if constexpr (two_copy) return ScalarStore{ga_.get(), gb_.get(), cells_, clock_.get()};
        else return ScalarStore{ga_.get(), cells_, odd_, clock_.get()};
    }
    Kernel make_kernel() const {
        Kernel k{make_gather(), collision_, backend::forced(setup_), setup_.forcing == physics::ForcingKind::Edm};
        k.scalar = make_part();
        return k;
    }
    /// The observer of the state the next step starts from (Shan-Chen: after refresh_field).
    Observer make_observer() const {
        Observer o{make_gather()};
        o.scalar = make_part();
        return o;
    }
    typename Kernel::Scalar make_part() const {
        if constexpr (binary) return make_binary_part<typename Kernel::Scalar>(setup_, make_scalar_store(), psi_.get());
        else if constexpr (coupled) return make_scalar_part<typename Kernel::Scalar>(setup_, make_scalar_store());
        else if constexpr (interacting) return make_pseudopotential_part<typename Kernel::Scalar>(setup_, psi_.get());
        else return {};
    }
    /// Shan-Chen: the macro-field pass on stream_, before a kernel that observes (after a step
    /// the field is that of the step before).
    void refresh_field() const {
        if constexpr (interacting) {
            macro_field_kernel<<<blocks(), block_size, 0, stream_>>>(make_observer());
            check(cudaGetLastError(), "macro_field_kernel launch");
            exchange_fields();
        }
    }
    /// The scalar's equilibrium of (theta, u), placed on the host and copied into both copies.
    void upload_scalar(const std::vector<double>& theta, const std::vector<double>& u) {
        if constexpr (coupled) {
            std::vector<S> g(ga_.size(), S{});
            ScalarStore prev;
            if constexpr (two_copy) prev = ScalarStore{nullptr, g.data(), cells_};
            else prev = ScalarStore{g.data(), cells_, !odd_};
            place_second<L, Eq, Ls>(setup_, host_class_, prev, theta, u);
            check(cudaMemcpy(ga_.get(), g.data(), g.size() * sizeof(S), cudaMemcpyHostToDevice), "upload scalar");
            if constexpr (two_copy)
                check(cudaMemcpy(gb_.get(), g.data(), g.size() * sizeof(S), cudaMemcpyHostToDevice), "upload scalar");
            exchange_initial();  // a subdomain's ghosts take the neighbours' (CpuEngine::initialize_scalar)
        }
    }

    EngineSetup setup_;
    std::int64_t cells_;
    DeviceArray<S> a_, b_;
    DeviceArray<S> ga_, gb_;  // a coupled scalar's populations, as a_ and b_
    DeviceArray<std::uint8_t> class_;
    DeviceArray<std::int32_t> tile_map_, tile_origin_, tile_near_;  // sparse storage (storage/tiles.hpp)
    bool has_boundary_ = false;                     // cells of class Boundary exist
    DeviceArray<storage::index_t> boundary_cells_;  // their list, with a coupled scalar (the heat balance's tally)
    DeviceArray<storage::index_t> general_cells_;   // those the general path updates (boundary_kernel)
    DeviceArray<kernel::ReflectingCell> records_;   // the others' records in whole warps, in index order
    /// The form a run starts from. FP16 storage starts from the packed form (where its
    /// kernels are bound by instruction issue, the record path's per-link choices on a
    /// face warp's bulk cells cost more than they save: docs/performance.md) and takes a
    /// whole-warp form only where the timed trial finds it faster (porous media, nearly
    /// every warp a record warp); the others start from whole warps.
    static constexpr RecordForm default_form = sizeof(S) == 2 ? RecordForm::Packed : RecordForm::WholeWarps;
    /// The interleaved form compiled: dense layouts. Sparse storage's bulk blocks read their
    /// neighbour tiles into shared memory first; step_kernel would do that too, but it has
    /// not run on a GPU with them yet (session 33 had no device time left for it).
    static constexpr bool interleavable = !std::is_same_v<typename Kernel::Layout, storage::TiledBox>;
    /// The forms of the records' update (plan_record_warps), the one in use and, while
    /// RecordForm::Timed has not chosen, the candidates and their times (try_forms).
    RecordForm form_ = default_form;
    bool form_pending_ = false;
    std::vector<Candidate> candidates_;
    std::size_t trial_ = 0;
    std::int64_t trial_steps_ = 0;
    bool trial_graphs_ = false;  // each candidate timed as one graph (try_forms)
    std::vector<float> trial_ms_;
    cudaEvent_t trial_start_ = nullptr, trial_end_ = nullptr;  // made at the first trial
    DeviceArray<kernel::ReflectingCell> open_records_, wall_records_;  // the records packed
    DeviceArray<kernel::ReflectingCell> all_cells_;  // AllPacked: wall_records_ and the bulk cells (every_cell)
    DeviceArray<std::int32_t> schedule_;  // step_kernel's blocks (interleaved_schedule)
    DeviceArray<RecordWarp> open_warps_, wall_warps_;  // the warps that hold them (record_warp_kernel)
    DeviceArray<RecordWarp> all_warps_;  // AllWarps: wall_warps_ and the warps of bulk cells alone (every_warp)
    DeviceArray<std::uint32_t> skipped_warps_;  // a bit per warp that bulk_kernel skips (plan_skipped_warps)
    DeviceArray<std::uint32_t> plain_warps_;    // the warps plain_warp_kernel runs, in index order
    // Until a form is kept: the warps with records (whole-warp form) and those with Plain cells.
    std::vector<std::uint32_t> host_record_warps_, plain_warps_all_;
    bool has_records_ = false;  // plan_record_warps had records: record_form_in_use
    DeviceArray<std::uint32_t> clock_;                // steps since initialisation (stochastic FP16 rounding)
    std::vector<std::uint8_t> host_class_;
    bool odd_ = false, swapped_ = false;
    DeviceArray<T> prev_u_;
    DeviceArray<T> psi_;  // Shan-Chen's field (macro_field_kernel)
    // Its exchange on several ranks (setup_field_halo).
    std::vector<std::size_t> field_message_at_, field_recv_message_at_;  // as message_at_ and recv_message_at_
    DeviceArray<storage::index_t> field_send_at_, field_recv_at_;
    DeviceArray<T> field_buf_;
    mutable std::vector<T> field_host_send_, field_host_recv_;
    DeviceArray<double> sums_;  // accumulate()'s running sums
    std::vector<std::int64_t> sample_cells_;  // sample()'s last cells, on the device in sample_at_
    DeviceArray<std::int64_t> sample_at_;
    DeviceArray<double> sample_out_;
    DeviceArray<double> flow_sums_;  // scalar_flows()'s sums
    DeviceArray<T> field_scratch_;  // the fields' downloads, kept between calls (scratch())
    DeviceArray<kernel::Partial> partials_;
    DeviceArray<double> face_values_[6];             // boundary::Parameters::values
    DeviceArray<double> scalar_face_values_[6];      // boundary::ScalarFaces::values
    DeviceArray<kernel::ForceLink> force_links_;     // every obstacle's links, one after another
    DeviceArray<storage::index_t> force_offsets_;    // obstacle k: [offsets[k], offsets[k + 1])
    DeviceArray<kernel::FixedSum> force_partials_;   // [obstacle][block][axis]
    DeviceArray<kernel::WallLink> wall_links_;       // interpolated bounce-back (kernel/interpolated_wall.hpp)
    DeviceArray<double> exchanged_;                  // per wall link: the momentum of its last step
    DeviceArray<storage::index_t> border_cells_;     // a subdomain's Border cells
    DeviceArray<storage::index_t> send_at_, recv_at_;  // halo offsets, all messages one after another
    DeviceArray<S> send_buf_, recv_buf_;
    std::vector<std::size_t> message_at_;            // message m: [message_at_[m], message_at_[m + 1])
    std::vector<std::size_t> recv_message_at_;       // ... in the receive buffer (its length may differ: sparse)
    S* host_send_ = nullptr;                         // pinned staging, when MPI is not CUDA-aware
    S* host_recv_ = nullptr;
    cudaStream_t interior_ = nullptr;                // a subdomain's interior update
    DeviceArray<S> recv_ipc_[2];                     // CUDA IPC: receive buffers, by step parity
    std::map<int, std::array<S*, 2>> ipc_open_;      // CUDA IPC: each neighbour's receive buffers
    std::vector<std::array<S*, 2>> ipc_remote_;      // CUDA IPC: where message m goes, by parity
    int parity_ = 0;
    unsigned force_blocks_ = 1;
    Collision collision_;
    cudaStream_t stream_ = nullptr;
    static constexpr int sides = 3;
    cudaStream_t side_[sides] = {};  // the boundary kernels' (launch_update): general, open faces', walls'
    cudaEvent_t fork_ = nullptr, join_[sides] = {};
    /// Graphs of graph_steps >> size steps, one per phase (step()).
    static constexpr int graph_sizes = 6;
    cudaGraphExec_t graph_[graph_sizes][2] = {};
};

}  // namespace barracuda::backend::cuda

namespace barracuda::backend {

/// The CUDA engine of one configuration (backend/makers.hpp; the generated units
/// instantiate it for each row of the configuration table).
template <lattice::Kind K, storage::Precision P, physics::EquilibriumKind E, physics::CollisionKind C,
          storage::Pattern S, lattice::CoupledKind X, storage::Storage St>
std::unique_ptr<Engine> make_cuda(const EngineSetup& s) {
    return make_configured<cuda::CudaEngine, K, P, E, C, S, X, St>(s);
}

}  // namespace barracuda::backend
