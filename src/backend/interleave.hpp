// The schedule of the GPU's interleaved form of the records' update (backend::RecordForm::
// Interleaved; step_kernel in backend/cuda/cuda_engine.cuh): one launch a step whose
// blocks are the bulk kernel's and the packed records', named by one int32 a block. Host
// code that the kernel decodes, here so that the CPU tests check it (tests/test_interleave.cpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/hd.hpp"
#include "kernel/reflecting_cells.hpp"

namespace barracuda::backend {

/// What block b of the launch updates: entry >= 0, the bulk block of that number (cells
/// entry * block on); else, for r = -1 - entry, `block` records of the open faces' list
/// (r odd) or of the walls' (r even), from r / 2 * block on. step_kernel decodes its
/// entries with it; the tests check it against the schedules made here.
struct ScheduledBlock {
    bool bulk;
    bool open;
    std::int64_t first;  // the block's first cell (bulk) or first record (its list)
};
BARRACUDA_HD ScheduledBlock scheduled_block(std::int32_t entry, int block) {
    if (entry >= 0) return {true, false, std::int64_t(entry) * block};
    const std::int32_t r = -1 - entry;
    return {false, (r & 1) != 0, std::int64_t(r / 2) * block};
}

/// The bulk blocks of `cells` in order, each record block (`block` records of one list,
/// in index order) placed `lead` bulk blocks before the bulk block of its first record's
/// cell (at the start where that is before the first). Blocks start in about the order of
/// their numbers: a record block then runs a while before the bulk blocks of its cells, so
/// that it is done before the step's last bulk blocks, and near enough that the sectors it
/// shares with them are still in L2 (docs/performance.md). None without records.
inline std::vector<std::int32_t> interleaved_schedule(std::int64_t cells, int block,
                                                      const std::vector<kernel::ReflectingCell>& open,
                                                      const std::vector<kernel::ReflectingCell>& walls,
                                                      std::int64_t lead) {
    std::vector<std::int32_t> schedule;
    if (open.empty() && walls.empty()) return schedule;
    const std::int64_t bulk = (cells + block - 1) / block;
    const std::int64_t records = std::int64_t(open.size() + walls.size()) / block + 2;
    if (bulk + records >= (std::int64_t(1) << 31)) throw std::length_error("interleaved_schedule: more blocks than an int32 names");
    std::vector<std::pair<std::int64_t, std::int32_t>> placed;  // (bulk block it precedes, entry)
    for (int odd = 0; odd < 2; ++odd) {
        const auto& list = odd ? open : walls;
        for (std::size_t first = 0, r = 0; first < list.size(); first += std::size_t(block), ++r)
            placed.emplace_back(std::max<std::int64_t>(0, list[first].cell / block - lead), -1 - std::int32_t(2 * r + odd));
    }
    std::stable_sort(placed.begin(), placed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    schedule.reserve(std::size_t(bulk) + placed.size());
    std::size_t next = 0;
    for (std::int64_t b = 0; b < bulk; ++b) {
        for (; next < placed.size() && placed[next].first == b; ++next) schedule.push_back(placed[next].second);
        schedule.push_back(std::int32_t(b));
    }
    return schedule;
}

}  // namespace barracuda::backend
