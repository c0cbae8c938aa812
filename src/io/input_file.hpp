// The whole content of an input file a case names (an STL surface, a voxel image),
// read before anything is allocated for the run.
#pragma once
#include <cstdint>
#include <string>

namespace barracuda::io {

/// The bytes of `path`. Throws std::runtime_error, without the path (callers name
/// the key and the file): it cannot be opened (with the system's reason), it is not a
/// regular file (a device or a pipe such as /dev/zero would be read for ever), it is
/// larger than `max_bytes` (then `too_large` is the message), or reading failed.
std::string read_input_file(const std::string& path, std::uintmax_t max_bytes = UINTMAX_MAX,
                            const std::string& too_large = "");

}  // namespace barracuda::io
