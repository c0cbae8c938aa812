#include "io/voxel_file.hpp"

#include <png.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

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

// ---- VTK XML image data (.vti) -----------------------------------------------------------------
// The layout of the VTK XML file-format documentation (also io/vtk.cpp, which writes
// it): one scalar array of <PointData> (a value per point: the voxels are the
// points) or else <CellData> (a value per cell), inline ("ascii", or "binary":
// base64) or in <AppendedData> ("raw" or "base64"), each binary array a header of
// header_type integers (uncompressed: its byte count; vtkZLibDataCompressor: the
// block count, the block size, the last block's size, each block's compressed size)
// then the data. Origin and Spacing of the file are not used: the case places the
// image (translate, spacing).

/// The value of attribute `name` in the tag text `tag`, or "".
std::string attribute(const std::string& tag, const std::string& name) {
    std::size_t at = 0;
    while ((at = tag.find(name + "=\"", at)) != std::string::npos) {
        if (at == 0 || std::isspace(static_cast<unsigned char>(tag[at - 1]))) {
            const auto begin = at + name.size() + 2, end = tag.find('"', begin);
            if (end == std::string::npos) fail("VTI: attribute " + name + " has no closing quote");
            return tag.substr(begin, end - begin);
        }
        at += name.size();
    }
    return "";
}

/// The text of the first tag `<name ...>` at or after `from` (without < and >), and where it ends.
std::pair<std::string, std::size_t> find_tag(const std::string& bytes, const std::string& name, std::size_t from,
                                             std::size_t until = std::string::npos) {
    std::size_t at = from;
    while ((at = bytes.find("<" + name, at)) != std::string::npos && at < until) {
        const char next = at + name.size() + 1 < bytes.size() ? bytes[at + name.size() + 1] : '\0';
        if (std::isspace(static_cast<unsigned char>(next)) || next == '>' || next == '/') {
            const auto end = bytes.find('>', at);
            if (end == std::string::npos) fail("VTI: the <" + name + "> tag is not closed");
            return {bytes.substr(at + 1, end - at - 1), end + 1};
        }
        at += name.size() + 1;
    }
    return {"", std::string::npos};
}

/// base64 text decoded, whitespace skipped; a chunk ends at its '=' padding and the
/// next begins after it (VTK encodes a compressed array's header apart from its data).
std::string base64_decoded(const std::string& text) {
    static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::uint32_t bits = 0;
    int count = 0, pad = 0;
    for (char c : text) {
        if (std::isspace(static_cast<unsigned char>(c))) continue;
        if (c == '=') {
            ++pad;
        } else {
            if (pad) fail("VTI: base64 data with characters after its padding inside a group");
            const auto v = alphabet.find(c);
            if (v == std::string::npos) fail(std::string("VTI: '") + c + "' in base64 data");
            bits = bits << 6 | std::uint32_t(v);
        }
        if (++count == 4) {
            bits <<= 6 * pad;
            const int keep = 3 - pad;
            if (keep < 1) fail("VTI: base64 data with a group of padding only");
            for (int k = 0; k < keep; ++k) out += char((bits >> (16 - 8 * k)) & 0xff);
            bits = 0, count = 0, pad = 0;
        }
    }
    if (count) fail("VTI: base64 data of a length that is no multiple of 4 (truncated)");
    return out;
}

/// An array's bytes from its binary form (header, then data; compressed or not).
std::string vti_array_bytes(const std::string& in, std::size_t at, int header_bytes, bool big_endian, bool zlib,
                            std::uint64_t need) {
    // Header integer k (header_type: 4 or 8 bytes) in the file's byte order.
    auto header_u64 = [&](std::size_t k) {
        const std::size_t p = at + k * std::size_t(header_bytes);
        if (p + std::size_t(header_bytes) > in.size()) fail("VTI: the array's header is cut off (truncated file)");
        std::uint64_t v = 0;
        for (int b = 0; b < header_bytes; ++b)
            v |= std::uint64_t(static_cast<unsigned char>(in[p + std::size_t(big_endian ? header_bytes - 1 - b : b)])) << (8 * b);
        return v;
    };
    if (!zlib) {
        const std::uint64_t size = header_u64(0);
        if (size != need) fail("VTI: the array holds " + std::to_string(size) + " bytes where its extent and type need " + std::to_string(need));
        const std::size_t begin = at + std::size_t(header_bytes);
        if (begin > in.size() || size > in.size() - begin) fail("VTI: the array's data is cut off (truncated file)");
        return in.substr(begin, std::size_t(size));
    }
    const std::uint64_t blocks = header_u64(0), block = header_u64(1), last = header_u64(2);
    if (blocks > (std::uint64_t(1) << 26) || block == 0 || block > (std::uint64_t(1) << 32))
        fail("VTI: a compressed array's header is not valid");
    const std::uint64_t total = blocks == 0 ? 0 : (blocks - 1) * block + (last ? last : block);
    if (total != need) fail("VTI: the array holds " + std::to_string(total) + " bytes where its extent and type need " + std::to_string(need));
    if (need > (std::uint64_t(1) << 36)) fail("VTI: larger than 64 GiB once decompressed");
    std::size_t p = at + std::size_t(3 + blocks) * std::size_t(header_bytes);
    std::string out;
    for (std::uint64_t b = 0; b < blocks; ++b) {
        const std::uint64_t size = header_u64(std::size_t(3 + b));
        if (p > in.size() || size > in.size() - p) fail("VTI: compressed block " + std::to_string(b) + " is cut off (truncated file)");
        out += inflate_exactly(in.substr(p, std::size_t(size)), std::size_t(b + 1 == blocks && last ? last : block));
        p += std::size_t(size);
    }
    return out;
}

geometry::Voxels parse_vti(const std::string& bytes, const VoxelLabels& labels) {
    const auto [file, after_file] = find_tag(bytes, "VTKFile", 0);
    if (after_file == std::string::npos) fail("VTI: no <VTKFile> element");
    if (bytes.rfind("</VTKFile>") == std::string::npos) fail("VTI: no </VTKFile> at the end (truncated file)");
    if (attribute(file, "type") != "ImageData")
        fail("VTI: a VTKFile of type '" + attribute(file, "type") + "': a voxel image is ImageData (.vti)");
    const std::string order = attribute(file, "byte_order");
    const bool big = order == "BigEndian";
    if (!big && order != "LittleEndian" && !order.empty()) fail("VTI: byte_order '" + order + "'");
    const std::string header_type = attribute(file, "header_type");
    const int header_bytes = header_type == "UInt64" ? 8 : 4;
    if (!header_type.empty() && header_type != "UInt64" && header_type != "UInt32")
        fail("VTI: header_type '" + header_type + "' (UInt32 or UInt64)");
    const std::string compressor = attribute(file, "compressor");
    if (!compressor.empty() && compressor != "vtkZLibDataCompressor")
        fail("VTI: compressor '" + compressor + "' is not offered (vtkZLibDataCompressor, or none)");
    const auto [image, after_image] = find_tag(bytes, "ImageData", after_file);
    if (after_image == std::string::npos) fail("VTI: no <ImageData> element");
    std::istringstream extent(attribute(image, "WholeExtent"));
    int e[6];
    for (int& v : e)
        if (!(extent >> v)) fail("VTI: WholeExtent '" + attribute(image, "WholeExtent") + "': six whole numbers needed");
    // The first DataArray of <PointData>, else of <CellData>.
    bool cells = false;
    auto [data, after_data] = std::pair<std::string, std::size_t>{"", std::string::npos};
    for (const char* section : {"PointData", "CellData"}) {
        const auto [s, after] = find_tag(bytes, section, after_image);
        if (after == std::string::npos || s.back() == '/') continue;
        const auto close = bytes.find(std::string("</") + section, after);
        std::tie(data, after_data) = find_tag(bytes, "DataArray", after, close);
        if (after_data != std::string::npos) {
            cells = std::string(section) == "CellData";
            break;
        }
    }
    if (after_data == std::string::npos) fail("VTI: no DataArray in <PointData> or <CellData>");
    RawLayout l;
    l.big_endian = big;
    for (int a = 0; a < 3; ++a) {
        l.n[std::size_t(a)] = e[2 * a + 1] - e[2 * a] + (cells ? 0 : 1);
        if (l.n[std::size_t(a)] < 1) fail("VTI: WholeExtent '" + attribute(image, "WholeExtent") + "' holds no voxels along an axis");
    }
    const std::string components = attribute(data, "NumberOfComponents");
    if (!components.empty() && components != "1")
        fail("VTI: the DataArray has " + components + " components; a voxel image has one value a voxel");
    static const std::map<std::string, VoxelType> types = {
        {"UInt8", VoxelType::U8},   {"Int16", VoxelType::I16},   {"UInt16", VoxelType::U16}, {"Int32", VoxelType::I32},
        {"UInt32", VoxelType::U32}, {"Float32", VoxelType::F32}, {"Float64", VoxelType::F64}};
    const auto type = types.find(attribute(data, "type"));
    if (type == types.end())
        fail("VTI: DataArray type '" + attribute(data, "type") + "' is not offered (UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64)");
    l.type = type->second;
    const std::uint64_t need = voxel_count(l.n) * std::uint64_t(bytes_of(l.type));
    const std::string format = attribute(data, "format");
    std::string raw;
    if (format == "ascii" || format == "binary") {
        const auto end = bytes.find("</DataArray>", after_data);
        if (end == std::string::npos) fail("VTI: the DataArray is not closed (truncated file)");
        const std::string text = bytes.substr(after_data, end - after_data);
        if (format == "binary") {
            raw = vti_array_bytes(base64_decoded(text), 0, header_bytes, big, !compressor.empty(), need);
        } else {
            std::istringstream values(text);
            geometry::Voxels v;
            v.n = l.n;
            v.solid.resize(std::size_t(voxel_count(l.n)));
            for (auto& solid : v.solid) {
                double value;
                if (!(values >> value)) fail("VTI: the ascii DataArray holds fewer values than its extent needs (" + std::to_string(voxel_count(l.n)) + ")");
                if (std::isnan(value)) fail("VTI: a voxel is not a number");
                solid = labels.is_solid(value) ? 1 : 0;
            }
            return v;
        }
    } else if (format == "appended") {
        const auto [appended, after_appended] = find_tag(bytes, "AppendedData", after_data);
        if (after_appended == std::string::npos) fail("VTI: format \"appended\" but no <AppendedData> (truncated file)");
        const auto underscore = bytes.find('_', after_appended);
        if (underscore == std::string::npos) fail("VTI: <AppendedData> without its '_' mark");
        const std::string offset_text = attribute(data, "offset");
        char* end = nullptr;
        const unsigned long long offset = std::strtoull(offset_text.c_str(), &end, 10);
        if (offset_text.empty() || *end) fail("VTI: the DataArray's offset '" + offset_text + "' is not a whole number");
        const std::string encoding = attribute(appended, "encoding");
        if (encoding == "base64") {
            const auto close = bytes.find("</AppendedData>", underscore);
            const std::string decoded = base64_decoded(bytes.substr(underscore + 1, close == std::string::npos ? std::string::npos : close - underscore - 1));
            raw = vti_array_bytes(decoded, std::size_t(offset), header_bytes, big, !compressor.empty(), need);
        } else if (encoding == "raw" || encoding.empty()) {
            if (offset > bytes.size()) fail("VTI: the DataArray's offset lies beyond the file (truncated file)");
            raw = vti_array_bytes(bytes, underscore + 1 + std::size_t(offset), header_bytes, big, !compressor.empty(), need);
        } else {
            fail("VTI: AppendedData encoding '" + encoding + "' (raw or base64)");
        }
    } else {
        fail("VTI: DataArray format '" + format + "' (ascii, binary or appended)");
    }
    return label(reinterpret_cast<const unsigned char*>(raw.data()), l, labels);
}

// ---- PNG slices (libpng, already the PNG output's library) ----------------------------------------

struct PngSlice {
    unsigned width = 0, height = 0;
    int depth = 0;  // bits a sample: 8 or 16
    std::vector<unsigned char> rows;  // height rows of width samples, 16-bit big-endian as in the file
    std::vector<unsigned char*> pointers;  // to each row, for libpng
};

struct PngSource {
    const std::string* bytes;
    std::size_t at;
    char error[256];
};

void png_source_read(png_structp png, png_bytep out, png_size_t n) {
    auto* s = static_cast<PngSource*>(png_get_io_ptr(png));
    if (s->at + n > s->bytes->size()) png_error(png, "the file ends inside its data (truncated)");
    std::memcpy(out, s->bytes->data() + s->at, n);
    s->at += n;
}

void png_source_error(png_structp png, png_const_charp message) {
    auto* s = static_cast<PngSource*>(png_get_error_ptr(png));
    std::snprintf(s->error, sizeof s->error, "%s", message);
    png_longjmp(png, 1);
}

void png_source_warning(png_structp, png_const_charp) {}

/// Reads one greyscale slice; returns "" or what is wrong. No object with a destructor
/// lives in this frame across setjmp (libpng reports errors by longjmp).
std::string read_png_slice(const std::string& bytes, PngSlice& out) {
    if (bytes.size() < 8 || png_sig_cmp(reinterpret_cast<png_const_bytep>(bytes.data()), 0, 8) != 0)
        return "not a PNG file (no PNG signature)";
    PngSource source{&bytes, 8, {0}};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, png_source_error, png_source_warning);
    if (!png) return "cannot start PNG decoding";
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, nullptr, nullptr);
        return "cannot start PNG decoding";
    }
    const char* wrong = nullptr;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, nullptr);
        return std::string("damaged PNG data: ") + source.error;
    }
    png_set_read_fn(png, &source, png_source_read);
    png_set_sig_bytes(png, 8);
    png_set_user_limits(png, 65536, 65536);
    png_read_info(png, info);
    const int colour = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
    if (colour != PNG_COLOR_TYPE_GRAY) wrong = "a colour, palette or alpha PNG: voxel slices are greyscale";
    else if (depth != 8 && depth != 16) wrong = "a greyscale PNG of a bit depth other than 8 or 16";
    if (wrong) {
        png_destroy_read_struct(&png, &info, nullptr);
        return wrong;
    }
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) png_set_interlace_handling(png);
    png_read_update_info(png, info);
    out.width = png_get_image_width(png, info);
    out.height = png_get_image_height(png, info);
    out.depth = depth;
    const std::size_t row = png_get_rowbytes(png, info);
    out.rows.resize(row * out.height);
    out.pointers.resize(out.height);
    for (unsigned r = 0; r < out.height; ++r) out.pointers[r] = out.rows.data() + r * row;
    png_read_image(png, out.pointers.data());
    png_read_end(png, nullptr);  // to the IEND chunk: a file cut after its image data is refused too
    png_destroy_read_struct(&png, &info, nullptr);
    return "";
}

}  // namespace

geometry::Voxels parse_png_stack(const std::vector<std::string>& slices, const VoxelLabels& labels) {
    if (slices.empty()) fail("a PNG stack needs at least one slice");
    if (slices.size() > 65536) fail("a PNG stack of more than 65536 slices");
    RawLayout l;
    std::string data;
    for (std::size_t k = 0; k < slices.size(); ++k) {
        PngSlice s;
        const std::string why = read_png_slice(slices[k], s);
        if (!why.empty()) fail("slice " + std::to_string(k) + ": " + why);
        if (k == 0) {
            l.n = {int(s.width), int(s.height), int(slices.size())};
            l.type = s.depth == 16 ? VoxelType::U16 : VoxelType::U8;
            l.big_endian = true;  // PNG's 16-bit samples
            data.reserve(s.rows.size() * slices.size());
        } else if (int(s.width) != l.n[0] || int(s.height) != l.n[1] || (s.depth == 16) != (l.type == VoxelType::U16)) {
            fail("slice " + std::to_string(k) + " is " + std::to_string(s.width) + " x " + std::to_string(s.height) +
                 " at " + std::to_string(s.depth) + " bits where slice 0 is " + std::to_string(l.n[0]) + " x " +
                 std::to_string(l.n[1]) + " at " + (l.type == VoxelType::U16 ? "16" : "8") + " bits");
        }
        data.append(reinterpret_cast<const char*>(s.rows.data()), s.rows.size());
    }
    return label(reinterpret_cast<const unsigned char*>(data.data()), l, labels);
}

geometry::Voxels parse_voxels(const std::string& bytes, const std::optional<RawLayout>& raw, const VoxelLabels& labels) {
    if (bytes.compare(0, 7, "NRRD000") == 0) {
        if (raw) fail("it is an NRRD file, whose header gives its dimensions, type and byte order: leave those keys out");
        return parse_nrrd(bytes, labels);
    }
    const auto head = bytes.substr(0, std::min<std::size_t>(bytes.size(), 4096));
    if (head.find("<VTKFile") != std::string::npos) {
        if (raw) fail("it is a VTK image (.vti), whose header gives its dimensions and type: leave those keys out");
        return parse_vti(bytes, labels);
    }
    if (!raw) fail("neither an NRRD file (no 'NRRD000' at its start) nor a VTK image (no <VTKFile>): a raw file needs dimensions and type");
    const std::uint64_t need = voxel_count(raw->n) * std::uint64_t(bytes_of(raw->type));
    if (bytes.size() != need)
        fail("it has " + std::to_string(bytes.size()) + " bytes where " + std::to_string(raw->n[0]) + " x " +
             std::to_string(raw->n[1]) + " x " + std::to_string(raw->n[2]) + " voxels of " +
             std::to_string(bytes_of(raw->type)) + " bytes need " + std::to_string(need) +
             " (truncated, or other dimensions or type)");
    return label(reinterpret_cast<const unsigned char*>(bytes.data()), *raw, labels);
}

}  // namespace barracuda::io
