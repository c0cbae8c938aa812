// Case files: TOML -> sim::CaseSpec. This file knows the layout of a case
// (docs/case-file.md); io/toml_access.* does the typed access and the messages.
// Checks that need one key (types, word choices, which keys go together) are
// here; checks that relate several values are in sim::check_case.
#include "io/case_file.hpp"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <limits>
#include <sstream>

#include "common/error.hpp"
#include "geometry/mesh.hpp"
#include "geometry/sphere_pack.hpp"
#include "io/input_file.hpp"
#include "io/toml_access.hpp"
#include "io/voxel_file.hpp"
#include "sim/expression.hpp"
#include "sim/case_check.hpp"
#include "storage/tiles.hpp"

namespace barracuda::io {

namespace {

using detail::Section;
using boundary::FaceType;
namespace lat = lattice;

constexpr std::array<std::string_view, 6> face_names = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
constexpr std::array<std::string_view, 3> axis_names = {"x", "y", "z"};

// Every key a case may hold; "obstacle[]" is each [[obstacle]] table.
std::vector<std::string> known_keys() {
    std::vector<std::string> keys = {
        "title",
        "model.lattice", "model.collision", "model.equilibrium", "model.forcing", "model.precision", "model.streaming",
        "model.tau", "model.viscosity", "model.trt_magic", "model.smagorinsky",
        "model.mrt.s_e", "model.mrt.s_eps", "model.mrt.s_q", "model.mrt.s_pi", "model.mrt.s_m",
        "domain.size", "domain.periodic", "domain.decomposition", "domain.storage",
        "initial.density", "initial.velocity", "initial.density_noise", "initial.seed", "initial.density_b",
        "initial.phi",
        "force.body",
        "thermal.lattice", "thermal.diffusivity", "thermal.prandtl", "thermal.collision", "thermal.trt_magic",
        "thermal.expansion", "thermal.gravity", "thermal.reference_temperature", "thermal.initial_temperature",
        "thermal.turbulent_prandtl",
        "multiphase.model", "multiphase.pseudopotential", "multiphase.g", "multiphase.rho0", "multiphase.a",
        "multiphase.b", "multiphase.gas_constant", "multiphase.temperature", "multiphase.mixing", "multiphase.wall_density",
        "multiphase.viscosity_b",
        "multiphase.kappa", "multiphase.gamma", "multiphase.tau_phi", "multiphase.contact_angle",
        "forces.obstacles", "forces.reference_velocity", "forces.reference_area", "forces.flow_axis",
        "forces.lift_axis", "forces.interval",
        "run.steps", "run.steady_tolerance", "run.check_interval", "run.density_range", "run.backend",
        "units.cell", "units.length", "units.velocity", "units.lattice_velocity", "units.density",
        "units.heat_capacity", "run.time", "output.period",
        "output.directory", "output.interval", "output.fields", "output.formats", "output.compression",
        "output.slice_axis", "output.slice_position",
        "probes.points", "probes.names", "probes.interval", "probes.period",
        "average.steps", "average.time", "average.interval", "average.period", "average.section",
        "average.section_at", "average.profiles",
    };
    for (std::string_view face : face_names)
        for (const char* k : {"type", "method", "profile", "velocity", "density", "sponge.width", "sponge.strength",
                              "sponge.density", "sponge.velocity", "temperature", "heat_flux"})
            keys.push_back("boundary." + std::string(face) + "." + k);
    for (const char* k : {"shape", "name", "min", "max", "center", "radius", "axis", "velocity", "bounce_back",
                          "temperature", "heat_flux", "power", "file", "scale", "rotate", "translate", "dimensions", "type",
                          "byte_order", "solid", "threshold", "spacing", "diameter", "porosity", "seed"})
        keys.push_back(std::string("obstacle[].") + k);
    return keys;
}

template <class E, std::size_t N>
std::optional<E> read_choice(const Section& s, std::string_view key, const std::array<std::string_view, N>& words,
                             const std::array<E, N>& values) {
    if (auto i = s.choice(key, words)) return values[*i];
    return std::nullopt;
}

// Velocities and forces: [x, y] or [x, y, z]; a missing z is 0.
std::optional<std::array<double, 3>> read_vector(const Section& s, std::string_view key) {
    auto v = s.numbers(key, 2, 3);
    if (!v) return std::nullopt;
    return std::array<double, 3>{(*v)[0], (*v)[1], v->size() == 3 ? (*v)[2] : 0.0};
}

// Positions: a 3D lattice needs all three coordinates, a 2D one may leave z out.
std::optional<std::array<double, 3>> read_point(const Section& s, std::string_view key, int dims) {
    auto v = s.numbers(key, std::size_t(dims), 3);
    if (!v) return std::nullopt;
    return std::array<double, 3>{(*v)[0], (*v)[1], v->size() == 3 ? (*v)[2] : 0.0};
}

void read_rates(const Section& m, sim::ModelSpec& model);

void read_model(const Section& m, sim::ModelSpec& model, bool si) {
    using sim::Collision, sim::Equilibrium, sim::Precision;
    const auto lattice =
        read_choice(m, "lattice", std::array<std::string_view, 5>{"D2Q9", "D3Q13", "D3Q15", "D3Q19", "D3Q27"},
                    std::array{lat::Kind::D2Q9, lat::Kind::D3Q13, lat::Kind::D3Q15, lat::Kind::D3Q19, lat::Kind::D3Q27});
    if (!lattice) m.fail_missing("lattice", "choose \"D2Q9\", \"D3Q13\", \"D3Q15\", \"D3Q19\" or \"D3Q27\"");
    model.lattice = *lattice;
    if (model.lattice == lat::Kind::D3Q13) model.collision = Collision::MRT;  // the one it offers (lattice/d3q13.hpp)
    model.collision = read_choice(m, "collision",
                                  std::array<std::string_view, 5>{"bgk", "trt", "mrt", "regularized", "entropic"},
                                  std::array{Collision::BGK, Collision::TRT, Collision::MRT, Collision::Regularized,
                                             Collision::Entropic})
                          .value_or(model.collision);
    model.equilibrium = read_choice(m, "equilibrium", std::array<std::string_view, 2>{"compressible", "incompressible"},
                                    std::array{Equilibrium::Compressible, Equilibrium::Incompressible})
                            .value_or(model.equilibrium);
    model.forcing = read_choice(m, "forcing", std::array<std::string_view, 2>{"guo", "edm"},
                                std::array{physics::ForcingKind::Guo, physics::ForcingKind::Edm})
                        .value_or(model.forcing);
    model.precision = read_choice(m, "precision", std::array<std::string_view, 3>{"fp32", "fp64", "fp16"},
                                  std::array{Precision::FP32, Precision::FP64, Precision::FP16})
                          .value_or(model.precision);
    model.streaming = read_choice(m, "streaming", std::array<std::string_view, 2>{"two-copy", "in-place"},
                                  std::array{sim::Pattern::TwoCopy, sim::Pattern::InPlace})
                          .value_or(model.streaming);

    // One of the two, so the case states the viscosity exactly once.
    const auto tau = m.number("tau");
    const auto nu = m.number("viscosity");
    if (si) {  // [units]: the viscosity in m^2/s, converted with the rest (sim/units.hpp)
        if (tau) m.fail("tau", "a case with [units] gives model.viscosity in m^2/s; tau follows from the resolution");
        if (!nu) m.fail_missing("viscosity", "give model.viscosity in m^2/s (air: 1.5e-5; water: 1.0e-6)");
        if (!(*nu > 0)) m.fail_value("viscosity", "must be > 0 (m^2/s)");
        model.viscosity = *nu;
        model.tau = 0.6;  // until sim::to_lattice_units
        return read_rates(m, model);
    }
    if (tau && nu)
        m.fail("viscosity", "model.tau = " + detail::format_number(*tau) + " and model.viscosity = " +
                                detail::format_number(*nu) + " are both given; give one (nu = (tau - 0.5)/3)");
    if (nu) {
        if (!(*nu > 0)) m.fail_value("viscosity", "must be > 0 (tau = 3 nu + 0.5 must exceed 0.5)");
        model.tau = 3.0 * *nu + 0.5;
        model.viscosity = *nu;
    } else if (tau) {
        model.tau = *tau;  // range checked by check_case
    } else {
        m.fail_missing("tau", "give model.tau (> 0.5) or model.viscosity (> 0; nu = (tau - 0.5)/3)");
    }
    read_rates(m, model);
}

// The collision's further parameters: LES constant, TRT's Lambda, MRT's rates.
void read_rates(const Section& m, sim::ModelSpec& model) {

    if (auto c = m.number("smagorinsky")) model.smagorinsky = *c;
    if (auto magic = m.number("trt_magic")) {
        if (!(*magic > 0)) m.fail_value("trt_magic", "must be > 0 (3/16 is the usual choice)");
        model.trt_magic = *magic;
    }

    const Section mrt = m.table("mrt");
    if (model.lattice == lat::Kind::D2Q9)
        for (const char* k : {"s_pi", "s_m"})
            if (mrt.has(k)) mrt.fail(k, "D2Q9 has no such moments; s_pi is a rate of D3Q19 and D3Q27, s_m of the 3D lattices");
    if (model.lattice == lat::Kind::D3Q15 && mrt.has("s_pi"))
        mrt.fail("s_pi", "D3Q15 has no such moments; s_pi is a rate of D3Q19 and D3Q27");
    if (model.lattice == lat::Kind::D3Q13)
        for (const char* k : {"s_eps", "s_q", "s_pi"})
            if (mrt.has(k))
                mrt.fail(k, "D3Q13 has no such moments; its free rates are s_e (energy) and s_m (the third-order h moments)");
    model.mrt.s_e = mrt.number("s_e").value_or(0);
    model.mrt.s_eps = mrt.number("s_eps").value_or(0);
    model.mrt.s_q = mrt.number("s_q").value_or(0);
    model.mrt.s_pi = mrt.number("s_pi").value_or(0);
    model.mrt.s_m = mrt.number("s_m").value_or(0);
    // A rate given as 0 would be replaced by the default; say so instead.
    for (const char* k : {"s_e", "s_eps", "s_q", "s_pi", "s_m"})
        if (auto r = mrt.number(k); r && !(*r > 0 && *r < 2)) mrt.fail_value(k, "must be in (0, 2)");
}

void read_domain(const Section& d, sim::CaseSpec& spec) {
    const auto size = d.integers("size", 2, 3);
    if (!size) d.fail_missing("size", "give the grid as [nx, ny] (2D) or [nx, ny, nz] (3D)");
    for (std::int64_t n : *size)
        if (n > std::numeric_limits<int>::max() || n < std::numeric_limits<int>::min())
            d.fail_value("size", "each size must be between 1 and 2147483647");
    spec.size = {int((*size)[0]), int((*size)[1]), size->size() == 3 ? int((*size)[2]) : 1};

    spec.periodic = {false, false, false};
    if (auto p = d.booleans("periodic", 2, 3)) {
        if (p->size() != size->size())
            d.fail("periodic", "has " + std::to_string(p->size()) + " entries but domain.size has " +
                                   std::to_string(size->size()) + "; give one per axis");
        for (std::size_t a = 0; a < p->size(); ++a) spec.periodic[a] = (*p)[a];
    }
    // A 2D lattice has no z velocities; z wraps onto the single layer.
    if (lat::dimensions_of(spec.model.lattice) == 2) spec.periodic[2] = true;

    if (auto dec = d.integers("decomposition", 2, 3)) {
        if (dec->size() != size->size())
            d.fail("decomposition", "has " + std::to_string(dec->size()) + " entries but domain.size has " +
                                        std::to_string(size->size()) + "; give the number of subdomains along each axis");
        for (std::size_t a = 0; a < dec->size(); ++a) {
            if ((*dec)[a] < 1 || (*dec)[a] > 65536)
                d.fail_value("decomposition", "each entry must be between 1 and 65536 (subdomains along that axis)");
            spec.decomposition[a] = int((*dec)[a]);
        }
        if (dec->size() == 2) spec.decomposition[2] = 1;
    }
    spec.storage = read_choice(d, "storage", std::array<std::string_view, 3>{"dense", "sparse", "auto"},
                               std::array{sim::StorageChoice::Dense, sim::StorageChoice::Sparse, sim::StorageChoice::Auto})
                       .value_or(spec.storage);
    if (spec.storage == sim::StorageChoice::Sparse) {
        const int n[3] = {spec.size[0], spec.size[1], spec.size[2]};
        if (const auto tiles = storage::TileTables::box_tiles_of(n); tiles > storage::TileTables::max_box_tiles)
            d.fail("size", "holds " + std::to_string(tiles) +
                               " tiles of 4x4x4 nodes; domain.storage = \"sparse\" numbers at most " +
                               std::to_string(storage::TileTables::max_box_tiles) +
                               " (32-bit tile indices): split the box over ranks with dense storage, or coarsen it");
    }
}

// [boundary.<face>.sponge]: an absorbing layer in front of an open or outflow face
// (boundary/sponge.hpp). The target state defaults to the face's own constants where
// it has them: a velocity face's velocity, a pressure face's density.
void read_sponge(const Section& f, int n, boundary::FaceSpec& spec) {
    if (!f.has("sponge")) return;
    const Section sp = f.table("sponge");
    const std::string t = "a \"" + std::string(boundary::type_name(spec.type)) + "\" face";
    if (spec.type != FaceType::Velocity && spec.type != FaceType::Pressure && spec.type != FaceType::Outflow)
        f.fail("sponge", t + " takes no sponge (absorbing layers lie in front of velocity, pressure and outflow faces)");
    const auto width = sp.integer("width");
    if (!width) sp.fail_missing("width", "give the layer's depth in nodes, 1 to " + std::to_string(n / 2));
    if (*width < 1 || *width > n / 2)
        sp.fail_value("width", "must be between 1 and " + std::to_string(n / 2) +
                                   " (at most half the domain along the face's axis)");
    spec.sponge_width = int(*width);
    const auto strength = sp.number("strength");
    if (!strength) sp.fail_missing("strength", "give sigma_max, the relaxation rate at the face, in (0, 1]");
    if (!(*strength > 0 && *strength <= 1))
        sp.fail_value("strength", "must be in (0, 1] (the fraction of the departure from the target removed per step)");
    spec.sponge_strength = *strength;

    const bool constant_velocity = spec.type == FaceType::Velocity && spec.profile == boundary::Profile::Uniform &&
                                   spec.velocity_expression[0].empty() && spec.velocity_expression[1].empty() &&
                                   spec.velocity_expression[2].empty();
    if (const auto u = read_vector(sp, "velocity")) {
        spec.sponge_velocity = *u;
    } else if (constant_velocity) {
        spec.sponge_velocity = spec.velocity;
    } else {
        sp.fail_missing("velocity", "the target velocity: " + t +
                                        (spec.type == FaceType::Velocity ? " with a profile or expressions" : "") +
                                        " has no single velocity to take it from");
    }
    if (const auto rho = sp.number("density")) {
        if (!(*rho > 0)) sp.fail_value("density", "must be > 0");
        spec.sponge_density = *rho;
    } else if (spec.type == FaceType::Pressure && spec.density_expression.empty()) {
        spec.sponge_density = spec.density;
    } else if (spec.type == FaceType::Pressure) {
        sp.fail_missing("density", "the target density: the face's density is an expression");
    } else {
        spec.sponge_density = std::nullopt;  // velocity and outflow faces leave the density free
    }
}

// An expression given for `key`: parsed here, so that a syntax error names the key with
// its file position; returned as given.
std::string parsed_expression(const Section& s, std::string_view key, const std::string& text,
                              const std::array<int, 3>& size) {
    try {
        sim::Expression(text, size);
    } catch (const sim::ExpressionError& e) {
        s.fail_value(key, "the expression does not parse: " + sim::describe_parse_error(text, e));
    }
    return text;
}

void read_face(const Section& f, const std::array<int, 3>& size, int axis, boundary::FaceSpec& spec) {
    const auto type = read_choice(
        f, "type", std::array<std::string_view, 6>{"wall", "moving_wall", "velocity", "pressure", "free_slip", "outflow"},
        std::array{FaceType::Wall, FaceType::MovingWall, FaceType::Velocity, FaceType::Pressure, FaceType::FreeSlip,
                   FaceType::Outflow});
    if (!type)
        f.fail_missing("type", "choose \"wall\", \"moving_wall\", \"velocity\", \"pressure\", \"free_slip\" or \"outflow\"");
    spec.type = *type;
    const bool open = spec.type == FaceType::Velocity || spec.type == FaceType::Pressure;
    const bool moves = spec.type == FaceType::Velocity || spec.type == FaceType::MovingWall;
    const std::string t = "a \"" + std::string(boundary::type_name(spec.type)) + "\" face";

    if (f.has("method") && !open) f.fail("method", t + " takes no method (only velocity and pressure faces do)");
    spec.method = read_choice(f, "method",
                              std::array<std::string_view, 4>{"zou_he", "equilibrium", "regularized", "bounce_back"},
                              std::array{boundary::Method::ZouHe, boundary::Method::Equilibrium,
                                         boundary::Method::Regularized, boundary::Method::BounceBack})
                      .value_or(boundary::Method::ZouHe);

    if (f.has("profile") && spec.type != FaceType::Velocity)
        f.fail("profile", t + " takes no profile (only velocity faces do)");
    spec.profile = read_choice(f, "profile", std::array<std::string_view, 2>{"uniform", "parabolic"},
                               std::array{boundary::Profile::Uniform, boundary::Profile::Parabolic})
                       .value_or(boundary::Profile::Uniform);

    if (f.has("velocity") && !moves)
        f.fail("velocity", t + " takes no velocity" +
                               (spec.type == FaceType::Wall ? " (use type = \"moving_wall\" for a sliding wall)" : ""));
    const auto parsed = [&](std::string_view key, const std::string& text) { return parsed_expression(f, key, text, size); };
    if (moves) {
        const auto u = f.numbers_or_texts("velocity", 2, 3);
        if (!u) f.fail_missing("velocity", t + " needs velocity = [ux, uy] or [ux, uy, uz]");
        for (std::size_t k = 0; k < u->size(); ++k) {
            if (const auto* text = std::get_if<std::string>(&(*u)[k])) {
                if (spec.type != FaceType::Velocity)
                    f.fail_value("velocity", "expressions are offered on velocity and pressure faces, not on " + t);
                spec.velocity_expression[k] = parsed("velocity", *text);
            } else {
                spec.velocity[k] = std::get<double>((*u)[k]);
            }
        }
    }
    if (f.has("density") && spec.type != FaceType::Pressure) f.fail("density", t + " takes no density");
    if (const auto d = f.number_or_text("density")) {
        if (const auto* text = std::get_if<std::string>(&*d)) spec.density_expression = parsed("density", *text);
        else spec.density = std::get<double>(*d);
    }
    read_sponge(f, size[std::size_t(axis)], spec);
}

void read_boundaries(const Section& b, sim::CaseSpec& spec) {
    const int dims = lat::dimensions_of(spec.model.lattice);
    for (int face = 0; face < 6; ++face) {
        const int axis = face / 2;
        const std::string_view name = face_names[std::size_t(face)];
        if (axis == 2 && dims == 2 && b.has(name))
            b.fail(name, "lattice " + std::string(lat::name_of(spec.model.lattice)) + " is 2D and has no z faces");
        if (spec.periodic[std::size_t(axis)]) {
            if (b.has(name))
                b.fail(name, "the " + std::string(axis_names[std::size_t(axis)]) +
                                 " axis is periodic (domain.periodic), so its faces take no boundary table");
            spec.faces[std::size_t(face)] = {};
            spec.faces[std::size_t(face)].type = FaceType::Periodic;
            continue;
        }
        const Section f = b.table(name);
        spec.faces[std::size_t(face)] = {};  // no table: a resting wall
        if (f.present()) read_face(f, spec.size, axis, spec.faces[std::size_t(face)]);
    }
}

// The first of `keys` the obstacle gives is refused with `message` (a key of another shape).
void refuse_keys(const Section& o, std::initializer_list<const char*> keys, const std::string& message) {
    for (const char* k : keys)
        if (o.has(k)) o.fail(k, message);
}

// An obstacle's file = "...": a relative path is taken from the case file's folder.
std::filesystem::path obstacle_file(const Section& o, const char* what) {
    const auto name = o.string("file");
    if (!name) o.fail_missing("file", std::string(what) + " (relative to the case file's folder)");
    std::filesystem::path path(*name);
    const std::filesystem::path source(o.origin().source());
    std::error_code ec;
    if (path.is_relative() && std::filesystem::is_regular_file(source, ec)) path = source.parent_path() / path;
    return path;
}

// A numbered stack of PNG slices: `file` holds one %d (or %0Nd, zero-padded to N
// digits), replaced by 0, 1, 2, ... (or from 1 when there is no slice 0) until a
// number has no file. Built here, not by printf: the name is the user's text.
// std::nullopt when the name holds no '%'.
std::optional<std::vector<std::filesystem::path>> numbered_files(const Section& o, const std::filesystem::path& path) {
    const std::string name = path.string();
    const auto at = name.find('%');
    if (at == std::string::npos) return std::nullopt;
    std::size_t end = at + 1;
    int width = 0;
    const bool pad = end < name.size() && name[end] == '0';
    while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))) width = width * 10 + (name[end++] - '0');
    if (end >= name.size() || name[end] != 'd' || name.find('%', end) != std::string::npos || width > 9)
        o.fail_value("file", "a PNG stack's name holds one %d or %0Nd (N up to 9) where the slice number goes, "
                             "e.g. \"ct/slice_%04d.png\"");
    const auto numbered = [&](int k) {
        std::string digits = std::to_string(k);
        if (int(digits.size()) < width) digits.insert(0, std::size_t(width) - digits.size(), pad ? '0' : ' ');
        return std::filesystem::path(name.substr(0, at) + digits + name.substr(end + 1));
    };
    std::error_code ec;
    int first = std::filesystem::exists(numbered(0), ec) ? 0 : 1;
    std::vector<std::filesystem::path> files;
    for (int k = first; k < first + 65537 && std::filesystem::exists(numbered(k), ec); ++k) files.push_back(numbered(k));
    if (files.empty())
        o.fail_value("file", "no slice of the stack: neither '" + numbered(0).string() + "' nor '" + numbered(1).string() +
                             "' exists");
    return files;
}

// shape = "voxels": a voxel image (io/voxel_file.hpp), raw (dimensions, type and
// byte_order here) or NRRD (its header), solid where its value is listed in `solid`
// or at least `threshold`; voxel (0, 0, 0) centred at `translate`, voxels `spacing`
// apart (cells, or m with [units]). Read and labelled before anything is allocated.
void read_voxel_image(const Section& o, int dims, sim::Obstacle& ob) {
    refuse_keys(o, {"center", "radius", "axis", "min", "max", "scale", "rotate"},
                "a voxel obstacle takes file, dimensions, type and byte_order (raw files), solid or threshold, spacing "
                "and translate");
    if (dims != 3) o.fail("shape", "a voxel image needs a 3D lattice");
    const std::filesystem::path path =
        obstacle_file(o, "a voxel obstacle needs file = \"image.raw\", \"image.nrrd\", \"image.vti\" or \"slice_%04d.png\"");
    std::optional<io::RawLayout> raw;
    if (o.has("dimensions") || o.has("type") || o.has("byte_order")) {
        const auto n = o.integers("dimensions", 3, 3);
        if (!n) o.fail_missing("dimensions", "a raw voxel file needs dimensions = [nx, ny, nz]");
        raw = io::RawLayout{};
        for (std::size_t a = 0; a < 3; ++a) {
            if ((*n)[a] < 1 || (*n)[a] > 65536) o.fail_value("dimensions", "each from 1 to 65536 voxels");
            raw->n[a] = int((*n)[a]);
        }
        const auto type = read_choice(
            o, "type", std::array<std::string_view, 7>{"uint8", "uint16", "int16", "uint32", "int32", "float32", "float64"},
            std::array{io::VoxelType::U8, io::VoxelType::U16, io::VoxelType::I16, io::VoxelType::U32, io::VoxelType::I32,
                       io::VoxelType::F32, io::VoxelType::F64});
        if (!type) o.fail_missing("type", "a raw voxel file needs type = \"uint8\", \"uint16\", \"int16\", \"uint32\", "
                                          "\"int32\", \"float32\" or \"float64\"");
        raw->type = *type;
        raw->big_endian = read_choice(o, "byte_order", std::array<std::string_view, 2>{"little", "big"},
                                      std::array{false, true})
                              .value_or(false);
    }
    io::VoxelLabels labels;
    if (o.has("solid") && o.has("threshold")) o.fail("threshold", "give solid = [values] or threshold, not both");
    if (auto v = o.numbers("solid", 1, 256)) labels.solid = *v;
    else if (auto t = o.number("threshold")) labels.threshold = *t;
    else o.fail_missing("solid", "say which voxels are solid: solid = [values] (labels) or threshold = t (values >= t)");
    const double spacing = o.number("spacing").value_or(1.0);
    if (!(spacing > 0 && spacing < 1e12)) o.fail_value("spacing", "must be > 0 (the distance between voxel centres)");
    const auto offset = o.numbers("translate", 3, 3).value_or(std::vector<double>{0, 0, 0});
    geometry::Voxels image;
    const auto stack = numbered_files(o, path);
    if (stack && raw) o.fail("dimensions", "a PNG stack's slices give their size and depth: leave dimensions, type and byte_order out");
    try {
        if (stack) {
            std::vector<std::string> slices;
            for (const auto& file : *stack) slices.push_back(io::read_input_file(file.string()));
            image = io::parse_png_stack(slices, labels);
        } else {
            image = io::parse_voxels(io::read_input_file(path.string()), raw, labels);
        }
    } catch (const std::runtime_error& e) {
        o.fail_value("file", "'" + path.string() + "': " + e.what());
    }
    image.spacing = spacing;
    image.origin = {offset[0], offset[1], offset[2]};
    ob.min = image.lower();
    ob.max = image.upper();
    ob.voxels = std::make_shared<const geometry::Voxels>(std::move(image));
}

// shape = "sphere_pack": a random pack of equal spheres (geometry/sphere_pack.hpp) filling
// the box from min to max (the whole box by default), made here as a voxel image of
// one voxel a node, so that it runs as any voxel obstacle; periodic along the box's
// periodic axes that it spans.
void read_sphere_pack(const Section& o, int dims, const sim::CaseSpec& spec, sim::Obstacle& ob) {
    refuse_keys(o, {"center", "radius", "axis", "file", "scale", "rotate", "translate", "dimensions", "type",
                    "byte_order", "solid", "threshold", "spacing"},
                "a sphere pack takes diameter, porosity, seed, and min and max (its region)");
    if (dims != 3) o.fail("shape", "a sphere pack needs a 3D lattice");
    // In SI the positions of nodes 0 and n - 1 are (i + 1/2) dx (sim/units.hpp).
    const double dx = spec.units.si ? spec.units.cell : 1.0, off = spec.units.si ? 0.5 * dx : 0.0;
    const auto diameter = o.number("diameter");
    if (!diameter) o.fail_missing("diameter", "a sphere pack needs the spheres' diameter (cells, or m with [units])");
    if (!(*diameter >= dx && *diameter < 1e12))
        o.fail_value("diameter", "must be at least one cell (" + value_text(dx) + ")");
    const auto porosity = o.number("porosity");
    if (!porosity) o.fail_missing("porosity", "a sphere pack needs its target porosity (the pore fraction, 0.05 to 0.95)");
    if (!(*porosity >= 0.05 && *porosity <= 0.95)) o.fail_value("porosity", "must be from 0.05 to 0.95");
    const auto seed = o.integer("seed").value_or(1);
    if (seed < 0) o.fail_value("seed", "must be >= 0");
    std::array<double, 3> lo{}, hi{};
    for (std::size_t a = 0; a < 3; ++a) lo[a] = off, hi[a] = double(spec.size[a] - 1) * dx + off;
    if (auto p = read_point(o, "min", dims)) lo = *p;
    if (auto p = read_point(o, "max", dims)) hi = *p;
    std::array<int, 3> n{};
    std::array<bool, 3> wrap{};
    for (std::size_t a = 0; a < 3; ++a) {
        const double span = std::round((hi[a] - lo[a]) / dx);
        if (!(span >= 0 && span < 65536)) o.fail_value("max", "must be beyond min on every axis, within 65536 cells");
        n[a] = int(span) + 1;
        wrap[a] = spec.periodic[a] && n[a] == spec.size[a];
    }
    auto pack = geometry::sphere_pack(n, *diameter / dx, *porosity, std::uint64_t(seed), wrap);
    pack.image.spacing = dx;
    pack.image.origin = lo;
    ob.min = pack.image.lower();
    ob.max = pack.image.upper();
    ob.voxels = std::make_shared<const geometry::Voxels>(std::move(pack.image));
}

// shape = "stl": a closed triangle surface from a file (geometry/mesh.hpp), read and
// checked here so that a missing, damaged or open file is refused before anything
// is allocated. Its coordinates times `scale` are in the case's length unit (cells,
// or m with [units]); rotated (degrees about x, then y, then z) and translated.
void read_mesh(const Section& o, int dims, sim::Obstacle& ob) {
    refuse_keys(o, {"center", "radius", "axis", "min", "max", "dimensions", "type", "byte_order", "solid", "threshold",
                    "spacing"},
                "an STL obstacle takes file = \"...\", scale, rotate and translate");
    if (dims != 3) o.fail("shape", "an STL surface needs a 3D lattice");
    const std::filesystem::path path = obstacle_file(o, "an STL obstacle needs file = \"path.stl\"");
    const double scale = o.number("scale").value_or(1.0);
    if (!(scale > 0 && scale < 1e12))
        o.fail_value("scale", "must be > 0 (the size of the file's unit in the case's: cells, or m with [units])");
    const auto rotate = o.numbers("rotate", 3, 3).value_or(std::vector<double>{0, 0, 0});
    const auto offset = o.numbers("translate", 3, 3).value_or(std::vector<double>{0, 0, 0});
    for (double r : rotate)
        if (!(std::abs(r) <= 360)) o.fail_value("rotate", "degrees about x, y and z, each within [-360, 360]");
    std::optional<geometry::Mesh> mesh;
    try {
        // No larger than a mesh this tool can use: 100 M triangles of binary STL.
        mesh = geometry::Mesh::parse_stl(
            io::read_input_file(path.string(), 84 + 50ull * 100'000'000, "larger than 5 GB (100 million triangles)"));
    } catch (const std::runtime_error& e) {
        o.fail_value("file", "'" + path.string() + "': " + e.what());
    }
    std::string edge;
    if (const std::size_t open = mesh->open_edges(&edge))
        o.fail_value("file", "'" + path.string() + "': the surface is not closed: " + std::to_string(open) +
                                 " edges do not belong to exactly two triangles, e.g. " + edge +
                                 "; an inside test needs a closed surface (close its holes, e.g. in MeshLab)");
    auto placed = std::make_shared<const geometry::Mesh>(
        mesh->transformed(scale, {rotate[0], rotate[1], rotate[2]}, {offset[0], offset[1], offset[2]}));
    ob.min = placed->lower();
    ob.max = placed->upper();
    ob.mesh = std::move(placed);
}

void read_obstacle(const Section& o, std::size_t index, const sim::CaseSpec& spec, sim::Obstacle& ob) {
    using Shape = sim::Obstacle::Shape;
    const int dims = lat::dimensions_of(spec.model.lattice);
    const auto shape =
        read_choice(o, "shape",
                    std::array<std::string_view, 7>{"box", "sphere", "cylinder", "pipe", "stl", "voxels", "sphere_pack"},
                    std::array{Shape::Box, Shape::Sphere, Shape::Cylinder, Shape::Pipe, Shape::Mesh, Shape::Voxels,
                               Shape::Voxels});
    if (!shape)
        o.fail_missing("shape", "choose \"box\", \"sphere\", \"cylinder\", \"pipe\", \"stl\", \"voxels\" or \"sphere_pack\"");
    const bool pack = o.string("shape") == "sphere_pack";
    ob.kind = *shape;
    if (auto v = read_vector(o, "velocity")) ob.velocity = *v;
    ob.name = o.string("name").value_or("obstacle" + std::to_string(index));
    // Half-way: the wall half a spacing beyond the last fluid node (a staircase on a
    // curved surface); interpolated: at the surface's position on each link.
    ob.interpolated = read_choice(o, "bounce_back", std::array<std::string_view, 2>{"half-way", "interpolated"},
                                  std::array{false, true})
                          .value_or(false);

    auto only = [&](std::initializer_list<const char*> keys, const char* shape_name, const char* takes) {
        refuse_keys(o, keys, std::string("a ") + shape_name + " takes " + takes);
    };
    auto need_point = [&](const char* k, const char* what) {
        auto p = read_point(o, k, dims);
        if (!p) o.fail_missing(k, what);
        return *p;
    };
    auto need_radius = [&] {
        auto r = o.number("radius");
        if (!r) o.fail_missing("radius", "a sphere, cylinder or pipe needs a radius (lattice units)");
        return *r;
    };

    if (pack) {
        read_sphere_pack(o, dims, spec, ob);
        return;
    }
    only({"diameter", "porosity", "seed"},
         ob.kind == Shape::Mesh ? "STL obstacle" : ob.kind == Shape::Voxels ? "voxel obstacle" : "box, sphere, cylinder or pipe",
         "no diameter, porosity or seed (shape = \"sphere_pack\" does)");
    if (ob.kind != Shape::Mesh && ob.kind != Shape::Voxels)
        only({"file", "scale", "rotate", "translate", "dimensions", "type", "byte_order", "solid", "threshold", "spacing"},
             "box, sphere, cylinder or pipe", "no file (shape = \"stl\" or \"voxels\" does)");
    switch (ob.kind) {
        case Shape::Mesh: read_mesh(o, dims, ob); break;
        case Shape::Voxels: read_voxel_image(o, dims, ob); break;
        case Shape::Box:
            only({"center", "radius", "axis"}, "box", "min = [..] and max = [..] (opposite corners)");
            ob.min = need_point("min", "a box needs min = [..] (the corner with the smallest coordinates)");
            ob.max = need_point("max", "a box needs max = [..] (the corner with the largest coordinates)");
            break;
        case Shape::Sphere:
            only({"min", "max", "axis"}, "sphere", "center = [..] and radius");
            ob.center = need_point("center", "a sphere needs center = [..]");
            ob.radius = need_radius();
            break;
        case Shape::Cylinder:
        case Shape::Pipe: {
            ob.axis = int(o.choice("axis", axis_names).value_or(2));
            ob.center = need_point("center", "a cylinder or pipe needs center = [..] (the component along its axis is unused)");
            ob.radius = need_radius();
            // Extent along the axis: scalars here, stored in min/max[axis]; the
            // default spans the whole domain.
            const auto a = std::size_t(ob.axis);
            // In SI the positions of nodes 0 and n - 1, (i + 1/2) dx (sim/units.hpp).
            const double dx = spec.units.si ? spec.units.cell : 1.0, off = spec.units.si ? 0.5 * dx : 0.0;
            ob.min[a] = o.number("min").value_or(off);
            ob.max[a] = o.number("max").value_or(double(spec.size[a] - 1) * dx + off);
            break;
        }
    }
}

// [forces]: which obstacles' forces go to forces.csv and how they are made
// coefficients. Names are checked against the obstacles here (with the file
// position) and again in check_case; ranges are checked there.
void read_forces(const Section& f, sim::CaseSpec& spec, const std::vector<sim::Obstacle>& given) {
    if (!f.present()) return;
    sim::ForceReportSpec& r = spec.forces;
    const auto names = f.strings("obstacles");
    if (!names) f.fail_missing("obstacles", "name the obstacles whose forces to report, e.g. obstacles = [\"cylinder\"]");
    if (names->empty()) f.fail_value("obstacles", "name at least one obstacle (or leave out the [forces] table)");
    for (const std::string& name : *names) {
        bool found = false;
        for (const auto& ob : spec.obstacles) found = found || ob.name == name;
        for (const auto& ob : given) found = found || ob.name == name;
        if (!found) f.fail_value("obstacles", sim::unknown_obstacle_text(spec, name));
    }
    r.obstacles = *names;
    const auto u = f.number("reference_velocity");
    if (!u) f.fail_missing("reference_velocity", "give the velocity U of C = F / (1/2 rho0 U^2 A) (lattice units, > 0)");
    const auto a = f.number("reference_area");
    if (!a)
        f.fail_missing("reference_area",
                       "give the area A of C = F / (1/2 rho0 U^2 A) (cells^2; on a 2D lattice a length in cells, > 0)");
    r.reference_velocity = *u;
    r.reference_area = *a;
    r.flow_axis = int(f.choice("flow_axis", axis_names).value_or(0));
    r.lift_axis = int(f.choice("lift_axis", axis_names).value_or(r.flow_axis == 0 ? 1 : 0));
    r.interval = f.integer("interval").value_or(0);
    if (f.has("interval") && r.interval < 1)
        f.fail_value("interval", "must be >= 1 (steps between samples; leave it out for output.interval, or "
                                 "run.check_interval when that is 0)");
}

std::string printable(const std::string& text);

// [probes]: points whose fields are written to probes.csv. Ranges in check_case.
void read_probes(const Section& p, sim::CaseSpec& spec, bool si) {
    if (!p.present()) return;
    sim::ProbeSpec& r = spec.probes;
    const int dims = lat::dimensions_of(spec.model.lattice);
    const auto points = p.number_lists("points", std::size_t(dims), 3);
    if (!points)
        p.fail_missing("points", std::string("give the probes' positions, e.g. points = [[10, 20, 30]] (") +
                                     (si ? "m" : "node coordinates") + ")");
    for (const auto& q : *points) r.points.push_back({q[0], q[1], q.size() == 3 ? q[2] : 0.0});
    if (auto names = p.strings("names")) {
        if (names->size() != r.points.size())
            p.fail_value("names", "has " + std::to_string(names->size()) + " names for " +
                                      std::to_string(r.points.size()) + " points; give one per point");
        for (std::size_t k = 0; k < names->size(); ++k) {
            const std::string& n = (*names)[k];
            if (n.empty() || n.find_first_of(",\"\r\n") != std::string::npos)
                p.fail_value("names", "\"" + printable(n) + "\" is not a usable name: give a non-empty name without "
                                      "commas, quotes or line breaks (it heads CSV columns)");
            for (std::size_t j = 0; j < k; ++j)
                if ((*names)[j] == n) p.fail_value("names", "\"" + n + "\" is given twice; give each probe its own name");
        }
        r.names = *names;
    } else {
        for (std::size_t k = 0; k < r.points.size(); ++k) r.names.push_back("p" + std::to_string(k));
    }
    if (p.has("interval")) {
        r.interval = *p.integer("interval");
        if (r.interval < 1) p.fail_value("interval", "must be >= 1 (steps between samples)");
    }
    if (p.has("period")) {
        if (!si) p.fail("period", "probes.period is in seconds and needs a [units] table; give probes.interval otherwise");
        if (p.has("interval")) p.fail("period", "probes.interval and probes.period are both given; give one");
        r.period = *p.number("period");
        if (!(r.period > 0)) p.fail_value("period", "must be > 0 (s)");
    }
}

// [average]: time-averaged fields over a window. Ranges in check_case.
void read_average(const Section& a, sim::CaseSpec& spec, bool si) {
    if (!a.present()) return;
    sim::AverageSpec& r = spec.average;
    r.enabled = true;
    if (a.has("time")) {
        if (!si) a.fail("time", "average.time is in seconds and needs a [units] table; give average.steps otherwise");
        if (a.has("steps")) a.fail("time", "average.steps and average.time are both given; give one");
        const auto t = *a.numbers("time", 2, 2);
        if (!(t[0] >= 0 && t[1] > t[0])) a.fail_value("time", "must be [start, end] with 0 <= start < end (s)");
        r.time = {t[0], t[1]};
    } else if (a.has("steps")) {
        const auto w = *a.integers("steps", 2, 2);
        if (!(w[0] >= 0 && w[1] > w[0])) a.fail_value("steps", "must be [first, last] with 0 <= first < last (steps)");
        r.from = w[0], r.to = w[1];
    }
    if (a.has("interval")) {
        r.interval = *a.integer("interval");
        if (r.interval < 1) a.fail_value("interval", "must be >= 1 (steps between samples)");
    }
    if (a.has("period")) {
        if (!si) a.fail("period", "average.period is in seconds and needs a [units] table; give average.interval otherwise");
        if (a.has("interval")) a.fail("period", "average.interval and average.period are both given; give one");
        r.period = *a.number("period");
        if (!(r.period > 0)) a.fail_value("period", "must be > 0 (s)");
    }
    if (a.has("section")) {
        r.section_axis = int(*a.choice("section", axis_names));
        if (lat::dimensions_of(spec.model.lattice) == 2 && r.section_axis != 2)
            a.fail_value("section", "a 2D lattice has one section, \"z\" (its plane)");
        const auto at = a.number("section_at");
        if (!at && lat::dimensions_of(spec.model.lattice) == 3)
            a.fail_missing("section_at", std::string("give the section's position along its normal (") +
                                             (si ? "m" : "node coordinate") + ")");
        r.section_at = at.value_or(0.0);
    } else if (a.has("section_at") || a.has("profiles")) {
        a.fail(a.has("section_at") ? "section_at" : "profiles",
               "belongs to a section: give average.section (\"x\", \"y\" or \"z\", its normal) too");
    }
    if (auto p = a.numbers("profiles", 1, 16)) r.profiles = *p;
}

/// The title as printed to the terminal and drawn into images: control characters
/// (terminal escape sequences among them, issue 21) written out as \xNN.
std::string printable(const std::string& text) {
    std::string out;
    for (const unsigned char c : text) {
        if (c < 0x20 || c == 0x7f) {
            char b[5];
            std::snprintf(b, sizeof b, "\\x%02x", c);
            out += b;
        } else {
            out += char(c);
        }
    }
    return out;
}

// [units]: the case is in SI; the scales of sim/units.hpp. Needs domain.size (length).
void read_units(const Section& u, sim::CaseSpec& spec) {
    if (!u.present()) return;
    sim::UnitsSpec& s = spec.units;
    s.si = true;
    const auto cell = u.number("cell"), length = u.number("length");
    if (cell && length) u.fail("length", "units.cell and units.length are both given; give one (cell = length / nx)");
    if (!cell && !length)
        u.fail_missing("cell", "give units.cell (the lattice spacing in m) or units.length (the box's x extent in m)");
    if (cell && !(*cell > 0)) u.fail_value("cell", "must be > 0 (m)");
    if (length && !(*length > 0)) u.fail_value("length", "must be > 0 (m)");
    s.cell = cell ? *cell : *length / spec.size[0];
    const auto v = u.number("velocity");
    if (!v) u.fail_missing("velocity", "give the reference velocity in m/s (e.g. the inflow speed)");
    if (!(*v > 0)) u.fail_value("velocity", "must be > 0 (m/s)");
    s.velocity = *v;
    if (auto lv = u.number("lattice_velocity")) {
        if (!(*lv > 0 && *lv < sim::max_lattice_velocity))
            u.fail_value("lattice_velocity", "must be in (0, 0.4) (0.1 is usual; Ma = U_lattice sqrt 3)");
        s.lattice_velocity = *lv;
    }
    if (auto d = u.number("density")) {
        if (!(*d > 0)) u.fail_value("density", "must be > 0 (kg/m^3)");
        s.density = *d;
    }
    if (auto c = u.number("heat_capacity")) {
        if (!(*c > 0)) u.fail_value("heat_capacity", "must be > 0 (J/(kg K))");
        s.heat_capacity = *c;
    }
}

// A face's or obstacle's thermal condition: temperature = T (fixed) or heat_flux = q
// (into the fluid, temperature units times lattice speed), not both. Needs [thermal].
// A face's or obstacle's thermal condition: temperature, heat_flux or (an obstacle:
// `power`, its heat release spread over its surface, sim/simulation.cpp) power.
std::optional<boundary::ScalarCondition> read_thermal_condition(const Section& s, const sim::CaseSpec& spec,
                                                                const std::string& what,
                                                                std::string* expression = nullptr,
                                                                std::optional<double>* power = nullptr) {
    const bool t = s.has("temperature"), q = s.has("heat_flux"), p = power && s.has("power");
    if (!t && !q && !p) return std::nullopt;
    const char* key = t ? "temperature" : q ? "heat_flux" : "power";
    if (!spec.thermal.enabled) s.fail(key, what + " takes a " + key + " only in a case with a [thermal] table");
    if (int(t) + int(q) + int(p) > 1)
        s.fail(p ? "power" : "heat_flux", what + " has more than one of temperature, heat_flux" +
                                              std::string(power ? ", power" : "") + "; give one");
    boundary::ScalarCondition c;
    if (p) {
        c.rule = boundary::ScalarRule::Flux;  // the flux per link follows from the surface (engine_setup)
        *power = *s.number("power");
        return c;
    }
    if (t) {
        c.rule = boundary::ScalarRule::Fixed;
        const auto v = expression ? s.number_or_text("temperature")
                                  : std::optional<Section::NumberOrText>(*s.number("temperature"));
        if (const auto* text = std::get_if<std::string>(&*v)) {
            *expression = parsed_expression(s, "temperature", *text, spec.size);
            c.value = spec.thermal.reference;
        } else {
            c.value = std::get<double>(*v);
        }
    } else {
        c.rule = boundary::ScalarRule::Flux;
        c.value = *s.number("heat_flux");
    }
    return c;
}

// [thermal]: a temperature advected by the flow with Boussinesq buoyancy (seed 004).
// Ranges are checked in check_case.
void read_thermal(const Section& t, sim::CaseSpec& spec) {
    if (!t.present()) return;
    sim::ThermalSpec& th = spec.thermal;
    th.enabled = true;
    const bool two_d = lat::dimensions_of(spec.model.lattice) == 2;
    const auto lattice = read_choice(t, "lattice", std::array<std::string_view, 4>{"D2Q4", "D2Q5", "D3Q6", "D3Q7"},
                                     std::array{lat::CoupledKind::D2Q4, lat::CoupledKind::D2Q5, lat::CoupledKind::D3Q6,
                                                lat::CoupledKind::D3Q7});
    th.lattice = lattice.value_or(two_d ? lat::CoupledKind::D2Q5 : lat::CoupledKind::D3Q7);
    if (lat::dimensions_of(th.lattice) != lat::dimensions_of(spec.model.lattice))
        t.fail_value("lattice", "a " + std::string(two_d ? "2D" : "3D") + " flow lattice (" +
                                    std::string(lat::name_of(spec.model.lattice)) + ") takes " +
                                    (two_d ? "\"D2Q5\" or \"D2Q4\"" : "\"D3Q7\" or \"D3Q6\""));
    const auto d = t.number("diffusivity");
    const auto pr = t.number("prandtl");
    if (d && pr)
        t.fail("prandtl", "thermal.diffusivity and thermal.prandtl are both given; give one (D = nu / Pr)");
    if (!d && !pr) t.fail_missing("diffusivity", "give thermal.diffusivity (lattice units) or thermal.prandtl (D = nu / Pr)");
    if (d) {
        if (!(*d > 0)) t.fail_value("diffusivity", "must be > 0");
        th.diffusivity = *d;
    } else {
        if (!(*pr > 0)) t.fail_value("prandtl", "must be > 0");
        th.prandtl = *pr;
        th.diffusivity = (spec.model.tau - 0.5) / 3.0 / *pr;
    }
    const int collision =
        read_choice(t, "collision", std::array<std::string_view, 3>{"bgk", "trt", "regularized"}, std::array{0, 1, 2})
            .value_or(0);
    th.trt = collision == 1;
    th.regularized = collision == 2;
    if (auto m = t.number("trt_magic")) {
        if (!th.trt) t.fail("trt_magic", "trt_magic is Lambda of thermal.collision = \"trt\"");
        if (!(*m > 0)) t.fail_value("trt_magic", "must be > 0 (3/16 is the usual choice)");
        th.trt_magic = *m;
    }
    th.expansion = t.number("expansion").value_or(0);
    if (auto p = t.number("turbulent_prandtl")) {
        if (!(*p > 0 && *p < 100)) t.fail_value("turbulent_prandtl", "must be in (0, 100) (0.85 is usual for air)");
        if (!(spec.model.smagorinsky > 0))
            t.fail("turbulent_prandtl", "the eddy diffusivity needs the flow's LES: set model.smagorinsky > 0");
        th.turbulent_prandtl = *p;
    }
    if (auto g = read_vector(t, "gravity")) th.gravity = *g;
    th.reference = t.number("reference_temperature").value_or(0);
    th.initial = th.reference;
    if (const auto v = t.number_or_text("initial_temperature")) {
        if (const auto* text = std::get_if<std::string>(&*v)) {
            th.initial_expression = parsed_expression(t, "initial_temperature", *text, spec.size);
        } else {
            th.initial = std::get<double>(*v);
        }
    }
}

// [multiphase] model = "free-energy" (physics/free_energy.hpp): the free energy's a,
// kappa and Gamma, the order parameter's tau_phi, fluid B's viscosity, initial.phi.
void read_free_energy(const Section& m, const Section& init, sim::CaseSpec& spec) {
    sim::MultiphaseSpec& mp = spec.multiphase;
    for (const char* k : {"pseudopotential", "g", "rho0", "b", "gas_constant", "temperature", "mixing", "wall_density"})
        if (m.has(k))
            m.fail(k, "model = \"free-energy\" takes a, kappa, gamma, tau_phi, viscosity_b and contact_angle; this "
                      "key belongs to the Shan-Chen models");
    if (init.has("density_b")) init.fail("density_b", "initial.density_b belongs to model = \"shan-chen-binary\"");
    physics::FreeEnergyParameters& p = mp.free_energy_parameters;
    // a = 0.02, kappa = 0.04 by default (seed 003's capillary waves, §5.4): an interface of
    // width sqrt(2 kappa / a) = 2 spacings, surface tension sqrt(8 kappa a / 9) = 0.0267
    // (Laplace's law gives it within 3.2%, spurious currents 1.1e-4 at tau = 1:
    // tests/test_free_energy.cpp); Gamma = 1 and tau_phi = 1, a mobility M = Gamma (tau_phi -
    // 1/2) = 0.5, well inside the stable range (physics::mobility_stiffness 0.25 of 0.6).
    p.a = m.number("a").value_or(p.a);
    p.kappa = m.number("kappa").value_or(p.kappa);
    p.gamma = m.number("gamma").value_or(p.gamma);
    mp.tau_phi = m.number("tau_phi").value_or(mp.tau_phi);
    mp.viscosity_b = m.number("viscosity_b").value_or(mp.viscosity_b);
    // Walls and obstacles neutral by default (90 degrees: kappa d_n phi = 0).
    mp.contact_angle = m.number("contact_angle").value_or(mp.contact_angle);
    if (!m.has("viscosity_b"))
        m.fail_missing("viscosity_b", "fluid B's kinematic viscosity in lattice units (A's, at phi = +1, is "
                                      "model.viscosity)");
    const auto phi = init.number_or_text("phi");
    if (!phi)
        init.fail_missing("phi", "the initial order parameter: +1 fluid A, -1 fluid B (a number or an expression "
                                 "of x, y, z)");
    if (const auto* text = std::get_if<std::string>(&*phi))
        mp.phi_expression = parsed_expression(init, "phi", *text, spec.size);
    else
        mp.phi = std::get<double>(*phi);
}

// [multiphase]: the Shan-Chen models (seed 003 §2.2.1, physics/shan_chen.hpp): one
// component (liquid and vapour) or two (binary); the free-energy binary fluid (§2.2.2,
// physics/free_energy.hpp). Ranges are checked in check_case.
void read_multiphase(const Section& m, const Section& init, sim::CaseSpec& spec) {
    if (init.has("density_b") && !m.present())
        init.fail("density_b", "initial.density_b is component B's density of [multiphase] model = "
                               "\"shan-chen-binary\"; add that table");
    if (init.has("phi") && !m.present())
        init.fail("phi", "initial.phi is the order parameter of [multiphase] model = \"free-energy\"; add that table");
    if (!m.present()) return;
    sim::MultiphaseSpec& mp = spec.multiphase;
    mp.enabled = true;
    const auto model = read_choice(m, "model", std::array<std::string_view, 3>{"shan-chen", "shan-chen-binary", "free-energy"},
                                   std::array{0, 1, 2});
    if (!model)
        m.fail_missing("model", "choose \"shan-chen\" (one component: liquid and vapour), \"shan-chen-binary\" "
                                "(two components) or \"free-energy\" (a binary fluid)");
    mp.binary = *model != 0;
    mp.free_energy = *model == 2;
    if (mp.free_energy) {
        read_free_energy(m, init, spec);
        return;
    }
    for (const char* k : {"kappa", "gamma", "tau_phi"})
        if (m.has(k)) m.fail(k, "this key belongs to model = \"free-energy\"");
    if (init.has("phi")) init.fail("phi", "initial.phi belongs to model = \"free-energy\"");
    physics::ShanChenParameters& p = mp.shan_chen;
    if (mp.binary) {
        // Two components (kernel/binary.hpp): psi = rho or rho0 (1 - exp(-rho / rho0)), G > 0
        // repelling; B's viscosity and density.
        for (const char* k : {"a", "b", "gas_constant", "temperature", "mixing", "wall_density"})
            if (m.has(k))
                m.fail(k, "model = \"shan-chen-binary\" takes pseudopotential, g, rho0, viscosity_b and "
                          "contact_angle; this key belongs to model = \"shan-chen\"");
        // psi = rho by default (Martys & Chen 1996; Sailfish's default for seed 003's cases).
        p.psi = read_choice(m, "pseudopotential", std::array<std::string_view, 2>{"linear", "exponential"},
                            std::array{physics::Pseudopotential::Linear, physics::Pseudopotential::Exponential})
                    .value_or(physics::Pseudopotential::Linear);
        if (m.has("rho0") && p.psi != physics::Pseudopotential::Exponential)
            m.fail("rho0", "multiphase.rho0 is the exponential pseudopotential's");
        // G = 1.2 (Sailfish's own binary Poiseuille example): two phases with each
        // component's density positive everywhere. Seed 003's G = 1.5 (§5.3, at the edge of
        // stability by its own account) gives a sharper interface, but the minor component's
        // density dips below zero beside it and at walls (measured: -0.0025 against a major
        // 1.04 in its 64 x 256 channel; cases/binary_poiseuille.toml).
        p.g = m.number("g").value_or(1.2);
        p.rho0 = m.number("rho0").value_or(1.0);
        mp.viscosity_b = m.number("viscosity_b").value_or(mp.viscosity_b);
        if (!m.has("viscosity_b"))
            m.fail_missing("viscosity_b", "component B's kinematic viscosity in lattice units (A's is "
                                          "model.viscosity)");
        // Walls and obstacles neutral by default (90 degrees: the mirror image, no adhesion).
        mp.contact_angle = m.number("contact_angle").value_or(mp.contact_angle);
        const auto d = init.number_or_text("density_b");
        if (!d) init.fail_missing("density_b", "component B's initial density (a number or an expression of x, y, z)");
        if (const auto* text = std::get_if<std::string>(&*d))
            mp.density_b_expression = parsed_expression(init, "density_b", *text, spec.size);
        else
            mp.density_b = std::get<double>(*d);
        return;
    }
    if (m.has("viscosity_b")) m.fail("viscosity_b", "this key belongs to model = \"shan-chen-binary\"");
    // Walls and obstacles neutral by default (90 degrees: the mirror image, no adhesion), or
    // wetting by a contact angle (an adhesion calibrated at start) or a wall density.
    mp.contact_angle = m.number("contact_angle").value_or(mp.contact_angle);
    if (m.has("contact_angle") && m.has("wall_density"))
        m.fail("contact_angle", "give the walls' wetting once: a contact angle, or wall_density (the density whose "
                                "pseudopotential they present), not both");
    if (init.has("density_b")) init.fail("density_b", "initial.density_b belongs to model = \"shan-chen-binary\"");
    p.psi = read_choice(m, "pseudopotential",
                        std::array<std::string_view, 3>{"exponential", "carnahan-starling", "inverse-exponential"},
                        std::array{physics::Pseudopotential::Exponential, physics::Pseudopotential::CarnahanStarling,
                                   physics::Pseudopotential::InverseExponential})
                .value_or(p.psi);
    const bool cs = p.psi == physics::Pseudopotential::CarnahanStarling;
    const bool inverse = p.psi == physics::Pseudopotential::InverseExponential;
    const auto only = [&](const char* key, bool allowed, const char* why) {
        if (m.has(key) && !allowed) m.fail(key, why);
    };
    only("rho0", !cs, "multiphase.rho0 is the exponential pseudopotentials'; Carnahan-Starling takes a, b, "
                      "gas_constant and temperature");
    for (const char* k : {"a", "b", "gas_constant", "temperature"})
        only(k, cs, "this key belongs to pseudopotential = \"carnahan-starling\"");
    // G: the exponential form's coupling (-5: liquid 1.93, vapour 0.16); Carnahan-Starling
    // folds the attraction into a, so G only fixes psi's sign (-1, Yuan & Schaefer 2006).
    // The inverse exponential separates below G = -rho0 e^2 (-7.39); -10 gives liquid 2.78
    // and vapour 0.368 (Maxwell's 2.783 and 0.3675).
    p.g = m.number("g").value_or(cs ? -1.0 : inverse ? -10.0 : -5.0);
    p.rho0 = m.number("rho0").value_or(1.0);
    p.a = m.number("a").value_or(1.0);
    p.b = m.number("b").value_or(4.0);
    p.r = m.number("gas_constant").value_or(1.0);
    // 0.7 T_c by default: with a = 1, b = 4, R = 1, the exact difference method and the
    // default mixing below, liquid 0.3581 and vapour 0.00925 (Maxwell's 0.3582 and
    // 0.00929, tests/test_shan_chen.cpp), a density ratio of 39.
    if (cs) p.temperature = m.number("temperature").value_or(0.7 * p.critical_temperature());
    // The mixed force's beta (physics/shan_chen.hpp): 1 (Shan & Chen's force) for the
    // exponential forms, whose coexistence it sets as measured (docs/validation.md);
    // 1.2215 for Carnahan-Starling, calibrated so that its liquid and vapour are Maxwell's
    // within 2% from 0.5 to 0.9 T_c with the exact difference method (with 1 the vapour
    // is 41% low at 0.7 T_c; tests/test_shan_chen.cpp).
    p.mixing = m.number("mixing").value_or(cs ? physics::carnahan_starling_mixing : 1.0);
    mp.wall_density = m.number("wall_density").value_or(-1.0);
    if (m.has("wall_density") && !(mp.wall_density >= 0)) m.fail_value("wall_density", "must be >= 0");
}

sim::CaseSpec read_case(const toml::table& root, const detail::Origin& origin, const std::vector<sim::Obstacle>& given) {
    const Section top(origin, &root, "");
    sim::CaseSpec spec;
    spec.title = printable(top.string("title").value_or(spec.title));

    const bool si = top.table("units").present();
    read_model(top.table("model"), spec.model, si);
    read_domain(top.table("domain"), spec);
    read_units(top.table("units"), spec);

    const Section init = top.table("initial");
    if (const auto d = init.number_or_text("density")) {
        if (const auto* text = std::get_if<std::string>(&*d))
            spec.initial_density_expression = parsed_expression(init, "density", *text, spec.size);
        else
            spec.initial_density = std::get<double>(*d);
    }
    spec.initial_velocity = read_vector(init, "velocity").value_or(std::array<double, 3>{0, 0, 0});
    if (const auto a = init.number("density_noise")) {
        if (!(*a >= 0 && *a < 1)) init.fail_value("density_noise", "must be in [0, 1) (a relative amplitude)");
        spec.initial_noise = *a;
    }
    if (const auto seed = init.integer("seed")) {
        if (*seed < 0) init.fail_value("seed", "must be >= 0");
        if (!init.has("density_noise")) init.fail("seed", "initial.seed draws initial.density_noise; give that too");
        spec.initial_seed = std::uint64_t(*seed);
    }

    read_thermal(top.table("thermal"), spec);
    read_multiphase(top.table("multiphase"), init, spec);
    // The exact difference method by default with [multiphase]: its coexistence and
    // stability at large density ratios (Carnahan-Starling below 0.8 T_c diverged with
    // Guo's forcing here, ran with EDM down to 0.6 T_c; Kupershtokh et al. 2009).
    // The inverse-exponential pseudopotential takes Guo's: its coexistence is Maxwell's only
    // with a forcing that adds no pressure of its own (physics/shan_chen.hpp).
    if (spec.multiphase.enabled && !top.table("model").has("forcing"))
        spec.model.forcing = spec.multiphase.shan_chen.psi == physics::Pseudopotential::InverseExponential
                                 ? physics::ForcingKind::Guo
                                 : physics::ForcingKind::Edm;
    read_boundaries(top.table("boundary"), spec);
    const Section boundaries = top.table("boundary");
    for (int face = 0; face < 6; ++face) {
        const Section f = boundaries.table(face_names[std::size_t(face)]);
        if (f.present())
            spec.thermal.faces[std::size_t(face)] =
                read_thermal_condition(f, spec, "boundary." + std::string(face_names[std::size_t(face)]),
                                       &spec.thermal.face_expressions[std::size_t(face)]);
    }

    const std::vector<Section> obstacles = top.table_array("obstacle");
    spec.obstacles.resize(obstacles.size());
    for (std::size_t i = 0; i < obstacles.size(); ++i) {
        read_obstacle(obstacles[i], i, spec, spec.obstacles[i]);
        spec.obstacles[i].thermal = read_thermal_condition(obstacles[i], spec, "obstacle \"" + spec.obstacles[i].name + "\"",
                                                           nullptr, &spec.obstacles[i].power);
    }

    spec.body_force = read_vector(top.table("force"), "body").value_or(std::array<double, 3>{0, 0, 0});
    read_forces(top.table("forces"), spec, given);

    const Section run = top.table("run");
    spec.run.steps = run.integer("steps").value_or(spec.run.steps);
    if (run.has("time")) {
        if (!si) run.fail("time", "run.time is in seconds and needs a [units] table; give run.steps otherwise");
        if (run.has("steps")) run.fail("time", "run.steps and run.time are both given; give one");
        spec.run.time = *run.number("time");
        if (!(spec.run.time > 0 && spec.run.time < 1e12)) run.fail_value("time", "must be > 0 (s)");
    }
    spec.run.steady_tolerance = run.number("steady_tolerance").value_or(spec.run.steady_tolerance);
    spec.run.check_interval = run.integer("check_interval").value_or(spec.run.check_interval);
    if (auto r = run.numbers("density_range", 2, 2)) {
        spec.run.density_min = (*r)[0];
        spec.run.density_max = (*r)[1];
    } else if (spec.multiphase.enabled) {
        // A vapour may be far lighter than 0.1 (Carnahan-Starling at 0.5 T_c: 0.00063). Two
        // Shan-Chen components: each density is watched, and the minor one dips below zero
        // beside an interface and at walls at strong coupling (seed 003's G = 1.5: -0.0025
        // in its channel, cases/binary_poiseuille.toml), a model's artefact, not a
        // divergence, which leaves this range by far more.
        spec.run.density_min = sim::two_components(spec) ? -0.05 : 1e-6;
    }
    spec.run.backend = read_choice(run, "backend", std::array<std::string_view, 3>{"auto", "cpu", "cuda"},
                                   std::array{sim::BackendChoice::Auto, sim::BackendChoice::Cpu, sim::BackendChoice::Cuda})
                           .value_or(spec.run.backend);

    const Section out = top.table("output");
    spec.output.directory = out.string("directory").value_or(spec.output.directory);
    spec.output.interval = out.integer("interval").value_or(spec.output.interval);
    if (out.has("period")) {
        if (!si) out.fail("period", "output.period is in seconds and needs a [units] table; give output.interval otherwise");
        if (out.has("interval")) out.fail("period", "output.interval and output.period are both given; give one");
        spec.output.period = *out.number("period");
        if (!(spec.output.period > 0)) out.fail_value("period", "must be > 0 (s)");
    }
    if (auto fields = out.strings("fields")) {
        spec.output.density = spec.output.velocity = spec.output.node_kind = spec.output.temperature = false;
        for (const std::string& f : *fields) {
            if (f == "density") spec.output.density = true;
            else if (f == "velocity") spec.output.velocity = true;
            else if (f == "node_kind") spec.output.node_kind = true;
            else if (f == "temperature" && spec.thermal.enabled) spec.output.temperature = true;
            else
                out.fail_value("fields", "\"" + f + "\" is not a field; choose from \"density\", \"velocity\", "
                                         "\"node_kind\"" + std::string(spec.thermal.enabled ? ", \"temperature\"" : ""));
        }
    }
    if (auto formats = out.strings("formats")) {
        spec.output.vti = spec.output.png = false;
        for (const std::string& f : *formats) {
            if (f == "vti") spec.output.vti = true;
            else if (f == "png") spec.output.png = true;
            else out.fail_value("formats", "\"" + f + "\" is not a format; choose from \"vti\", \"png\"");
        }
    }
    if (auto c = out.choice("compression", std::array<std::string_view, 2>{"none", "zlib"})) spec.output.zlib = *c == 1;
    // z by default, the only slice a 2D lattice has (check_case rejects others there).
    spec.output.slice_axis = int(out.choice("slice_axis", axis_names).value_or(2));
    spec.output.slice_position = out.number("slice_position").value_or(spec.output.slice_position);
    read_probes(top.table("probes"), spec, si);
    read_average(top.table("average"), spec, si);
    sim::to_lattice_units(spec);  // SI at the edge: lattice units from here on
    // Obstacles made in code (in lattice units) join the case's after its own.
    spec.obstacles.insert(spec.obstacles.end(), given.begin(), given.end());
    return spec;
}

/// One value in the canonical text: numbers with every digit (%.17g), strings quoted
/// with their control characters and quotes escaped, arrays bracketed. Written here
/// rather than by toml++'s formatter, whose float layout differs between its
/// versions (the fingerprint must not change with the library) and which converts a
/// negative logarithm to an unsigned size (undefined behaviour, found by fuzzing).
void write_value(const toml::node& v, std::string& out) {
    char b[40];
    if (const auto* x = v.as_integer()) {
        std::snprintf(b, sizeof b, "%lld", static_cast<long long>(x->get()));
        out += b;
    } else if (const auto* d = v.as_floating_point()) {
        std::snprintf(b, sizeof b, "%.17g", d->get());
        out += b;
    } else if (const auto* t = v.as_boolean()) {
        out += t->get() ? "true" : "false";
    } else if (const auto* str = v.as_string()) {
        out += '"';
        for (const unsigned char c : str->get()) {
            if (c == '"' || c == '\\') out += '\\', out += char(c);
            else if (c < 0x20 || c == 0x7f) std::snprintf(b, sizeof b, "\\u%04x", c), out += b;
            else out += char(c);
        }
        out += '"';
    } else if (const auto* a = v.as_array()) {
        out += '[';
        for (std::size_t k = 0; k < a->size(); ++k) {
            if (k) out += ", ";
            if (const auto* inner = a->get(k)->as_table()) {
                out += "{";
                bool first = true;
                for (const auto& [key, value] : *inner) {
                    out += (first ? "" : ", ") + std::string(key.str()) + " = ";
                    first = false;
                    write_value(value, out);
                }
                out += "}";
            } else {
                write_value(*a->get(k), out);
            }
        }
        out += ']';
    } else {
        out += "?";  // dates and times: no case key takes one (the key checker refuses them)
    }
}

/// A table as "key = value" lines under a "[prefix]" line, keys in order, then its
/// tables and arrays of tables (each element as [prefix.key.N]).
void write_canonical(const toml::table& t, const std::string& prefix, std::string& out) {
    bool header = prefix.empty();
    for (const auto& [key, value] : t) {
        const bool nested = value.is_table() || (value.is_array_of_tables() && !value.as_array()->empty());
        if (nested) continue;
        if (!header) out += "[" + prefix + "]\n", header = true;
        out += std::string(key.str()) + " = ";
        write_value(value, out);
        out += '\n';
    }
    for (const auto& [key, value] : t) {
        const std::string name = prefix.empty() ? std::string(key.str()) : prefix + "." + std::string(key.str());
        if (const auto* sub = value.as_table()) {
            write_canonical(*sub, name, out);
        } else if (value.is_array_of_tables() && !value.as_array()->empty()) {
            const auto& a = *value.as_array();
            for (std::size_t k = 0; k < a.size(); ++k) write_canonical(*a.get(k)->as_table(), name + "." + std::to_string(k), out);
        }
    }
}

/// sim::CaseSpec::canonical: the case written back (keys sorted, comments and layout
/// gone, overrides applied; write_canonical), without the keys a restart may change and the
/// title, and with the relaxation time as the resolved model.tau (a case giving the
/// viscosity and one giving the same tau are the same case).
std::string canonical_text(const toml::table& root, const sim::CaseSpec& spec) {
    toml::table kept = root;
    if (toml::table* run = kept.get_as<toml::table>("run")) {
        run->erase("steps");
        run->erase("time");  // an SI case's run.steps (issue 27: its restarts could not go further)
        run->erase("backend");
        if (run->empty()) kept.erase("run");  // --set run.steps=N on a case without [run] makes one
    }
    kept.erase("output");
    kept.erase("title");
    if (toml::table* model = kept.get_as<toml::table>("model")) {
        model->erase("viscosity");
        model->insert_or_assign("tau", spec.model.tau);
    } else {
        kept.insert_or_assign("model", toml::table{{"tau", spec.model.tau}});
    }
    std::string text;
    write_canonical(kept, "", text);
    return text;
}

/// sim::CaseSpec::fingerprint: FNV-1a (64 bits) of the canonical text.
std::string fingerprint(const std::string& canonical) {
    std::uint64_t h = 14695981039346656037ull;
    for (const unsigned char c : canonical) h = (h ^ c) * 1099511628211ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return hex;
}

}  // namespace

sim::CaseSpec parse_case_string(std::string_view toml_text, const std::vector<std::string>& overrides,
                                std::string_view source_name, const std::vector<sim::Obstacle>& given) {
    const std::string source(source_name);
    toml::table root;
    try {
        root = toml::parse(toml_text, std::string_view(source));
    } catch (const toml::parse_error& e) {
        const auto& p = e.source().begin;
        throw CaseError(source + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) +
                        ": TOML syntax error: " + std::string(e.description()));
    }
    detail::Origin origin(source);
    detail::apply_overrides(root, overrides, origin);
    // tau and viscosity say the same thing, so overriding one replaces the
    // other as given in the case (--set model.tau=0.8 on a case with viscosity).
    if (toml::table* model = root.get_as<toml::table>("model")) {
        const bool tau = origin.overridden("model.tau"), nu = origin.overridden("model.viscosity");
        if (tau && !nu) model->erase("viscosity");
        if (nu && !tau) model->erase("tau");
    }
    const std::vector<std::string> known = known_keys();
    detail::check_known_keys(root, known, origin);

    sim::CaseSpec spec = read_case(root, origin, given);
    sim::fill_model_defaults(spec);
    sim::check_case(spec);
    spec.canonical = canonical_text(root, spec);
    spec.fingerprint = fingerprint(spec.canonical);
    spec.source = source;
    return spec;
}

namespace {
/// A canonical text as TOML that reads back as the case: write_canonical heads the
/// elements of an array of tables [name.0], [name.1], ... (in order), which TOML would
/// read as a table of tables; they become [[name]].
std::string readable(const std::string& canonical) {
    std::istringstream in(canonical);
    std::string line, out;
    while (std::getline(in, line)) {
        const auto dot = line.rfind('.');
        if (line.size() > 2 && line.front() == '[' && line.back() == ']' && dot != std::string::npos &&
            dot + 2 < line.size() &&
            line.find_first_not_of("0123456789", dot + 1) == line.size() - 1)
            line = "[[" + line.substr(1, dot - 1) + "]]";
        out += line + '\n';
    }
    return out;
}
}  // namespace

bool same_case(const std::string& canonical_a, const std::string& canonical_b, std::string_view source) {
    try {
        const sim::CaseSpec a = parse_case_string(readable(canonical_a), {}, source);
        sim::CaseSpec b = parse_case_string(readable(canonical_b), {}, source);
        b.canonical = a.canonical, b.fingerprint = a.fingerprint;
        // What a restart may change: the length (a text written before run.time left the
        // canonical text still holds it).
        b.run.steps = a.run.steps, b.run.time = a.run.time;
        return a == b;
    } catch (const std::exception&) {
        return false;  // a text this build no longer reads (keys renamed since): not shown to be the same
    }
}

std::string read_case_text(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw CaseError("cannot read case file '" + file.string() + "'");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw CaseError("cannot read case file '" + file.string() + "'");
    return text.str();
}

sim::CaseSpec parse_case_file(const std::filesystem::path& file, const std::vector<std::string>& overrides,
                              const std::vector<sim::Obstacle>& given) {
    return parse_case_string(read_case_text(file), overrides, file.string(), given);
}

std::string_view default_case_toml() {
    // Kept in step with cases/cavity3d_re100.toml.
    return R"(# Barracuda's built-in case: a lid-driven cavity in 3D.
# Re = U N / nu = 0.1 * 48 / 0.048 = 100 (lattice units: dx = dt = 1).
title = "Lid-driven cavity 48^3, Re = 100"

[model]
lattice = "D3Q19"
collision = "bgk"
equilibrium = "compressible"
precision = "fp32"
viscosity = 0.048           # tau = 3 nu + 0.5 = 0.644

[domain]
size = [48, 48, 48]

# The lid slides along +x; every other face is a resting wall.
[boundary]
x_min = { type = "wall" }
x_max = { type = "wall" }
y_min = { type = "wall" }
y_max = { type = "moving_wall", velocity = [0.1, 0.0, 0.0] }
z_min = { type = "wall" }
z_max = { type = "wall" }

[run]
steps = 4000

[output]
directory = "barracuda-out"
interval = 1000
formats = ["vti", "png"]
slice_axis = "z"
slice_position = 0.5
)";
}

}  // namespace barracuda::io
