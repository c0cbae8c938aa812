// Files are written under a temporary name in the same directory and renamed
// into place, so a reader (or a crash) never sees half a file.
#pragma once
#include <filesystem>
#include <span>
#include <string_view>

namespace barracuda::io {

/// Writes bytes to path atomically (temporary file + fsync + rename). Throws OutputError.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);
/// The same for a file made of several parts, written one after the other (no copy
/// joins them: a checkpoint's populations can be most of the host's memory).
void write_file_atomically(const std::filesystem::path& path, std::span<const std::string_view> parts);

}  // namespace barracuda::io
