#include "io/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace barracuda::io {

std::string read_input_file(const std::string& path, std::uintmax_t max_bytes, const std::string& too_large) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(std::string("cannot open it (") + std::strerror(errno) + ")");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw std::runtime_error("not a regular file");
    if (max_bytes != UINTMAX_MAX) {
        const auto size = std::filesystem::file_size(path, ec);
        if (ec || size > max_bytes) throw std::runtime_error(too_large);
    }
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (in.bad()) throw std::runtime_error("cannot read it");
    return bytes.str();
}

}  // namespace barracuda::io
