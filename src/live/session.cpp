#include "live/session.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "boundary/face.hpp"
#include "common/error.hpp"
#include "io/case_file.hpp"
#include "io/run_writer.hpp"
#include "io/json.hpp"
#include "parallel/comm.hpp"

namespace barracuda::live {

using io::json_number;
using io::json_string;

namespace {

using clock = std::chrono::steady_clock;

std::string number(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}

std::string quoted(const std::string& expression) { return "\"" + expression + "\""; }

constexpr std::size_t max_events = 50;      // kept for the page
constexpr std::size_t max_value_text = 512;  // a steered value's TOML text

}  // namespace

std::vector<Steerable> steerables(const sim::CaseSpec& spec) {
    std::vector<Steerable> out;
    const auto& u = spec.units;
    const bool si = u.si;
    const int dims = spec.size[2] > 1 ? 3 : 2;
    const std::string velocity_unit = si ? "m/s" : "cells/step";
    for (int f = 0; f < 6; ++f) {
        const auto& face = spec.faces[std::size_t(f)];
        const std::string base = "boundary." + std::string(boundary::face_name(f)) + ".";
        if (face.type == boundary::FaceType::Velocity || face.type == boundary::FaceType::MovingWall) {
            std::string v = "[";
            for (int c = 0; c < dims; ++c) {
                const auto& e = face.velocity_expression[std::size_t(c)];
                v += (c ? ", " : "") + (e.empty() ? number(face.velocity[std::size_t(c)] * (si ? u.velocity_scale() : 1.0))
                                                  : quoted(e));
            }
            out.push_back({base + "velocity", v + "]", velocity_unit, ""});
        }
        if (face.type == boundary::FaceType::Pressure)
            out.push_back({base + "density",
                           face.density_expression.empty() ? number(face.density) : quoted(face.density_expression),
                           "lattice density", ""});
        if (!spec.thermal.enabled) continue;
        const auto& t = spec.thermal.faces[std::size_t(f)];
        const auto& te = spec.thermal.face_expressions[std::size_t(f)];
        if (!t) continue;
        if (t->rule == boundary::ScalarRule::Fixed || t->rule == boundary::ScalarRule::ZeroGradient)
            out.push_back({base + "temperature", te.empty() ? number(t->value) : quoted(te), "temperature (the case's unit)", ""});
        else if (t->rule == boundary::ScalarRule::Flux)
            out.push_back({base + "heat_flux", number(t->value / (si ? u.heat_flux_to_lattice() : 1.0)),
                           si ? "W/m^2" : "temperature x cells/step", ""});
    }
    for (std::size_t k = 0; k < spec.obstacles.size(); ++k) {
        const auto& o = spec.obstacles[k];
        const std::string base = "obstacle[" + std::to_string(k) + "].";
        if (o.power) {
            out.push_back({base + "power", number(*o.power / (si ? u.power_to_lattice() : 1.0)),
                           si ? "W" : "temperature x cells/step", o.name});
        } else if (o.thermal && o.thermal->rule == boundary::ScalarRule::Fixed) {
            out.push_back({base + "temperature", number(o.thermal->value), "temperature (the case's unit)", o.name});
        } else if (o.thermal && o.thermal->rule == boundary::ScalarRule::Flux) {
            out.push_back({base + "heat_flux", number(o.thermal->value / (si ? u.heat_flux_to_lattice() : 1.0)),
                           si ? "W/m^2" : "temperature x cells/step", o.name});
        }
    }
    std::string g = "[";
    for (int c = 0; c < dims; ++c)
        g += (c ? ", " : "") + number(spec.body_force[std::size_t(c)] / (si ? u.acceleration_to_lattice() : 1.0));
    out.push_back({"force.body", g + "]", si ? "m/s^2" : "cells/step^2", ""});
    return out;
}

void check_servable(const sim::CaseSpec& spec) {
    if (spec.stores_sublattice())
        throw CaseError("--serve: lattice D3Q13 stores every other node (seed 000); the live view is offered on the "
                        "other lattices");
}

Session::Session(sim::Simulation& simulation, sim::OutputSink* sink, Options options)
    : simulation_(simulation), sink_(sink), options_(std::move(options)), lead_(parallel::Comm::world().rank() == 0),
      case_(simulation.spec()), engine_description_(simulation.engine().description()) {
    check_servable(case_);
    kinds_ = sim::output_node_kinds(case_, &simulation.subdomain());
    current_ = case_;
    slice_ = default_slice(case_);
    step_ = simulation.time();
}

sim::ChunkControl Session::control() {
    sim::ChunkControl c;
    c.chunk_seconds = options_.frame_seconds;
    c.between = [this](std::int64_t step) { return between(step); };
    return c;
}

sim::CaseSpec Session::read_case(const std::vector<std::string>& steered) const {
    auto overrides = options_.overrides;
    overrides.insert(overrides.end(), steered.begin(), steered.end());
    if (!options_.case_text.empty()) return io::parse_case_string(options_.case_text, overrides, options_.source);
    return io::parse_case_string(io::default_case_toml(), overrides, "default case");
}

// ---- the server's side ---------------------------------------------------------------

std::string Session::request(const Request& r) {
    std::string line;
    switch (r.kind) {
        case Request::Pause: line = "pause"; break;
        case Request::Resume: line = "resume"; break;
        case Request::Snapshot: line = "snapshot"; break;
        case Request::Step:
            if (r.steps < 1 || r.steps > 1000000)
                return "steps " + std::to_string(r.steps) + ": allowed 1 to 1000000";
            line = "step " + std::to_string(r.steps);
            break;
        case Request::Slice: {
            if (auto why = check_slice(r.slice, case_); !why.empty()) return why;
            line = "slice " + std::to_string(r.slice.axis) + " " + std::to_string(r.slice.index) + " " +
                   std::string(field_name(r.slice.field));
            break;
        }
        case Request::Steer: {
            const auto offered = steerables(case_);
            if (std::none_of(offered.begin(), offered.end(), [&](const Steerable& s) { return s.key == r.key; })) {
                std::string keys;
                for (const auto& s : offered) keys += (keys.empty() ? "" : ", ") + s.key;
                return "key '" + r.key + "' cannot be steered in this case; allowed: " + keys;
            }
            if (r.value.empty() || r.value.size() > max_value_text)
                return "value for " + r.key + ": between 1 and " + std::to_string(max_value_text) + " characters";
            if (std::any_of(r.value.begin(), r.value.end(), [](unsigned char c) { return c < 0x20; }))
                return "value for " + r.key + ": control characters are not allowed";
            // The case checks now, on this thread: a refused value never reaches the solver.
            std::vector<std::string> steered;
            {
                std::lock_guard lock(mutex_);
                steered = steered_;
            }
            steered.push_back(r.key + "=" + r.value);
            try {
                (void)read_case(steered);
            } catch (const CaseError& e) {
                return e.what();
            }
            line = "steer " + r.key + "\t" + r.value;
            break;
        }
    }
    std::lock_guard lock(mutex_);
    if (queue_.size() >= 256) return "too many requests waiting; try again";
    queue_.push_back(std::move(line));
    last_viewer_ = clock::now();
    asked_.notify_all();
    return {};
}

void Session::viewer_seen() {
    std::lock_guard lock(mutex_);
    last_viewer_ = clock::now();
}

std::shared_ptr<const Slice> Session::frame() const {
    std::lock_guard lock(mutex_);
    return frame_;
}

std::uint64_t Session::version() const {
    std::lock_guard lock(mutex_);
    return version_;
}

std::uint64_t Session::wait_for_change(std::uint64_t seen, std::chrono::milliseconds timeout) const {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, timeout, [&] { return version_ != seen || closed_; });
    return version_;
}

void Session::close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    paused_ = false;  // nobody is left to resume it
    changed_.notify_all();
    asked_.notify_all();
}

std::string Session::info_json() const {
    const auto& s = case_;
    std::ostringstream o;
    o << "{\"title\":" << json_string(s.title) << ",\"size\":[" << s.size[0] << "," << s.size[1] << "," << s.size[2]
      << "],\"steps\":" << s.run.steps << ",\"si\":" << (s.units.si ? "true" : "false")
      << ",\"dt\":" << json_number(s.units.si ? s.units.dt() : 1.0) << ",\"engine\":"
      << json_string(engine_description_) << ",\"fields\":[";
    const auto fields = fields_of(s);
    for (std::size_t k = 0; k < fields.size(); ++k)
        o << (k ? "," : "") << "{\"name\":" << json_string(field_name(fields[k]))
          << ",\"label\":" << json_string(field_label(fields[k], s)) << "}";
    o << "],\"steerables\":[";
    std::vector<Steerable> st;
    {
        std::lock_guard lock(mutex_);
        st = steerables(current_);  // with the values steered so far
    }
    for (std::size_t k = 0; k < st.size(); ++k)
        o << (k ? "," : "") << "{\"key\":" << json_string(st[k].key) << ",\"value\":" << json_string(st[k].value)
          << ",\"unit\":" << json_string(st[k].unit) << ",\"name\":" << json_string(st[k].name) << "}";
    o << "],\"slice\":{\"axis\":" << default_slice(s).axis << ",\"index\":" << default_slice(s).index << "}}";
    return o.str();
}

std::string Session::status_json() const {
    std::lock_guard lock(mutex_);
    const auto& s = case_;
    std::ostringstream o;
    const double eta = steps_per_second_ > 0 ? double(s.run.steps - step_) / steps_per_second_ : -1;
    o << "{\"version\":" << version_ << ",\"step\":" << step_ << ",\"total\":" << s.run.steps
      << ",\"paused\":" << (paused_ ? "true" : "false") << ",\"mlups\":" << json_number(mlups_)
      << ",\"steps_per_second\":" << json_number(steps_per_second_) << ",\"eta_seconds\":" << json_number(eta);
    if (s.units.si)
        o << ",\"time\":" << json_number(double(step_) * s.units.dt())
          << ",\"realtime_factor\":" << json_number(steps_per_second_ * s.units.dt());
    o << ",\"slice\":{\"axis\":" << slice_.axis << ",\"index\":" << slice_.index
      << ",\"field\":" << json_string(field_name(slice_.field)) << "}";
    o << ",\"frame\":" << frame_seq_ << ",\"frame_step\":" << (frame_ ? frame_->step : -1);
    o << ",\"series\":{\"forces\":" << forces_.rows.size() << ",\"probes\":" << probes_.rows.size() << "}";
    o << ",\"events\":[";
    bool first = true;
    for (const auto& e : events_) {
        o << (first ? "" : ",") << "{\"seq\":" << e.seq << ",\"step\":" << e.step << ",\"text\":" << json_string(e.text)
          << "}";
        first = false;
    }
    o << "]}";
    return o.str();
}

std::string Session::series_json(std::size_t since_forces, std::size_t since_probes) const {
    // The rows copied under the lock (at most max_rows a reply), written without it: the
    // solver waits for nobody's JSON.
    constexpr std::size_t max_rows = 5000;
    Series forces, probes;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [from, to, since] :
             {std::tuple{&forces_, &forces, since_forces}, std::tuple{&probes_, &probes, since_probes}}) {
            to->columns = from->columns;
            const std::size_t begin = std::min(since, from->rows.size());
            const std::size_t end = std::min(from->rows.size(), begin + max_rows);
            to->rows.assign(from->rows.begin() + std::ptrdiff_t(begin), from->rows.begin() + std::ptrdiff_t(end));
        }
    }
    std::ostringstream o;
    o << "{";
    bool first_series = true;
    for (const auto& [name, series, since] :
         {std::tuple{"forces", &forces, since_forces}, std::tuple{"probes", &probes, since_probes}}) {
        o << (first_series ? "" : ",") << json_string(name) << ":{\"columns\":[";
        first_series = false;
        for (std::size_t k = 0; k < series->columns.size(); ++k) o << (k ? "," : "") << json_string(series->columns[k]);
        o << "],\"from\":" << since << ",\"rows\":[";
        for (std::size_t r = 0; r < series->rows.size(); ++r) {
            o << (r > 0 ? "," : "") << "[";
            for (std::size_t k = 0; k < series->rows[r].size(); ++k) o << (k ? "," : "") << json_number(series->rows[r][k]);
            o << "]";
        }
        o << "]}";
    }
    o << "}";
    return o.str();
}

// ---- the solver's side ---------------------------------------------------------------

void Session::add_forces(std::int64_t step, const std::vector<std::array<double, 3>>& forces) {
    if (!lead_) return;
    const auto& f = case_.forces;
    std::vector<double> row{double(step), time_of(step)};
    for (std::size_t k = 0; k < forces.size() && k < f.obstacles.size(); ++k) {
        const auto c = io::RunWriter::coefficients(f, forces[k]);  // C_d, C_l as forces.csv has them
        row.push_back(c[0]), row.push_back(c[1]);
    }
    std::lock_guard lock(mutex_);
    if (forces_.columns.empty())
        for (const auto& name : f.obstacles) {
            forces_.columns.push_back(name + " C_d");
            forces_.columns.push_back(name + " C_l");
        }
    forces_.rows.push_back(std::move(row));
    ++version_;
    changed_.notify_all();
}

void Session::add_probes(std::int64_t step, const std::vector<double>& values) {
    if (!lead_) return;
    const bool si = case_.units.si, thermal = case_.thermal.enabled;
    const double cv = si ? case_.units.velocity_scale() : 1.0;
    std::vector<double> row{double(step), time_of(step)};
    for (std::size_t k = 0; 5 * k + 4 < values.size(); ++k) {
        const double* v = &values[5 * k];
        row.push_back(std::sqrt(v[1] * v[1] + v[2] * v[2] + v[3] * v[3]) * cv);
        if (thermal) row.push_back(v[4] + case_.thermal.reference);
    }
    std::lock_guard lock(mutex_);
    if (probes_.columns.empty())
        for (const auto& name : case_.probes.names) {
            probes_.columns.push_back(name + " |u|");
            if (thermal) probes_.columns.push_back(name + " T");
        }
    probes_.rows.push_back(std::move(row));
    ++version_;
    changed_.notify_all();
}

void Session::log_event(std::int64_t step, const std::string& text) {
    if (!lead_) return;
    if (sink_) sink_->write_event(step, text);
    std::lock_guard lock(mutex_);
    events_.push_back({++event_seq_, step, text});
    if (events_.size() > max_events) events_.pop_front();
    ++version_;
    changed_.notify_all();
}

std::string Session::compose(std::int64_t step) {
    std::lock_guard lock(mutex_);
    std::string packet;
    for (auto& line : queue_) packet += line + "\n";
    queue_.clear();
    const auto now = clock::now();
    const bool watching = std::chrono::duration<double>(now - last_viewer_).count() < options_.viewer_seconds;
    const bool due = !frame_ || (frame_->step != step &&
                                 std::chrono::duration<double>(now - last_frame_).count() >= options_.frame_seconds);
    if (watching && due) packet += "frame\n";
    return packet;
}

void Session::apply(const std::string& packet, std::int64_t step, sim::ChunkVerdict& verdict, bool& frame) {
    std::istringstream lines(packet);
    std::string line;
    while (std::getline(lines, line)) {
        const auto space = line.find(' ');
        const std::string word = line.substr(0, space);
        const std::string rest = space == std::string::npos ? "" : line.substr(space + 1);
        if (word == "pause" || word == "resume") {
            {
                std::lock_guard lock(mutex_);
                paused_ = word == "pause";
                steps_left_ = 0;
                // The step it pauses at, under the same lock: a status that says paused
                // must not show the previous chunk's step (publish_progress comes later).
                step_ = step;
                ++version_;
                changed_.notify_all();
            }
            log_event(step, word == "pause" ? "paused" : "resumed");
        } else if (word == "step") {
            std::lock_guard lock(mutex_);
            paused_ = true;
            steps_left_ = std::stoll(rest);
        } else if (word == "slice") {
            std::istringstream in(rest);
            SliceSpec s;
            std::string field;
            in >> s.axis >> s.index >> field;
            s.field = field_named(field).value_or(Field::Speed);
            std::lock_guard lock(mutex_);
            slice_ = s;
            frame = true;
        } else if (word == "snapshot") {
            verdict.snapshot = true;
            log_event(step, "snapshot: the fields written at this step");
        } else if (word == "frame") {
            frame = true;
        } else if (word == "steer") {
            const auto tab = rest.find('\t');
            const std::string key = rest.substr(0, tab), value = rest.substr(tab + 1);
            std::vector<std::string> next;
            {
                std::lock_guard lock(mutex_);
                next = steered_;
            }
            next.push_back(key + "=" + value);
            try {
                simulation_.steer(read_case(next));
                {
                    std::lock_guard lock(mutex_);
                    steered_ = std::move(next);
                    current_ = simulation_.spec();
                }
                if (sink_) sink_->steered(simulation_.spec());
                log_event(step, "steered: " + key + " = " + value);
            } catch (const CaseError& e) {  // on every rank alike (Simulation::steer)
                if (!simulation_.usable()) throw ResourceError(std::string("steering failed: ") + e.what());
                log_event(step, "refused: " + key + " = " + value + ": " + e.what());
            } catch (const ResourceError& e) {
                // The new engine could not be made (memory) and the old one is back: the run
                // goes on as it was. Without an engine it cannot.
                if (!simulation_.usable()) throw;
                log_event(step, "refused: " + key + " = " + value + ": " + e.what());
            }
        }
    }
}

void Session::publish_progress(std::int64_t step) {
    const auto now = clock::now();
    std::lock_guard lock(mutex_);
    const bool moved = step != step_;
    step_ = step;
    if (paused_ && steps_left_ == 0) {
        rate_step0_ = -1;
        steps_per_second_ = mlups_ = 0;  // no pace, no ETA while paused
    } else if (rate_step0_ < 0) {
        rate_step0_ = step, rate_t0_ = now;
    } else if (const double s = std::chrono::duration<double>(now - rate_t0_).count(); s >= 0.5) {
        steps_per_second_ = double(step - rate_step0_) / s;
        mlups_ = steps_per_second_ * double(case_.stored_nodes()) / 1e6;
        rate_step0_ = step, rate_t0_ = now;
    }
    if (moved) {
        ++version_;
        changed_.notify_all();
    }
}

sim::ChunkVerdict Session::between(std::int64_t step) {
    const auto& comm = parallel::Comm::world();
    sim::ChunkVerdict verdict;
    // A "step N" under way: what is left of it.
    if (steps_left_ > 0 && last_step_ >= 0) steps_left_ = std::max<std::int64_t>(0, steps_left_ - (step - last_step_));
    last_step_ = step;
    for (;;) {
        std::vector<unsigned char> packet;
        if (lead_) {
            const auto text = compose(step);
            packet.assign(text.begin(), text.end());
        }
        if (comm.size() > 1) comm.broadcast(packet, 0);
        bool frame = false;
        apply(std::string(packet.begin(), packet.end()), step, verdict, frame);
        if (frame) {
            SliceSpec s;
            {
                std::lock_guard lock(mutex_);
                s = slice_;
            }
            auto slice = std::make_shared<Slice>(take_slice(simulation_, s, kinds_));
            if (lead_) {
                std::lock_guard lock(mutex_);
                frame_ = std::move(slice);
                ++frame_seq_;
                last_frame_ = clock::now();
                ++version_;
                changed_.notify_all();
            }
        }
        if (lead_) publish_progress(step);
        const bool stop = comm.any(options_.stop_requested && options_.stop_requested());
        bool paused = false;
        std::int64_t left = 0;
        {
            std::lock_guard lock(mutex_);
            paused = paused_, left = steps_left_;
        }
        if (stop || verdict.snapshot) return verdict;
        if (left > 0) {
            verdict.max_steps = left;
            return verdict;
        }
        if (!paused) return verdict;
        if (lead_) {  // paused: wait for a request (or a viewer who needs a frame of this step)
            std::unique_lock lock(mutex_);
            asked_.wait_for(lock, std::chrono::milliseconds(100), [&] { return !queue_.empty() || closed_; });
        }
    }
}

}  // namespace barracuda::live
