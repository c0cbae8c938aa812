// Streaming patterns (seed 003 §3.3): where a step reads and writes populations.
//  - TwoCopy ("AB"): read copy A, write copy B, swap. Two copies in memory.
//  - InPlace ("AA"): one copy; even steps read and write a cell's own slots,
//    odd steps read from and write to the neighbours' slots (storage/in_place.hpp).
#pragma once
#include <cstdint>

#include "storage/precision.hpp"

namespace barracuda::storage {

enum class Pattern { TwoCopy, InPlace };

constexpr const char* name_of(Pattern p) { return p == Pattern::TwoCopy ? "two-copy" : "in-place"; }
constexpr int copies_of(Pattern p) { return p == Pattern::TwoCopy ? 2 : 1; }

/// Device memory per cell: the populations of every copy plus the one-byte node kind.
constexpr std::int64_t memory_bytes_per_cell(int q, Precision p, Pattern pattern) {
    return std::int64_t(copies_of(pattern)) * q * bytes_of(p) + 1;
}

/// Bytes moved per cell update: Q populations read and Q written, plus the node kind.
constexpr std::int64_t bytes_per_cell_update(int q, Precision p) { return 2 * std::int64_t(q) * bytes_of(p) + 1; }

}  // namespace barracuda::storage
