// Files are written under a temporary name in the same directory and renamed
// into place, so a reader (or a crash) never sees half a file.
#pragma once
#include <filesystem>
#include <string_view>

namespace barracuda::io {

/// Writes bytes to path atomically (temporary file + fsync + rename). Throws OutputError.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace barracuda::io
