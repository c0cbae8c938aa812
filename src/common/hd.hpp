// Portability macro: the per-cell physics is written once and compiled both by
// the host compiler (CPU backend, tests) and by nvcc (CUDA kernels).
#pragma once

// BARRACUDA_HD_OUTLINED: a large per-cell routine (the entropic collision's root
// solve) kept as one device function per type instead of inlined into every kernel
// variant: compile time on the 2-core CI machine, at the price of a call.
// BARRACUDA_HD_HOT: a small routine called once per population inside the
// unrolled loops (the equilibrium, the moments): inlined by the host compiler too,
// which otherwise keeps it as a call per population (seen: 56% of a D2Q9 CPU
// step in such calls). Forcing every BARRACUDA_HD function inline on the host
// instead made one D3Q27 unit compile for ten minutes.
#if defined(__CUDACC__)
#define BARRACUDA_HD_HOT __host__ __device__ __forceinline__
#elif defined(__GNUC__)
#define BARRACUDA_HD_HOT inline __attribute__((always_inline))
#else
#define BARRACUDA_HD_HOT inline
#endif

#if defined(__CUDACC__)
#define BARRACUDA_HD __host__ __device__ __forceinline__
#define BARRACUDA_HD_OUTLINED __host__ __device__ __noinline__
#define BARRACUDA_UNROLL _Pragma("unroll")
#else
#define BARRACUDA_HD inline
#define BARRACUDA_HD_OUTLINED inline
#endif
#if !defined(__CUDACC__)
#if defined(__GNUC__) && !defined(__clang__)
#define BARRACUDA_UNROLL _Pragma("GCC unroll 32")
#else
#define BARRACUDA_UNROLL
#endif
#endif

namespace barracuda {

/// a * b, never fused into a neighbouring addition. The GPU compiler fuses a product
/// into the sum that uses it (one multiply-add, one rounding fewer) at its own choice
/// where the choice is open: a sum of two products, a * b + c * d (either may be
/// fused), and a product used by several sums (fused into some, kept for others). It
/// chose differently in kernels that inline the same cell function, so the record
/// forms of backend/cuda, which must agree bit for bit, parted by an ulp (measured on
/// the H200: 9,964 of 80,640 values after one step of the small room; the same tree
/// built with --fmad=false agreed, and so did this one once the products that feed two
/// sums, and one of each pair of products in a sum, went through here). The host
/// compiles without contraction (CMakeLists.txt: -ffp-contract=off).
template <class T>
BARRACUDA_HD_HOT T unfused_product(T a, T b) {
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(T) == 4) return __fmul_rn(a, b);
    else return __dmul_rn(a, b);
#else
    return a * b;
#endif
}

/// a + b, never fused with a product that a or b is: where both are products (a sum of
/// velocity components, each a momentum times 1/rho), the same choice as in
/// unfused_product would be left to the compiler.
template <class T>
BARRACUDA_HD_HOT T unfused_sum(T a, T b) {
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(T) == 4) return __fadd_rn(a, b);
    else return __dadd_rn(a, b);
#else
    return a + b;
#endif
}

}  // namespace barracuda
