// Portability macro: the per-cell physics is written once and compiled both by
// the host compiler (CPU backend, tests) and by nvcc (CUDA kernels).
#pragma once

#if defined(__CUDACC__)
#define BARRACUDA_HD __host__ __device__ __forceinline__
#define BARRACUDA_UNROLL _Pragma("unroll")
#else
#define BARRACUDA_HD inline
#if defined(__GNUC__) && !defined(__clang__)
#define BARRACUDA_UNROLL _Pragma("GCC unroll 32")
#else
#define BARRACUDA_UNROLL
#endif
#endif
