// Storage precision of the populations. FP16 storage keeps IEEE binary16
// values of the shifted populations f_i - w_i and computes in FP32
// (storage/half.hpp); FP64 and FP32 compute in the storage precision.
#pragma once

namespace barracuda::storage {

enum class Precision { FP64, FP32, FP16 };

constexpr const char* name_of(Precision p) {
    return p == Precision::FP64 ? "fp64" : p == Precision::FP32 ? "fp32" : "fp16";
}
constexpr int bytes_of(Precision p) { return p == Precision::FP64 ? 8 : p == Precision::FP32 ? 4 : 2; }
/// Bytes of the arithmetic type (FP16 storage computes in FP32): per-cell fields such as
/// Shan-Chen's psi are kept in it.
constexpr int compute_bytes_of(Precision p) { return p == Precision::FP64 ? 8 : 4; }

}  // namespace barracuda::storage
