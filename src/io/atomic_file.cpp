#include "io/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "common/error.hpp"

namespace barracuda::io {

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
    write_file_atomically(path, std::span<const std::string_view>(&bytes, 1));
}

void write_file_atomically(const std::filesystem::path& path, std::span<const std::string_view> parts) {
    // The temporary lives in the target's directory so that rename() stays on
    // one file system, where POSIX makes it atomic; the pid keeps two
    // processes writing the same file from sharing a temporary.
    std::filesystem::path tmp = path;
    tmp += ".tmp-" + std::to_string(::getpid());

    const auto fail = [&](const char* step, int err) {
        throw OutputError("cannot write " + path.string() + " (" + step + "): " + std::strerror(err ? err : EIO));
    };

    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) fail("creating temporary file", errno);

    const char* step = nullptr;
    int err = 0;
    for (const auto& bytes : parts)
        if (!step && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) step = "writing", err = errno;
    if (!step && std::fflush(f) != 0) {
        step = "writing", err = errno;
    } else if (!step && ::fsync(::fileno(f)) != 0) {
        // Without fsync a crash after the rename could leave the new name
        // pointing at a file whose data never reached the disk.
        step = "syncing", err = errno;
    }
    if (std::fclose(f) != 0 && !step) step = "closing", err = errno;
    if (!step && std::rename(tmp.c_str(), path.c_str()) != 0) step = "renaming", err = errno;

    if (step) {
        std::remove(tmp.c_str());
        fail(step, err);
    }
}

}  // namespace barracuda::io
