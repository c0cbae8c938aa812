// IEEE 754 binary16 storage of shifted populations (FP16 storage, arithmetic in
// FP32). Shifted populations f_i - w_i are small (|f_i - w_i| < 0.5 in any
// stable flow), so binary16's range is ample; its 11-bit significand gives a
// relative rounding error of at most 2^-11 per stored value, and below 2^-14
// (6.1e-5) an absolute error of at most 2^-25 (subnormals). Both directions
// round to nearest, ties to even, identically on the host and on the GPU, so
// the CPU backend stays an exact oracle for the GPU's FP16 storage.
#pragma once
#include <cstdint>
#include <cstring>

#include "common/hd.hpp"

#if defined(__CUDACC__)
#include <cuda_fp16.h>
#endif

namespace barracuda::storage {

/// A binary16 value as stored in memory.
struct Half {
    std::uint16_t bits;
};

/// float -> binary16, round to nearest even; overflow to infinity, NaN kept NaN.
BARRACUDA_HD Half to_half(float value) {
#if defined(__CUDA_ARCH__)
    return Half{__half_as_ushort(__float2half_rn(value))};
#else
    std::uint32_t x;
    std::memcpy(&x, &value, 4);
    const std::uint16_t sign = std::uint16_t((x >> 16) & 0x8000u);
    x &= 0x7fffffffu;
    if (x >= 0x7f800000u) return Half{std::uint16_t(sign | (x > 0x7f800000u ? 0x7e00u : 0x7c00u))};
    if (x >= 0x477ff000u) return Half{std::uint16_t(sign | 0x7c00u)};  // >= 65520 rounds past 65504
    if (x >= 0x38800000u) {                                            // normal binary16
        // Re-bias the exponent (127 -> 15) and round the 13 dropped bits to even.
        const std::uint32_t rounded = x + 0x0fffu + ((x >> 13) & 1u);
        return Half{std::uint16_t(sign | ((rounded - 0x38000000u) >> 13))};
    }
    if (x <= 0x33000000u) return Half{sign};  // at most half the smallest subnormal: zero (ties to even)
    // Subnormal binary16: units of 2^-24.
    const std::uint32_t mantissa = (x & 0x007fffffu) | 0x00800000u;
    const int shift = 126 - int(x >> 23);  // 14..24
    std::uint32_t h = mantissa >> shift;
    const std::uint32_t rest = mantissa & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (h & 1u))) ++h;
    return Half{std::uint16_t(sign | h)};
#endif
}

/// float -> binary16, rounded toward zero (truncated); finite values beyond the
/// largest binary16 become it (65504), infinities stay infinite. On the GPU one
/// conversion instruction (cvt.rz.f16.f32); the host does the same in integers.
BARRACUDA_HD Half to_half_toward_zero(float value) {
#if defined(__CUDA_ARCH__)
    return Half{__half_as_ushort(__float2half_rz(value))};
#else
    std::uint32_t x;
    std::memcpy(&x, &value, 4);
    const std::uint16_t sign = std::uint16_t((x >> 16) & 0x8000u);
    x &= 0x7fffffffu;
    if (x > 0x7f800000u) return Half{0x7fffu};  // NaN (the GPU's canonical NaN)
    if (x == 0x7f800000u) return Half{std::uint16_t(sign | 0x7c00u)};
    if (x >= 0x47800000u) return Half{std::uint16_t(sign | 0x7bffu)};  // >= 65536: the largest finite
    if (x >= 0x38800000u) return Half{std::uint16_t(sign | ((x - 0x38000000u) >> 13))};  // normal: 13 bits cut
    if (x < 0x33800000u) return Half{sign};  // below 2^-24, the smallest subnormal
    // Subnormal binary16: units of 2^-24.
    const std::uint32_t mantissa = (x & 0x007fffffu) | 0x00800000u;
    return Half{std::uint16_t(sign | (mantissa >> (126 - int(x >> 23))))};  // shift 14..23
#endif
}

/// float -> binary16 with stochastic rounding: a uniform 13-bit word (the top bits of
/// `random`) added to the float's bits, then truncated toward zero. Where the result is
/// a normal binary16 number, exactly the 13 bits below its 10 kept ones are cut off, so
/// it rounds away from zero with probability equal to the fraction of a binary16 unit
/// cut off (a carry into the exponent gives the next binade's first value, as it
/// should): exact in expectation. Round-to-nearest is biased where a quantity changes
/// by less than half a unit per step: a slowly converging steady flow then stops short
/// of its solution (tests/test_precision.cpp measured 11% in a Poiseuille channel of 32
/// nodes); with stochastic rounding such changes accumulate. Below 2^-14 (binary16
/// subnormals) more than 13 bits are cut and the rounding leans toward zero by up to
/// one unit, 2^-24: the stores scale the flow's populations by 2^13 (access.hpp's
/// half_exponent) so that this happens only below 2^-27, far below any flow's resolution.
/// On the GPU: a shift and an add-with-maximum (one VIADDMNMX on sm_90) and one
/// conversion. The branchy integer rounding this replaces (every range handled in
/// integers) kept the FP16 kernels at 54% of the copy bandwidth (issue 20).
/// NaN stays NaN: the maximum keeps the bits of a NaN whose payload the word would
/// carry over into the sign bit (the GPU's canonical NaN, 0x7fffffff). Negative NaNs
/// with such payloads do not reach here on the GPU (arithmetic gives 0x7fffffff, and
/// stored NaNs convert back with zeros in their low 13 bits); the host's (x86 gives
/// 0xffc00000) are stored as the GPU's NaN, before any arithmetic on their bits.
///
/// E: the value is stored times 2^E (access.hpp's half_exponent). The power of two is
/// added to the float's exponent field in the same integer addition as the word (for
/// a normal float, bits + E 2^23 are the bits of value 2^E exactly): one instruction
/// a population less than a multiply, in kernels bound by instruction issue (issue
/// 20). It gives the product's result for every |value| < 2^(128 - E) and for NaN and
/// +infinity (a positive carry into the sign bit leaves the maximum with the value's
/// own bits, which truncate to the largest binary16 or stay infinite); beyond, where a
/// run has long diverged (binary16 keeps |value 2^E| <= 65504), a negative value's sum
/// wraps to a positive one near 0 and is stored as +0, on the GPU and the host alike.
template <int E = 0>
BARRACUDA_HD Half to_half_stochastic(float value, std::uint32_t random) {
    static_assert(E >= 0 && E < 64, "a non-negative power of two that keeps the exponent field");
    std::uint32_t bits;
#if defined(__CUDA_ARCH__)
    bits = __float_as_uint(value);
#else
    if (value != value) return Half{0x7fffu};  // the host's NaN (see above)
    std::memcpy(&bits, &value, 4);
#endif
    const std::uint32_t add = (random >> 19) + (std::uint32_t(E) << 23);
    const std::int32_t added = std::int32_t(bits + add), kept = std::int32_t(bits);
    const std::uint32_t up = std::uint32_t(added > kept ? added : kept);
#if defined(__CUDA_ARCH__)
    return to_half_toward_zero(__uint_as_float(up));
#else
    float v;
    std::memcpy(&v, &up, 4);
    return to_half_toward_zero(v);
#endif
}

/// A uniform 32-bit word from (cell, direction, step), reproducible on every
/// backend and pattern. One integer hash of (cell, step) per cell (the stores'
/// draw(), computed once per cell update) times an odd constant per direction: each draw stays uniform (multiplying by an odd
/// number permutes 32-bit words), which is all an unbiased rounding needs.
/// A full hash per population halved the FP16 kernels' speed on the H100.
BARRACUDA_HD std::uint32_t cell_draw(std::int64_t cell, std::uint32_t step) {
    std::uint32_t h = std::uint32_t(cell) * 0x9e3779b1u ^ std::uint32_t(cell >> 32) ^ (step * 0x85ebca77u);
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}
BARRACUDA_HD std::uint32_t direction_draw(std::uint32_t cell_word, int direction) {
    return cell_word * (0x2545f491u + 2u * std::uint32_t(direction) * 0x9e3779b9u);
}
BARRACUDA_HD std::uint32_t rounding_draw(std::int64_t cell, int direction, std::uint32_t step) {
    return direction_draw(cell_draw(cell, step), direction);
}

/// binary16 -> float (exact).
BARRACUDA_HD float to_float(Half h) {
#if defined(__CUDA_ARCH__)
    return __half2float(__ushort_as_half(h.bits));
#else
    const std::uint32_t sign = std::uint32_t(h.bits & 0x8000u) << 16;
    const std::uint32_t exponent = (h.bits >> 10) & 0x1fu, mantissa = h.bits & 0x3ffu;
    std::uint32_t x;
    if (exponent == 0) {
        const float v = float(mantissa) * 5.9604644775390625e-8f;  // 2^-24, exact
        std::memcpy(&x, &v, 4);
        x |= sign;
    } else if (exponent == 31) {
        x = sign | 0x7f800000u | (mantissa << 13);
    } else {
        x = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    }
    float out;
    std::memcpy(&out, &x, 4);
    return out;
#endif
}

/// 2^e as a float, for a compile-time e.
constexpr float power_of_two(int e) { return e >= 0 ? float(1ull << e) : 1.0f / float(1ull << -e); }

/// A stored value in the arithmetic type T. Binary16 holds the value times 2^E (the
/// store's half_exponent); multiplying by a power of two is exact, so the GPU's fused
/// multiply-add of the load and the host's two operations agree. (Stores convert the
/// other way in access.hpp's store_population, with a rounding word.)
template <class T, int E = 0, class S>
BARRACUDA_HD T from_storage(S s) {
    return T(s);
}
template <class T, int E = 0>
BARRACUDA_HD T from_storage(Half s) {
    return T(to_float(s) * power_of_two(-E));
}

}  // namespace barracuda::storage
