// Portability macro: the per-cell physics is written once and compiled both by
// the host compiler (CPU backend, tests) and by nvcc (CUDA kernels).
#pragma once

// BARRACUDA_HD_OUTLINED: a large per-cell routine (the entropic collision's root
// solve) kept as one device function per type instead of inlined into every kernel
// variant: compile time on the 2-core CI machine, at the price of a call.
#if defined(__CUDACC__)
#define BARRACUDA_HD __host__ __device__ __forceinline__
#define BARRACUDA_HD_OUTLINED __host__ __device__ __noinline__
#define BARRACUDA_UNROLL _Pragma("unroll")
#else
#define BARRACUDA_HD inline
#define BARRACUDA_HD_OUTLINED inline
#if defined(__GNUC__) && !defined(__clang__)
#define BARRACUDA_UNROLL _Pragma("GCC unroll 32")
#else
#define BARRACUDA_UNROLL
#endif
#endif
