// The GPU's interleaved records (backend/interleave.hpp): the schedule names every bulk
// block once, in order, and every record block once, `lead` bulk blocks ahead of the
// bulk block of its first cell. The GPU runs it (step_kernel); that the interleaved form
// updates every cell as the other forms do is GpuOracle.RecordFormsAgreeBitForBit's.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <vector>

#include "backend/interleave.hpp"

namespace barracuda {
namespace {

std::vector<kernel::ReflectingCell> records_at(const std::vector<std::int64_t>& cells) {
    std::vector<kernel::ReflectingCell> out;
    for (const auto c : cells) out.push_back({c, 1u, 0u, 0u, -1});
    return out;
}

TEST(Interleave, EveryBlockOnceTheRecordsAheadOfTheirCells) {
    constexpr int block = 4;
    const std::int64_t cells = 101;  // 26 bulk blocks, the last one partial
    // Records as a plane normal to x lies in a box of rows of 10: one cell in every row.
    std::vector<std::int64_t> open_cells, wall_cells;
    for (std::int64_t c = 9; c < cells; c += 10) open_cells.push_back(c);
    for (std::int64_t c = 0; c < cells; c += 10) wall_cells.push_back(c);
    const auto open = records_at(open_cells), walls = records_at(wall_cells);
    for (const std::int64_t lead : {0, 1, 3, 1000}) {
        SCOPED_TRACE(lead);
        const auto schedule = backend::interleaved_schedule(cells, block, open, walls, lead);
        const std::size_t record_blocks = (open.size() + block - 1) / block + (walls.size() + block - 1) / block;
        ASSERT_EQ(schedule.size(), std::size_t(26) + record_blocks);
        std::int64_t next_bulk = 0;
        std::map<std::pair<bool, std::int64_t>, int> seen;  // (open, first record) -> times
        for (std::size_t k = 0; k < schedule.size(); ++k) {
            const auto b = backend::scheduled_block(schedule[k], block);
            if (b.bulk) {
                EXPECT_EQ(b.first, next_bulk * block) << "bulk blocks in order, each once";
                ++next_bulk;
                continue;
            }
            ++seen[{b.open, b.first}];
            const auto& list = b.open ? open : walls;
            ASSERT_LT(std::size_t(b.first), list.size());
            EXPECT_EQ(b.first % block, 0);
            // Right before the bulk block `lead` ahead of its first record's (at the start at the most).
            const std::int64_t at = std::max<std::int64_t>(0, list[std::size_t(b.first)].cell / block - lead);
            EXPECT_EQ(next_bulk, at) << "record block of cell " << list[std::size_t(b.first)].cell;
        }
        EXPECT_EQ(next_bulk, 26);
        EXPECT_EQ(seen.size(), record_blocks);
        for (const auto& [key, times] : seen) EXPECT_EQ(times, 1);
    }
    EXPECT_TRUE(backend::interleaved_schedule(cells, block, {}, {}, 1).empty()) << "no records, no schedule";
    // Past what an int32 names: refused, not wrapped.
    EXPECT_THROW(backend::interleaved_schedule(std::int64_t(1) << 40, block, open, walls, 1), std::length_error);
}

}  // namespace
}  // namespace barracuda
