#include "io/checkpoint.hpp"

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "common/error.hpp"
#include "io/atomic_file.hpp"

namespace barracuda::io {
namespace {

constexpr std::string_view magic = "BARRACUDA-CHECKPOINT\n";
// 2: the caller's tag after the time (7cdfdfe); a version-1 file is refused by name.
constexpr std::uint32_t version = 2;

template <class V>
void put(std::string& out, const V& v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof(V));
}
template <class E>
void put_array(std::string& out, const E* data, std::size_t n) {
    put(out, std::uint64_t(n));
    out.append(reinterpret_cast<const char*>(data), n * sizeof(E));
}

/// Reads the file's bytes in order; every read checks that they are there.
struct Reader {
    const std::string& bytes;
    const std::filesystem::path& path;
    std::size_t at = 0;

    void need(std::size_t n) const {
        if (bytes.size() - at < n)
            throw OutputError("checkpoint " + path.string() + ": truncated (" + std::to_string(bytes.size()) +
                              " bytes)");
    }
    void need_elements(std::uint64_t n, std::size_t size) const {
        if (n > (bytes.size() - at) / size) need(bytes.size() - at + 1);
    }
    template <class V>
    V get() {
        need(sizeof(V));
        V v;
        std::memcpy(&v, bytes.data() + at, sizeof(V));
        at += sizeof(V);
        return v;
    }
    template <class E>
    std::vector<E> get_array() {
        const auto n = get<std::uint64_t>();
        need_elements(n, sizeof(E));
        std::vector<E> v(n);
        if (n) std::memcpy(v.data(), bytes.data() + at, n * sizeof(E));
        at += n * sizeof(E);
        return v;
    }
};

}  // namespace

void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c) {
    std::string out(magic);
    put(out, version);
    put(out, c.time);
    put_array(out, c.tag.data(), c.tag.size());
    put_array(out, c.state.engine.data(), c.state.engine.size());
    put(out, std::uint8_t(c.state.odd));
    put(out, c.state.clock);
    put_array(out, c.state.populations.data(), c.state.populations.size());
    put_array(out, c.state.wall_momenta.data(), c.state.wall_momenta.size());
    put_array(out, c.values.data(), c.values.size());
    write_file_atomically(path, out);
}

std::optional<Checkpoint> read_checkpoint(const std::filesystem::path& path) {
    std::error_code ec;
    const bool there = std::filesystem::exists(path, ec);
    if (ec) throw OutputError("cannot look for checkpoint " + path.string() + ": " + ec.message());
    if (!there) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw OutputError("cannot read checkpoint " + path.string());
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (bytes.compare(0, magic.size(), magic) != 0)
        throw OutputError("checkpoint " + path.string() + ": not a Barracuda checkpoint");
    Reader r{bytes, path, magic.size()};
    if (const auto v = r.get<std::uint32_t>(); v != version)
        throw OutputError("checkpoint " + path.string() + ": version " + std::to_string(v) + ", this build reads " +
                          std::to_string(version));
    Checkpoint c;
    c.time = r.get<std::int64_t>();
    const auto tag = r.get_array<char>();
    c.tag.assign(tag.begin(), tag.end());
    const auto key = r.get_array<char>();
    c.state.engine.assign(key.begin(), key.end());
    c.state.odd = r.get<std::uint8_t>() != 0;
    c.state.clock = r.get<std::uint32_t>();
    c.state.populations = r.get_array<std::uint8_t>();
    c.state.wall_momenta = r.get_array<double>();
    c.values = r.get_array<double>();
    if (r.at != bytes.size())
        throw OutputError("checkpoint " + path.string() + ": " + std::to_string(bytes.size() - r.at) +
                          " bytes after the end");
    return c;
}

}  // namespace barracuda::io
