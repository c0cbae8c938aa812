// Storage precision of the populations.
#pragma once

namespace barracuda::storage {

enum class Precision { FP64, FP32 };

constexpr const char* name_of(Precision p) { return p == Precision::FP64 ? "fp64" : "fp32"; }
constexpr int bytes_of(Precision p) { return p == Precision::FP64 ? 8 : 4; }

}  // namespace barracuda::storage
