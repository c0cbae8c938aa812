// libFuzzer target: the checkpoint reader (io/checkpoint.hpp) on arbitrary file
// contents. Any input must end in a checkpoint (a valid file whose checksum
// matches) or an OutputError; sizes in the file never make it allocate beyond
// the file's own size.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "common/error.hpp"
#include "io/checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path =
        (std::filesystem::temp_directory_path() / ("barracuda-fuzz-checkpoint-" + std::to_string(::getpid()) + ".bin")).string();
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
        if (size) std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
    try {
        barracuda::io::read_checkpoint_time(path);
        barracuda::io::read_checkpoint(path);
    } catch (const barracuda::OutputError&) {
    }
    return 0;
}
