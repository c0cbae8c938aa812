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
