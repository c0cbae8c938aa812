#include "sim/simulation.hpp"

#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>

#include "backend/device_info.hpp"
#include "common/error.hpp"
#include "geometry/shapes.hpp"
#include "sim/forces.hpp"
#include "sim/validate.hpp"

namespace barracuda::sim {

namespace {

std::string format_bytes(std::int64_t b) {
    std::ostringstream s;
    s.precision(3);
    if (b >= (std::int64_t(1) << 30)) s << double(b) / double(1 << 30) << " GiB";
    else s << double(b) / double(1 << 20) << " MiB";
    return s.str();
}

storage::Grid grid_of(const CaseSpec& spec) {
    storage::Grid g{};
    for (int a = 0; a < 3; ++a) g.n[a] = spec.size[a], g.periodic[a] = spec.periodic[a];
    return g;
}

}  // namespace

std::vector<std::uint8_t> node_kinds(const CaseSpec& spec, std::vector<std::int32_t>* owner) {
    const auto g = grid_of(spec);
    std::vector<std::uint8_t> kind(g.cells(), boundary::Fluid);
    if (owner) owner->assign(std::size_t(g.cells()), -1);
    for (std::size_t i = 0; i < spec.obstacles.size(); ++i) {
        const auto& o = spec.obstacles[i];
        const geometry::Owners owners{owner, std::int32_t(i)};
        switch (o.shape) {
            case Obstacle::Shape::Box: geometry::mark_box(g, o.min, o.max, kind, owners); break;
            case Obstacle::Shape::Sphere: geometry::mark_sphere(g, o.center, o.radius, kind, owners); break;
            case Obstacle::Shape::Cylinder:
                geometry::mark_cylinder(g, o.axis, o.center, o.radius, o.min[o.axis], o.max[o.axis], kind, owners);
                break;
        }
    }
    return kind;
}

std::vector<std::uint8_t> output_node_kinds(const CaseSpec& spec) {
    auto kind = node_kinds(spec);
    const auto g = grid_of(spec);
    for (int z = 0; z < g.n[2]; ++z)
        for (int y = 0; y < g.n[1]; ++y)
            for (int x = 0; x < g.n[0]; ++x) {
                auto& k = kind[g.index(x, y, z)];
                if (k == boundary::Solid) continue;
                const int p[3] = {x, y, z};
                for (int face = 0; face < 6; ++face) {
                    const int a = face / 2;
                    if (spec.periodic[a] || p[a] != ((face & 1) ? g.n[a] - 1 : 0)) continue;
                    const auto t = spec.faces[face].type;
                    const auto mark = t == boundary::FaceType::Velocity   ? boundary::VelocityFace
                                      : t == boundary::FaceType::Pressure ? boundary::PressureFace
                                                                          : boundary::WallFace;
                    if (k == boundary::Fluid || mark != boundary::WallFace) k = mark;
                }
            }
    return kind;
}

backend::EngineSetup engine_setup(const CaseSpec& spec) {
    backend::EngineSetup s;
    s.lattice = spec.model.lattice;
    s.collision = spec.model.collision;
    s.equilibrium = spec.model.equilibrium;
    s.precision = spec.model.precision;
    s.pattern = spec.model.streaming;
    s.grid = grid_of(spec);
    for (int f = 0; f < 6; ++f) {
        s.faces.type[f] = spec.periodic[f / 2] ? boundary::FaceType::Periodic : spec.faces[f].type;
        s.faces.method[f] = spec.faces[f].method;
        s.faces.profile[f] = spec.faces[f].profile;
        for (int a = 0; a < 3; ++a) s.faces.velocity[f][a] = spec.faces[f].velocity[a];
        s.faces.density[f] = spec.faces[f].density;
    }
    if (spec.forces.obstacles.empty()) {
        s.node_kind = node_kinds(spec);
    } else {
        // The obstacle of each solid node is needed only while the link lists are built.
        std::vector<std::int32_t> owner;
        s.node_kind = node_kinds(spec, &owner);
        s.force_links = force_links(spec, s.node_kind, owner);
    }
    s.tau = spec.model.tau;
    s.trt_magic = spec.model.trt_magic;
    s.mrt = {1.0 / spec.model.tau, spec.model.mrt.s_e, spec.model.mrt.s_eps, spec.model.mrt.s_q,
             spec.model.mrt.s_pi, spec.model.mrt.s_m};
    for (int a = 0; a < 3; ++a) s.force[a] = spec.body_force[a];
    return s;
}

BackendChoice resolve_backend(BackendChoice asked) {
    const bool gpu = !backend::cuda_devices().empty();
    if (asked == BackendChoice::Auto) return gpu ? BackendChoice::Cuda : BackendChoice::Cpu;
    if (asked == BackendChoice::Cuda && !gpu) {
        throw ResourceError(backend::cuda_built()
                                ? "backend = cuda: no CUDA GPU is available on this machine (use --backend cpu or auto)"
                                : "backend = cuda: this binary was built without the CUDA backend (nvcc was not "
                                  "found at build time); use --backend cpu or auto");
    }
    return asked;
}

std::int64_t available_memory(BackendChoice backend) {
    if (backend == BackendChoice::Cuda) {
        const auto gpus = backend::cuda_devices();
        return gpus.empty() ? 0 : gpus[0].free_memory;
    }
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::int64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return std::int64_t(1) << 62;  // unknown: do not refuse
}

namespace {
// What would shrink the footprint, beside a smaller domain.
std::string memory_hint(const ModelSpec& m) {
    std::string hint = "; reduce the size";
    if (m.streaming == Pattern::TwoCopy) hint += ", use model.streaming = \"in-place\" (half the populations)";
    if (m.precision == Precision::FP64) hint += ", use model.precision = \"fp32\"";
    else if (m.precision == Precision::FP32) hint += ", use model.precision = \"fp16\" (FP16 storage)";
    return hint;
}
}  // namespace

Simulation::Simulation(const CaseSpec& spec, BackendChoice backend) : spec_(spec) {
    fill_model_defaults(spec_);
    validate_case(spec_);
    backend_ = resolve_backend(backend);
    const auto mem = estimate_memory(spec_);
    const std::int64_t need = backend_ == BackendChoice::Cuda ? mem.device_total() : mem.device_total() + mem.output_bytes;
    const std::int64_t have = available_memory(backend_);
    if (need > have) {
        throw ResourceError("domain.size = [" + std::to_string(spec_.size[0]) + ", " + std::to_string(spec_.size[1]) +
                            ", " + std::to_string(spec_.size[2]) + "]: needs about " + format_bytes(need) + " (" +
                            std::to_string(need / std::max<std::int64_t>(spec_.cells(), 1)) + " B/cell) but only " +
                            format_bytes(have) + " is available on the " +
                            (backend_ == BackendChoice::Cuda ? "GPU" : "host") +
                            memory_hint(spec_.model));
    }
    const auto setup = engine_setup(spec_);
    engine_ = backend_ == BackendChoice::Cuda ? backend::make_cuda_engine(setup) : backend::make_cpu_engine(setup);
    std::vector<double> rho(spec_.cells(), spec_.initial_density);
    std::vector<double> u(3 * spec_.cells());
    for (std::int64_t c = 0; c < spec_.cells(); ++c)
        for (int a = 0; a < 3; ++a) u[3 * c + a] = spec_.initial_velocity[a];
    engine_->initialize(rho, u);
}

Simulation::~Simulation() = default;

RunResult Simulation::run(OutputSink* sink, const std::function<void(const Progress&)>& progress) {
    using clock = std::chrono::steady_clock;
    const auto& run = spec_.run;
    const bool steady_test = run.steady_tolerance > 0;
    const std::int64_t out_every = spec_.output.interval;
    RunResult result;
    const auto t0 = clock::now();

    auto write_output = [&](std::int64_t step) {
        if (!sink) return;
        std::vector<double> rho, u;
        engine_->fields(rho, u);
        sink->write(step, rho, u);
    };
    // Keeps what was written (forces.csv is rewritten at most every few seconds) and stops.
    auto diverged = [&](std::string message) {
        if (sink) {
            try {
                sink->flush();
            } catch (const OutputError& e) {
                message += std::string(" (") + e.what() + ")";
            }
        }
        throw DivergenceError(message);
    };
    auto check = [&](std::int64_t step) {
        const auto o = engine_->observe(run.density_min, run.density_max, steady_test);
        if (o.bad_cell >= 0) {
            const auto& n = spec_.size;
            const std::int64_t c = o.bad_cell;
            const int x = int(c % n[0]), y = int((c / n[0]) % n[1]), z = int(c / (std::int64_t(n[0]) * n[1]));
            std::ostringstream m;
            m << "the run diverged at step " << step << ": cell (" << x << ", " << y << ", " << z << ") has ";
            if (!std::isfinite(o.bad_density) || !std::isfinite(o.bad_speed))
                m << (std::isfinite(o.bad_density) ? "velocity" : "density") << " = NaN/Inf";
            else if (o.bad_speed >= 1.0)
                m << "velocity |u| = " << o.bad_speed << " at or above the lattice speed 1";
            else
                m << "density = " << o.bad_density << " outside run.density_range [" << run.density_min << ", "
                  << run.density_max << "]";
            if (std::isfinite(o.bad_speed) && o.bad_speed < 1.0) m << " (|u| = " << o.bad_speed << ")";
            m << ". The last good output is kept; lower the velocity, raise tau (viscosity) or refine the grid.";
            diverged(m.str());
        }
        result.last = o;
        return o;
    };
    // Forces on the named obstacles (forces.csv) every force_every steps and at the end.
    const bool forces_on = !spec_.forces.obstacles.empty();
    const std::int64_t force_every = forces_on ? force_interval(spec_) : 0;
    auto sample_forces = [&](std::int64_t step, bool checked) {
        if (!forces_on || result.forces_step == step) return;
        auto f = engine_->obstacle_forces();
        for (std::size_t k = 0; k < f.size(); ++k)
            if (!std::isfinite(f[k][0]) || !std::isfinite(f[k][1]) || !std::isfinite(f[k][2])) {
                if (!checked) check(step);  // names the cell when the state is bad
                diverged("the run diverged at step " + std::to_string(step) + ": the force on obstacle \"" +
                         spec_.forces.obstacles[k] +
                         "\" is NaN/Inf. The last good output is kept; lower the velocity, raise tau (viscosity) or "
                         "refine the grid.");
            }
        result.forces = f;
        result.forces_step = step;
        ++result.force_samples;
        if (sink) sink->write_forces(step, f);
    };

    write_output(0);
    std::int64_t step = 0;
    bool first_check = true;
    while (step < run.steps) {
        std::int64_t next = std::min(run.steps, step + run.check_interval);
        if (out_every > 0) next = std::min(next, (step / out_every + 1) * out_every);
        if (force_every > 0) next = std::min(next, (step / force_every + 1) * force_every);
        engine_->step(next - step);
        step = next;
        const bool at_check = step % run.check_interval == 0 || step == run.steps;
        if (at_check) {
            const auto o = check(step);
            if (steady_test && !first_check && o.norm_l2 > 0 && o.change_l2 / o.norm_l2 < run.steady_tolerance) {
                result.steady = true;
            }
            first_check = false;
            if (progress) {
                const double s = std::chrono::duration<double>(clock::now() - t0).count();
                Progress p;
                p.step = step, p.total = run.steps;
                p.mlups = s > 0 ? double(step) * double(spec_.cells()) / s / 1e6 : 0;
                p.eta_seconds = step > 0 ? s / double(step) * double(run.steps - step) : 0;
                p.u_max = o.u_max;
                progress(p);
            }
        }
        if (force_every > 0 && step % force_every == 0) sample_forces(step, at_check);
        const bool at_output = out_every > 0 && step % out_every == 0;
        if (result.steady) break;
        if (at_output && step != run.steps) write_output(step);
    }
    const bool checked = step % spec_.run.check_interval == 0 || step == run.steps;
    if (!checked) check(step);
    sample_forces(step, true);
    write_output(step);
    if (sink) sink->flush();
    result.steps = step;
    result.wall_seconds = std::chrono::duration<double>(clock::now() - t0).count();
    result.mlups = result.wall_seconds > 0 ? double(step) * double(spec_.cells()) / result.wall_seconds / 1e6 : 0;
    return result;
}

}  // namespace barracuda::sim
