// Checkpoints: the state a run continues from (backend::EngineState), its time
// step and a few numbers of the caller's (a running mean, say), in one binary
// file written atomically (io/atomic_file.hpp). A run that is stopped (a time
// limit, a crash) goes on from its last checkpoint and gives bit for bit what it
// would have given without the stop.
//
// Layout (host byte order; the file is for the same kind of machine):
//   "BARRACUDA-CHECKPOINT\n", u32 version
//   i64 time, u64 n + the caller's tag, u64 n + engine key, u8 odd, u32 clock,
//   u64 n + population bytes, u64 n + wall momenta (f64), u64 n + caller's values (f64),
//   u32 CRC-32 (zlib) of every byte before it
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "backend/engine.hpp"

namespace barracuda::io {

struct Checkpoint {
    std::int64_t time = 0;
    /// What the caller's run is (its parameters), checked on resuming: the engine's key
    /// does not hold the case (viscosity, faces, obstacles).
    std::string tag;
    backend::EngineState state;
    std::vector<double> values;  // the caller's
};

/// Writes atomically. Throws OutputError.
void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c);
/// Reads a checkpoint; std::nullopt when the file does not exist. Throws OutputError
/// when it exists but is not a whole checkpoint of this version.
std::optional<Checkpoint> read_checkpoint(const std::filesystem::path& path);
/// The time step of a checkpoint from its header alone; std::nullopt when the file
/// does not exist. Throws OutputError when it is not a checkpoint of this version.
std::optional<std::int64_t> read_checkpoint_time(const std::filesystem::path& path);

}  // namespace barracuda::io
