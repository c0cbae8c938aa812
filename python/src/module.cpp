// barracuda._core: the C++ side of the Python module (python/barracuda/__init__.py is
// the API users see, with its docstrings). It drives sim::Simulation, the object
// `barracuda run` drives, so a case stepped from Python gives the CLI's numbers bit for
// bit; only the loop around it differs: the GIL is released while the engine steps, and
// Ctrl-C is looked at between chunks of steps (about a fifth of a second each).
//
// nanobind (not pybind11): numpy arrays are made over our own buffers without a copy
// (nb::ndarray with a capsule that owns the buffer), and its binaries and compile times
// are several times smaller; docs/python.md says more.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <atomic>
#include <memory>
#include <sstream>
#include <optional>
#include <string>
#include <vector>

#include "backend/bandwidth.hpp"
#include "backend/device_info.hpp"
#include "backend/offered.hpp"
#include "common/error.hpp"
#include "io/case_file.hpp"
#include "io/checkpoint.hpp"
#include "sim/simulation.hpp"
#include "validation/case.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace barracuda::python {
namespace {

using clock_type = std::chrono::steady_clock;

/// A divergence as Python sees it: barracuda.DivergenceError(message, step, cell, field, value).
struct Diverged : DivergenceError {
    sim::Divergence d;
    bool has_cell = true;  // false: a face expression went bad, no cell to name
    explicit Diverged(sim::Divergence x, bool cell = true)
        : DivergenceError(x.message), d(std::move(x)), has_cell(cell) {}
};
nb::handle divergence_type;  // barracuda._core.DivergenceError (the module holds it)

sim::BackendChoice parse_backend(const std::string& s) {
    if (s == "cpu") return sim::BackendChoice::Cpu;
    if (s == "cuda") return sim::BackendChoice::Cuda;
    if (s == "auto") return sim::BackendChoice::Auto;
    throw CaseError("backend = \"" + s + "\": expected \"auto\", \"cpu\" or \"cuda\"");
}

/// Asks Python whether a signal (Ctrl-C) came, with the GIL; throws its exception.
void check_signals() {
    nb::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw nb::python_error();
}

/// A solid mask from numpy as a voxel obstacle named `name`, one voxel per node.
struct Mask {
    std::shared_ptr<const geometry::Voxels> voxels;
    std::string name;
};

/// Where a case comes from: its TOML text (a dict made TOML by the Python side, or a
/// file's text read once, so that a checkpoint holds the case as it ran), the name that
/// messages give and beside which a file's relative obstacle files are found (as
/// io::parse_case_file does), and the overrides given since.
struct CaseSource {
    std::string text;
    std::string name;
    std::vector<std::string> overrides;
    /// A file's text and its name (relative obstacle files are found beside it).
    static CaseSource of_file(const std::string& file) {
        std::ifstream in(file, std::ios::binary);
        if (!in) throw CaseError("cannot read case file '" + file + "'");
        std::ostringstream text;
        text << in.rdbuf();
        if (in.bad()) throw CaseError("cannot read case file '" + file + "'");
        return {text.str(), file, {}};
    }
    sim::CaseSpec parse(const std::vector<sim::Obstacle>& given = {}) const {
        return io::parse_case_string(text, overrides, name, given);
    }
};

/// The case read with the mask as its last obstacle ([forces] may name it).
sim::CaseSpec with_mask(const CaseSource& source, const std::optional<Mask>& mask) {
    if (!mask) return source.parse({});
    sim::Obstacle o;
    o.kind = geometry::Body::Kind::Voxels;
    o.voxels = mask->voxels;
    o.name = mask->name;
    auto spec = source.parse({o});
    const auto& n = mask->voxels->n;
    if (n != spec.size)
        throw CaseError("set_solid: the mask's shape (" + std::to_string(n[0]) + ", " + std::to_string(n[1]) + ", " +
                        std::to_string(n[2]) + ") is not domain.size (" + std::to_string(spec.size[0]) + ", " +
                        std::to_string(spec.size[1]) + ", " + std::to_string(spec.size[2]) + ") in (x, y, z) order");
    if (std::count_if(spec.obstacles.begin(), spec.obstacles.end(), [&](const auto& x) { return x.name == o.name; }) > 1)
        throw CaseError("set_solid: name = \"" + o.name + "\" is already an obstacle's name in the case; pick another");
    return spec;
}

/// A numpy array over `data` (moved into a capsule that frees it with the array), with
/// shape and strides in elements.
template <class T>
nb::ndarray<nb::numpy> owned_array(std::vector<T>&& data, const std::vector<std::size_t>& shape,
                                   const std::vector<std::int64_t>& strides) {
    auto* held = new std::vector<T>(std::move(data));
    nb::capsule owner(held, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
    return nb::ndarray<nb::numpy>(held->data(), shape.size(), shape.data(), owner, strides.data(), nb::dtype<T>());
}

/// The same over a buffer left uninitialised until the engine writes it (new T[n], as
/// numpy.empty): the copy from the GPU is the first to touch its pages.
template <class T>
nb::ndarray<nb::numpy> owned_array(std::unique_ptr<T[]> data, const std::vector<std::size_t>& shape,
                                   const std::vector<std::int64_t>& strides) {
    T* held = data.release();
    nb::capsule owner(held, [](void* p) noexcept { delete[] static_cast<T*>(p); });
    return nb::ndarray<nb::numpy>(held, shape.size(), shape.data(), owner, strides.data(), nb::dtype<T>());
}

/// One call at a time on a simulation: its methods release the GIL, so two Python
/// threads could otherwise step one engine together. A second thread gets an error
/// rather than a wait (waiting here, holding the GIL, could deadlock with the first).
class Busy {
public:
    explicit Busy(std::atomic<bool>& flag) : flag_(flag) {
        if (flag_.exchange(true))
            throw std::runtime_error("barracuda.Simulation: another thread is using this simulation (one call at a time)");
    }
    ~Busy() { flag_.store(false); }
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;

private:
    std::atomic<bool>& flag_;
};

class Simulation {
public:
    Simulation(CaseSource source, const std::string& backend, std::optional<Mask> mask)
        : source_(std::move(source)), backend_(parse_backend(backend)), mask_(std::move(mask)) {
        build();
    }

    // ---- stepping ---------------------------------------------------------------------
    /// n steps, the GIL released, Ctrl-C answered between chunks; the stability check when
    /// the steps pass a multiple of run.check_interval, as barracuda run checks (a check
    /// reads every population: after every step(1) it would halve the speed).
    void step(std::int64_t n) {
        if (n < 0) throw CaseError("step: n = " + std::to_string(n) + ": expected 0 or more");
        Busy busy(busy_);
        const std::int64_t every = sim().spec().run.check_interval, from = sim().time();
        advance(n);
        if (sim().time() / every > from / every) check();
    }

    /// `steps` steps, checked every `every` steps (default: run.check_interval), with
    /// `callback(time)` called after each check.
    void run(std::int64_t steps, const std::function<void(std::int64_t)>& callback, std::int64_t every) {
        if (steps < 0) throw CaseError("run: steps = " + std::to_string(steps) + ": expected 0 or more");
        std::int64_t now = 0, end = 0;
        {
            Busy busy(busy_);
            if (every <= 0) every = sim().spec().run.check_interval;
            now = sim().time();
            end = now + steps;
        }
        while (now < end) {
            {
                Busy busy(busy_);  // not over the callback, which may read fields, steer or step
                now = sim().time();
                if (now >= end) break;
                advance(std::min(end, (now / every + 1) * every) - now);
                check();
                now = sim().time();
            }
            check_signals();  // also between segments: with every = 1 a segment is one chunk
            if (callback) callback(now);
        }
    }

    std::int64_t time() {
        Busy busy(busy_);
        return sim().time();
    }

    // ---- fields -----------------------------------------------------------------------
    /// "rho", "u" or "theta" as numpy over the whole box in (x, y, z[, component]) order.
    /// lattice: in lattice units and the engine's arithmetic type; else in the case's
    /// units (an SI case: kg/m^3, m/s, as barracuda run writes them; float64).
    nb::ndarray<nb::numpy> field(const std::string& which, bool lattice) {
        Busy busy(busy_);
        const auto& spec = sim().spec();
        const auto nx = std::size_t(spec.size[0]), ny = std::size_t(spec.size[1]), nz = std::size_t(spec.size[2]);
        const std::size_t cells = nx * ny * nz;
        const int comps = which == "u" ? 3 : 1;
        if (which == "theta" && !spec.thermal.enabled)
            throw CaseError("temperature(): the case has no [thermal] table, so no temperature");
        // x fastest in memory, indexed [x, y, z(, component)].
        const auto s = std::int64_t(comps);
        std::vector<std::size_t> shape{nx, ny, nz};
        std::vector<std::int64_t> strides{s, s * std::int64_t(nx), s * std::int64_t(nx * ny)};
        if (comps == 3) shape.push_back(3), strides.push_back(1);
        const bool si = spec.units.si && !lattice;
        const bool direct = !spec.stores_sublattice() && !sim().subdomain().decomposed();
        auto& engine = sim().engine();
        if (direct && !si && which != "theta") {
            // Straight from the engine into the array: one kernel and one copy on the GPU.
            auto fetch = [&](auto* out) {
                nb::gil_scoped_release nogil;
                engine.fields_native(which == "rho" ? out : nullptr, which == "u" ? out : nullptr, nullptr);
            };
            const std::size_t n = std::size_t(comps) * cells;
            if (engine.native_bytes() == 4) {
                std::unique_ptr<float[]> out(new float[n]);
                fetch(out.get());
                return owned_array(std::move(out), shape, strides);
            }
            std::unique_ptr<double[]> out(new double[n]);  // FP64
            fetch(out.get());
            return owned_array(std::move(out), shape, strides);
        }
        // Through the host fields in double (a sub-lattice, a temperature, SI units): the
        // values barracuda run writes.
        std::vector<double> rho, u, t;
        {
            nb::gil_scoped_release nogil;
            if (which == "theta") {
                sim().owned_temperature(t);
            } else {
                sim().owned_fields(rho, u);
            }
        }
        if (which == "theta") return owned_array(std::move(t), shape, strides);
        std::vector<double>& out = which == "u" ? u : rho;
        if (si) {  // as io::RunWriter writes them
            const double scale = which == "u" ? spec.units.velocity_scale() : spec.units.density;
            for (double& v : out) v *= scale;
            return owned_array(std::move(out), shape, strides);
        }
        if (engine.native_bytes() == 4) return owned_array(std::vector<float>(out.begin(), out.end()), shape, strides);
        return owned_array(std::move(out), shape, strides);
    }

    nb::ndarray<nb::numpy> node_kinds() {
        Busy busy(busy_);
        const auto& spec = sim().spec();
        auto kinds = sim::output_node_kinds(spec);
        const auto nx = std::size_t(spec.size[0]), ny = std::size_t(spec.size[1]), nz = std::size_t(spec.size[2]);
        return owned_array(std::move(kinds), {nx, ny, nz}, {1, std::int64_t(nx), std::int64_t(nx * ny)});
    }

    /// Forces on the obstacles named in forces.obstacles, lattice units, after the last step.
    std::vector<std::pair<std::string, std::array<double, 3>>> forces() {
        Busy busy(busy_);
        const auto f = sim().forces_all();
        std::vector<std::pair<std::string, std::array<double, 3>>> out;
        for (std::size_t k = 0; k < f.size(); ++k) out.emplace_back(sim().spec().forces.obstacles[k], f[k]);
        return out;
    }

    /// Min/max/mean reductions of the stability watch (no check).
    nb::dict observe() {
        Busy busy(busy_);
        const auto o = sim().observe_all(false);
        nb::dict d;
        d["u_max"] = o.u_max;
        d["rho_min"] = o.rho_min;
        d["rho_max"] = o.rho_max;
        d["mean_density"] = o.mean_density();
        if (sim().spec().thermal.enabled) {
            d["temperature_min"] = o.theta_min + sim().spec().thermal.reference;
            d["temperature_max"] = o.theta_max + sim().spec().thermal.reference;
        }
        // Two Shan-Chen components: rho is A's density, theta B's; the free energy's theta is phi.
        if (sim::two_components(sim().spec())) {
            d["rho_b_min"] = o.theta_min;
            d["rho_b_max"] = o.theta_max;
            d["mean_density_b"] = o.mean_theta();
        } else if (sim::order_parameter(sim().spec())) {
            d["phi_min"] = o.theta_min;
            d["phi_max"] = o.theta_max;
        }
        return d;
    }

    // ---- changes between steps --------------------------------------------------------
    /// Overrides ("key=value", as --set) applied to the running case (sim::Simulation::steer).
    void update(const std::vector<std::string>& overrides) {
        Busy busy(busy_);
        CaseSource next = source_;
        next.overrides.insert(next.overrides.end(), overrides.begin(), overrides.end());
        auto spec = with_mask(next, mask_);
        try {
            nb::gil_scoped_release nogil;
            sim().steer(std::move(spec));
        } catch (...) {
            if (!sim().usable()) sim_.reset();  // steer could not put the old engine back
            throw;
        }
        source_ = std::move(next);
    }

    using MaskArray = nb::ndarray<nb::numpy, const bool, nb::ndim<3>, nb::device::cpu>;
    /// A mask given with the case: checked against the case's size, then one allocation.
    Simulation(CaseSource source, const std::string& backend, MaskArray mask, const std::string& name)
        : source_(std::move(source)), backend_(parse_backend(backend)) {
        mask_ = make_mask(mask, name);
        build();
    }

    /// Solid nodes from a mask (before the first step): the simulation is made again.
    void set_solid(MaskArray mask, const std::string& name) {
        Busy busy(busy_);
        if (sim().time() > 0)
            throw CaseError("set_solid: the simulation has advanced " + std::to_string(sim().time()) +
                            " steps; solid nodes can be set only before the first step");
        auto previous = std::move(mask_);
        mask_ = make_mask(mask, name);
        try {
            build();
        } catch (...) {
            mask_ = std::move(previous);
            restore_build();
            throw;
        }
    }

    static Mask make_mask(MaskArray mask, const std::string& name) {
        const std::array<int, 3> n{int(mask.shape(0)), int(mask.shape(1)), int(mask.shape(2))};
        if (name.empty()) throw CaseError("set_solid: name = \"\": give the obstacle a name");
        auto v = std::make_shared<geometry::Voxels>();
        v->n = n;
        v->solid.resize(std::size_t(n[0]) * std::size_t(n[1]) * std::size_t(n[2]));
        auto view = mask.view();
        for (int z = 0; z < n[2]; ++z)
            for (int y = 0; y < n[1]; ++y)
                for (int x = 0; x < n[0]; ++x)
                    v->solid[std::size_t(x) + std::size_t(n[0]) * (std::size_t(y) + std::size_t(n[1]) * std::size_t(z))] =
                        view(x, y, z) ? 1 : 0;
        return Mask{std::move(v), name};
    }

    // ---- checkpoints --------------------------------------------------------------------
    /// The state and everything needed to make the simulation again: the case text or
    /// file, the overrides, the mask (checkpoint tag, io/checkpoint.hpp).
    void checkpoint(const std::string& path) {
        Busy busy(busy_);
        io::Checkpoint c;
        c.time = sim().time();
        c.tag = tag();
        {
            nb::gil_scoped_release nogil;
            c.state = sim().engine().save_state();
            io::write_checkpoint(path, c);
        }
    }

    static Simulation* restart(const std::string& path, const std::string& backend) {
        auto c = io::read_checkpoint(path);
        if (!c) throw CaseError("restart: '" + path + "' does not exist");
        CaseSource source;
        std::optional<Mask> mask;
        read_tag(c->tag, path, source, mask);
        auto* s = new Simulation(std::move(source), backend, std::move(mask));
        try {
            nb::gil_scoped_release nogil;
            s->sim().restore(c->time, c->state);
        } catch (...) {
            delete s;
            throw;
        }
        return s;
    }

    nb::dict info() {
        Busy busy(busy_);
        const auto& spec = sim().spec();
        auto& e = sim().engine();
        nb::dict d;
        d["description"] = e.description();
        d["backend"] = sim().backend() == sim::BackendChoice::Cuda ? "cuda" : "cpu";
        std::string device = "CPU";
        if (sim().backend() == sim::BackendChoice::Cuda) {
            const auto gpus = backend::cuda_devices();
            if (!gpus.empty()) device = gpus.front().name;
        }
        d["device"] = device;
        d["lattice"] = std::string(lattice::name_of(spec.model.lattice));
        d["size"] = spec.size;
        d["cells"] = spec.cells();
        d["memory_bytes"] = e.memory_bytes();
        d["bytes_per_cell_update"] = e.bytes_per_cell_update();
        d["dtype"] = e.native_bytes() == 4 ? "float32" : "float64";
        d["si_units"] = spec.units.si;
        d["thermal"] = spec.thermal.enabled;
        d["title"] = spec.title;
        if (spec.units.si) {
            d["dt"] = spec.units.dt();
            d["dx"] = spec.units.cell;
        }
        return d;
    }

    std::vector<std::string> force_names() {
        Busy busy(busy_);
        return sim().spec().forces.obstacles;
    }

private:
    /// The simulation; an error once a failed change could not put the old one back.
    sim::Simulation& sim() const {
        if (!sim_)
            throw std::runtime_error("barracuda.Simulation: unusable after a change that failed and could not be "
                                     "undone (see the error it raised); make a new Simulation");
        return *sim_;
    }

    /// Makes the simulation of the source and mask (its memory freed first: the new one
    /// may need all of it). On failure sim_ is empty; callers put the old source back and
    /// call restore_build().
    void build() {
        auto spec = with_mask(source_, mask_);
        sim_.reset();
        nb::gil_scoped_release nogil;
        sim_ = std::make_unique<sim::Simulation>(spec, backend_);
    }
    /// After a failed build with the previous source and mask back in place: the previous
    /// simulation again (at step 0: only set_solid builds, and only before the first step).
    void restore_build() noexcept {
        try {
            build();
        } catch (...) {
            sim_.reset();  // sim() says so from now on
        }
    }

    void advance(std::int64_t n) {
        std::int64_t chunk = 1;
        while (n > 0) {
            const std::int64_t k = std::min(chunk, n);
            const auto t0 = clock_type::now();
            {
                nb::gil_scoped_release nogil;
                try {
                    sim().advance(k);
                } catch (const CaseError& e) {  // an expression went bad during the run
                    sim::Divergence d;
                    d.step = sim().time() + 1;
                    d.field = "expression";
                    d.value = std::nan("");
                    d.message = std::string("the run stopped at step ") + std::to_string(d.step) + ": " + e.what();
                    throw Diverged(std::move(d), false);
                }
            }
            n -= k;
            const double took = std::chrono::duration<double>(clock_type::now() - t0).count() / double(k);
            chunk = std::clamp<std::int64_t>(std::int64_t(0.2 / std::max(took, 1e-9)), 1, std::int64_t(1) << 20);
            if (n > 0) check_signals();
        }
    }

    void check() {
        sim::Observation o;
        {
            nb::gil_scoped_release nogil;
            o = sim().observe_all(false);
        }
        if (auto d = sim::divergence_in(sim().spec(), o, sim().time())) throw Diverged(std::move(*d));
    }

    // The tag: "barracuda-python 1\n" then length-prefixed strings.
    static void put(std::string& t, const std::string& s) { t += std::to_string(s.size()) + ":" + s; }
    std::string tag() const {
        std::string t = "barracuda-python 1\n";
        put(t, source_.text);
        // A file's name made absolute: a restart elsewhere still finds its obstacle files.
        const bool file = std::filesystem::exists(source_.name);
        put(t, file ? std::filesystem::absolute(source_.name).string() : source_.name);
        put(t, std::to_string(source_.overrides.size()));
        for (const auto& o : source_.overrides) put(t, o);
        put(t, mask_ ? mask_->name : "");
        if (mask_) {
            const auto& v = *mask_->voxels;
            put(t, std::to_string(v.n[0]) + " " + std::to_string(v.n[1]) + " " + std::to_string(v.n[2]));
            put(t, std::string(v.solid.begin(), v.solid.end()));
        }
        return t;
    }
    static void read_tag(const std::string& t, const std::string& path, CaseSource& source, std::optional<Mask>& mask) {
        const std::string head = "barracuda-python 1\n";
        auto bad = [&] {
            return CaseError("restart: '" + path +
                             "' is a checkpoint of barracuda run, not of the Python module (Simulation.checkpoint); "
                             "go on with `barracuda run --restart DIR`");
        };
        if (t.compare(0, head.size(), head) != 0) throw bad();
        std::size_t at = head.size();
        // A whole number written by tag(); anything else is not such a checkpoint.
        auto number = [&](const std::string& text) {
            std::uint64_t v = 0;
            const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
            if (r.ec != std::errc() || r.ptr != text.data() + text.size()) throw bad();
            return v;
        };
        auto get = [&]() {
            const auto colon = t.find(':', at);
            if (colon == std::string::npos) throw bad();
            const std::uint64_t n = number(t.substr(at, colon - at));
            if (n > t.size() - colon - 1) throw bad();
            std::string s = t.substr(colon + 1, std::size_t(n));
            at = colon + 1 + std::size_t(n);
            return s;
        };
        source.text = get();
        source.name = get();
        const std::uint64_t count = number(get());
        for (std::uint64_t k = 0; k < count; ++k) source.overrides.push_back(get());
        const std::string name = get();
        if (!name.empty()) {
            auto v = std::make_shared<geometry::Voxels>();
            std::istringstream dims(get());
            if (!(dims >> v->n[0] >> v->n[1] >> v->n[2]) || v->n[0] < 1 || v->n[1] < 1 || v->n[2] < 1) throw bad();
            const std::string bytes = get();
            if (bytes.size() != std::size_t(v->n[0]) * std::size_t(v->n[1]) * std::size_t(v->n[2])) throw bad();
            v->solid.assign(bytes.begin(), bytes.end());
            mask = Mask{std::move(v), name};
        }
        if (at != t.size()) throw bad();
    }

    CaseSource source_;
    sim::BackendChoice backend_;
    std::optional<Mask> mask_;
    std::unique_ptr<sim::Simulation> sim_;
    std::atomic<bool> busy_{false};
};

/// The stream-collide kernel of a case alone: MLUPS and effective bandwidth (the
/// bytes the engine moves per cell update), as barracuda bench times it.
nb::dict bench_case(const std::string& text, std::int64_t steps, std::int64_t warmup, const std::string& backend,
                    bool copy) {
    auto spec = io::parse_case_string(text, {}, "bench");
    sim::Simulation s(spec, parse_backend(backend));
    double seconds = 0;
    {
        nb::gil_scoped_release nogil;
        auto& e = s.engine();
        e.step(warmup);
        e.observe(0, 1e30, false);  // waits for the device
        const auto t0 = clock_type::now();
        e.step(steps);
        e.observe(0, 1e30, false);
        seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
    }
    auto& e = s.engine();
    const double mlups = double(steps) * double(spec.stored_nodes()) / seconds / 1e6;
    nb::dict d;
    d["description"] = e.description();
    d["backend"] = s.backend() == sim::BackendChoice::Cuda ? "cuda" : "cpu";
    d["steps"] = steps;
    d["seconds"] = seconds;
    d["mlups"] = mlups;
    d["bytes_per_cell_update"] = e.bytes_per_cell_update();
    d["gbps"] = mlups * 1e6 * double(e.bytes_per_cell_update()) / 1e9;
    if (copy) {
        const bool cuda = s.backend() == sim::BackendChoice::Cuda;
        backend::CopyBandwidth b;
        {
            nb::gil_scoped_release nogil;
            b = backend::measure_copy_bandwidth(cuda, backend::default_copy_bytes(cuda));
        }
        d["copy_gbps"] = b.kernel_gbps;
        d["memcpy_gbps"] = b.memcpy_gbps;
    }
    return d;
}

/// A validation case as the registry describes it (validation/case.hpp).
nb::dict describe(const validation::Case& c) {
    nb::dict d;
    d["name"] = c.name;
    d["title"] = c.title;
    d["citation"] = c.citation;
    d["compares"] = c.compares;
    d["short_setup"] = c.short_setup;
    d["full_setup"] = c.full_setup;
    d["full_only"] = c.full_only;
    return d;
}

nb::list validation_cases() {
    nb::list out;
    for (const auto& c : validation::cases()) out.append(describe(c));
    return out;
}

nb::dict validate_case(const std::string& name, bool full, const std::string& backend) {
    const auto* c = validation::find_case(name);
    if (!c) {
        std::string names;
        for (const auto& k : validation::cases()) names += (names.empty() ? "" : ", ") + k.name;
        throw CaseError("validate: no case named \"" + name + "\"; the cases: " + names);
    }
    if (c->full_only && !full) throw CaseError("validate: \"" + name + "\" has only a full variant: full=True");
    validation::Context ctx;
    ctx.variant = full ? validation::Variant::Full : validation::Variant::Short;
    ctx.backend = parse_backend(backend);
    validation::Outcome outcome;
    const auto t0 = clock_type::now();
    {
        nb::gil_scoped_release nogil;
        outcome = c->run(ctx);
    }
    const double seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
    nb::dict d = describe(*c);
    d["setup"] = outcome.setup;
    d["seconds"] = seconds;
    nb::list rows;
    bool passed = !outcome.comparisons.empty();
    for (const auto& x : outcome.comparisons) {
        nb::dict r;
        r["what"] = x.what;
        r["result"] = x.result;
        r["reference"] = x.reference;
        r["error"] = x.error;
        r["tolerance"] = x.tolerance;
        r["passed"] = x.pass();
        passed = passed && x.pass();
        rows.append(r);
    }
    d["comparisons"] = rows;
    d["passed"] = passed;
    d["notes"] = outcome.notes;
    return d;
}

}  // namespace
}  // namespace barracuda::python

NB_MODULE(_core, m) {
    using namespace barracuda;
    using barracuda::python::Simulation;
    m.doc() = "Barracuda's C++ core; use the barracuda package (python/barracuda/__init__.py)";

    // Errors: a bad case or option is a ValueError (CaseError), a machine that cannot
    // run it a RuntimeError (ResourceError); an output problem an OSError.
    nb::exception<CaseError>(m, "CaseError", PyExc_ValueError);
    nb::exception<ResourceError>(m, "ResourceError", PyExc_RuntimeError);
    nb::exception<OutputError>(m, "OutputError", PyExc_OSError);
    nb::exception<DivergenceError>(m, "DivergenceError", PyExc_RuntimeError);
    python::divergence_type = m.attr("DivergenceError");
    nb::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const python::Diverged& e) {
            // DivergenceError(message) with its step, cell, field and value as attributes.
            nb::object err = python::divergence_type(e.what());
            err.attr("step") = e.d.step;
            err.attr("cell") = e.has_cell ? nb::object(nb::make_tuple(e.d.cell[0], e.d.cell[1], e.d.cell[2])) : nb::none();
            err.attr("field") = e.d.field;
            err.attr("value") = e.d.value;
            PyErr_SetObject(python::divergence_type.ptr(), err.ptr());
        }
    });

    nb::class_<python::CaseSource>(m, "CaseSource")
        .def(nb::init<>())
        .def_static("of_file", &python::CaseSource::of_file, "file"_a)
        .def_rw("text", &python::CaseSource::text)
        .def_rw("name", &python::CaseSource::name)
        .def_rw("overrides", &python::CaseSource::overrides);

    nb::class_<Simulation>(m, "Simulation")
        .def("__init__",
             [](Simulation* self, python::CaseSource source, const std::string& backend) {
                 new (self) Simulation(std::move(source), backend, std::nullopt);
             },
             "source"_a, "backend"_a)
        .def("__init__",
             [](Simulation* self, python::CaseSource source, const std::string& backend, Simulation::MaskArray mask,
                const std::string& name) { new (self) Simulation(std::move(source), backend, mask, name); },
             "source"_a, "backend"_a, "mask"_a, "name"_a)
        .def("step", &Simulation::step, "n"_a)
        .def("run", &Simulation::run, "steps"_a, "callback"_a.none(), "every"_a)
        .def_prop_ro("time", &Simulation::time)
        .def("field", &Simulation::field, "which"_a, "lattice"_a)
        .def("node_kinds", &Simulation::node_kinds)
        .def("forces", &Simulation::forces)
        .def("force_names", &Simulation::force_names)
        .def("observe", &Simulation::observe)
        .def("update", &Simulation::update, "overrides"_a)
        .def("set_solid", &Simulation::set_solid, "mask"_a, "name"_a)
        .def("checkpoint", &Simulation::checkpoint, "path"_a)
        .def_static("restart", &Simulation::restart, "path"_a, "backend"_a, nb::rv_policy::take_ownership)
        .def("info", &Simulation::info);

    m.def("bench_case", &python::bench_case, "text"_a, "steps"_a, "warmup"_a, "backend"_a, "copy"_a);
    m.def("validation_cases", &python::validation_cases);
    m.def("validate_case", &python::validate_case, "name"_a, "full"_a, "backend"_a);
    m.def("gpus", [] {
        nb::list out;
        for (const auto& g : backend::cuda_devices()) out.append(g.name);
        return out;
    });
    m.def("cuda_built", &backend::cuda_built);
    m.def("download_seconds", [](std::int64_t bytes, int repetitions) {
        nb::gil_scoped_release nogil;
        return backend::measure_cuda_download_seconds(bytes, repetitions);
    }, "bytes"_a, "repetitions"_a);
    m.def("default_case", [] { return std::string(io::default_case_toml()); });
    m.def("offered", [] { return backend::offered_table_text(""); });
}
