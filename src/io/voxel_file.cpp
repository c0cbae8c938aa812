#include "io/voxel_file.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>

namespace barracuda::io {

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what); }

int bytes_of(VoxelType t) {
    switch (t) {
        case VoxelType::U8: return 1;
        case VoxelType::U16:
        case VoxelType::I16: return 2;
        case VoxelType::U32:
        case VoxelType::I32:
        case VoxelType::F32: return 4;
        case VoxelType::F64: break;
    }
    return 8;
}

double value_at(const unsigned char* p, VoxelType t, bool big_endian) {
    unsigned char b[8];
    const int k = bytes_of(t);
    for (int i = 0; i < k; ++i) b[i] = big_endian ? p[k - 1 - i] : p[i];  // to little-endian (the host's)
    switch (t) {
        case VoxelType::U8: return b[0];
        case VoxelType::U16: { std::uint16_t v; std::memcpy(&v, b, 2); return v; }
        case VoxelType::I16: { std::int16_t v; std::memcpy(&v, b, 2); return v; }
        case VoxelType::U32: { std::uint32_t v; std::memcpy(&v, b, 4); return v; }
        case VoxelType::I32: { std::int32_t v; std::memcpy(&v, b, 4); return v; }
        case VoxelType::F32: { float v; std::memcpy(&v, b, 4); return v; }
        case VoxelType::F64: break;
    }
    double v;
    std::memcpy(&v, b, 8);
    return v;
}

std::string lower_case(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string trimmed(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::optional<VoxelType> nrrd_type(const std::string& name) {
    static const std::map<std::string, VoxelType> names = {
        {"uchar", VoxelType::U8},          {"unsigned char", VoxelType::U8},  {"uint8", VoxelType::U8},
        {"uint8_t", VoxelType::U8},        {"ushort", VoxelType::U16},        {"unsigned short", VoxelType::U16},
        {"unsigned short int", VoxelType::U16}, {"uint16", VoxelType::U16},   {"uint16_t", VoxelType::U16},
        {"short", VoxelType::I16},         {"short int", VoxelType::I16},     {"signed short", VoxelType::I16},
        {"signed short int", VoxelType::I16}, {"int16", VoxelType::I16},      {"int16_t", VoxelType::I16},
        {"uint", VoxelType::U32},          {"unsigned int", VoxelType::U32},  {"uint32", VoxelType::U32},
        {"uint32_t", VoxelType::U32},      {"int", VoxelType::I32},           {"signed int", VoxelType::I32},
        {"int32", VoxelType::I32},         {"int32_t", VoxelType::I32},       {"float", VoxelType::F32},
        {"double", VoxelType::F64}};
    const auto it = names.find(lower_case(name));
    if (it == names.end()) return std::nullopt;
    return it->second;
}

/// The gzip (or zlib) stream `in` inflated to exactly `size` bytes. The output grows as
/// the stream yields it (1 MiB at a time), so a header whose sizes promise more than
/// the data holds costs no more memory than the data.
std::string inflate_exactly(const std::string& in, std::size_t size) {
    std::string out;
    z_stream z{};
    if (inflateInit2(&z, 15 + 32) != Z_OK) fail("cannot start gzip decoding");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    std::size_t in_left = in.size();
    int rc = Z_OK;
    while (rc == Z_OK && out.size() < size + 1) {
        const std::size_t chunk = std::min<std::size_t>(size + 1 - out.size(), std::size_t(1) << 20);
        const std::size_t at = out.size();
        out.resize(at + chunk);
        const uInt in_chunk = uInt(std::min<std::size_t>(in_left, 1u << 30));
        z.next_out = reinterpret_cast<Bytef*>(out.data() + at);
        z.avail_in = in_chunk, z.avail_out = uInt(chunk);
        rc = inflate(&z, Z_NO_FLUSH);
        in_left -= in_chunk - z.avail_in;
        out.resize(at + chunk - z.avail_out);
        if (rc == Z_BUF_ERROR && in_left == 0) break;  // the input ended before the stream did
        if (rc == Z_BUF_ERROR) rc = Z_OK;
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END || out.size() != size)
        fail("its gzip data is damaged or does not hold the " + std::to_string(size) + " bytes its header's sizes need" +
             (rc == Z_STREAM_END ? " (" + std::to_string(out.size()) + " found)" : ""));
    return out;
}

geometry::Voxels label(const unsigned char* data, const RawLayout& l, const VoxelLabels& labels) {
    geometry::Voxels v;
    v.n = l.n;
    const std::size_t count = std::size_t(l.n[0]) * std::size_t(l.n[1]) * std::size_t(l.n[2]);
    v.solid.resize(count);
    const int k = bytes_of(l.type);
    for (std::size_t i = 0; i < count; ++i) {
        const double value = value_at(data + i * std::size_t(k), l.type, l.big_endian);
        if (std::isnan(value)) fail("voxel " + std::to_string(i) + " is not a number");
        v.solid[i] = labels.is_solid(value) ? 1 : 0;
    }
    return v;
}

std::uint64_t voxel_count(const std::array<int, 3>& n) {
    for (int s : n)
        if (s < 1 || s > 65536) fail("dimensions must be 1 to 65536 each (given " + std::to_string(s) + ")");
    return std::uint64_t(n[0]) * std::uint64_t(n[1]) * std::uint64_t(n[2]);
}

geometry::Voxels parse_nrrd(const std::string& bytes, const VoxelLabels& labels) {
    const std::size_t end = bytes.find("\n\n");
    if (end == std::string::npos) fail("an NRRD header must end with an empty line before the data");
    std::istringstream header(bytes.substr(0, end));
    std::string line;
    std::getline(header, line);  // NRRD000x
    std::map<std::string, std::string> fields;
    int number = 1;
    while (std::getline(header, line)) {
        ++number;
        if (line.empty() || line[0] == '#' || line.find(":=") != std::string::npos) continue;
        const auto colon = line.find(": ");
        if (colon == std::string::npos)
            fail("NRRD header line " + std::to_string(number) + ": expected 'field: value'");
        fields[lower_case(trimmed(line.substr(0, colon)))] = trimmed(line.substr(colon + 2));
    }
    auto need = [&](const char* k) -> const std::string& {
        const auto it = fields.find(k);
        if (it == fields.end()) fail(std::string("the NRRD header has no '") + k + "' field");
        return it->second;
    };
    if (fields.count("data file") || fields.count("datafile"))
        fail("the NRRD header names a detached data file: give a file holding its data (save as .nrrd, not .nhdr)");
    for (const char* skip : {"line skip", "lineskip", "byte skip", "byteskip"})
        if (fields.count(skip) && fields[skip] != "0") fail(std::string("NRRD '") + skip + "' is not offered");
    RawLayout l;
    const auto type = nrrd_type(need("type"));
    if (!type) fail("NRRD type '" + need("type") + "' is not offered (8, 16 and 32-bit integers, float, double)");
    l.type = *type;
    if (trimmed(need("dimension")) != "3") fail("NRRD dimension " + need("dimension") + ": a voxel image needs 3");
    std::istringstream sizes(need("sizes"));
    for (int& s : l.n)
        if (!(sizes >> s)) fail("NRRD sizes '" + need("sizes") + "': three whole numbers needed");
    const std::string encoding = lower_case(need("encoding"));
    if (encoding != "raw" && encoding != "gzip" && encoding != "gz")
        fail("NRRD encoding '" + encoding + "' is not offered (raw or gzip)");
    if (bytes_of(l.type) > 1) {
        const std::string endian = lower_case(need("endian"));
        if (endian != "little" && endian != "big") fail("NRRD endian '" + endian + "': little or big");
        l.big_endian = endian == "big";
    }
    const std::uint64_t need_bytes = voxel_count(l.n) * std::uint64_t(bytes_of(l.type));
    const std::string data = bytes.substr(end + 2);
    if (encoding == "raw") {
        if (data.size() != need_bytes)
            fail("its data has " + std::to_string(data.size()) + " bytes where the header's sizes and type need " +
                 std::to_string(need_bytes) + " (truncated, or another size)");
        return label(reinterpret_cast<const unsigned char*>(data.data()), l, labels);
    }
    if (need_bytes > (std::uint64_t(1) << 36)) fail("larger than 64 GiB once decompressed");
    const std::string plain = inflate_exactly(data, std::size_t(need_bytes));
    return label(reinterpret_cast<const unsigned char*>(plain.data()), l, labels);
}

}  // namespace

geometry::Voxels parse_voxels(const std::string& bytes, const std::optional<RawLayout>& raw, const VoxelLabels& labels) {
    if (bytes.compare(0, 7, "NRRD000") == 0) {
        if (raw) fail("it is an NRRD file, whose header gives its dimensions, type and byte order: leave those keys out");
        return parse_nrrd(bytes, labels);
    }
    if (!raw) fail("not an NRRD file (no 'NRRD000' at its start): a raw file needs dimensions and type");
    const std::uint64_t need = voxel_count(raw->n) * std::uint64_t(bytes_of(raw->type));
    if (bytes.size() != need)
        fail("it has " + std::to_string(bytes.size()) + " bytes where " + std::to_string(raw->n[0]) + " x " +
             std::to_string(raw->n[1]) + " x " + std::to_string(raw->n[2]) + " voxels of " +
             std::to_string(bytes_of(raw->type)) + " bytes need " + std::to_string(need) +
             " (truncated, or other dimensions or type)");
    return label(reinterpret_cast<const unsigned char*>(bytes.data()), *raw, labels);
}

}  // namespace barracuda::io
