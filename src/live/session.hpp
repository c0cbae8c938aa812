// A running case as the live view sees and steers it (barracuda run --serve): the
// state shared between the solver's thread (Simulation::run calls between() after
// each chunk of steps, on every rank) and the HTTP server's threads (server.hpp),
// which only read what the solver last published and queue requests.
//
// The solver never waits for a viewer: a frame is a slice (slice.hpp) taken when one
// is due and a viewer asked for one in the last few seconds; drawing it as PNG is the
// server's work. With MPI, rank 0 holds the session's queue and every rank applies
// what rank 0 broadcasts after each chunk, in the same order.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "live/slice.hpp"
#include "sim/simulation.hpp"

namespace barracuda::live {

/// A value of the running case that the view may change (Simulation::steer): its key as
/// --set takes it, and its current value as TOML text in the case's units.
struct Steerable {
    std::string key, value, unit;
    std::string name;  // the obstacle's name, for obstacle[k] keys
};
/// What `spec` offers: the velocity of velocity faces and moving walls, the density of
/// pressure faces, the faces' temperatures and heat fluxes, the obstacles' temperatures,
/// heat fluxes and powers, and force.body.
std::vector<Steerable> steerables(const sim::CaseSpec& spec);

/// Throws CaseError when the live view cannot show `spec` (D3Q13 stores every other node).
void check_servable(const sim::CaseSpec& spec);

/// One request from a viewer, checked before it is queued (Session::request).
struct Request {
    enum Kind { Pause, Resume, Step, Slice, Snapshot, Steer } kind = Pause;
    std::int64_t steps = 1;  // Step: how many (1 to 1e6)
    SliceSpec slice;         // Slice
    std::string key, value;  // Steer: a key of steerables() and its new value (TOML)
};

class Session {
public:
    struct Options {
        /// How the case is read again with a steered value: `case_text` (the run's case
        /// file as it was read at the start, never read again; empty: the built-in case)
        /// under the name `source` (relative files are found beside it), with the run's
        /// overrides.
        std::string case_text;
        std::string source = "case";
        std::vector<std::string> overrides;
        /// Seconds between frames while a viewer watches.
        double frame_seconds = 0.1;
        /// Seconds a viewer counts as watching after its last request.
        double viewer_seconds = 5.0;
        /// Asked while paused, on every rank (the run's signal handlers).
        std::function<bool()> stop_requested;
    };
    /// `sink`: where the changes are logged (events.csv); may be null.
    Session(sim::Simulation& simulation, sim::OutputSink* sink, Options options);

    /// The hook for Simulation::run (chunks of about frame_seconds).
    sim::ChunkControl control();

    // ---- the server's side: thread-safe ---------------------------------------------
    /// Empty when the request was queued; else why it was refused (the value and what is
    /// allowed; a steered value the case checks refuse, with their message).
    std::string request(const Request& r);
    /// The run's description (title, size, fields, steerables) as JSON.
    std::string info_json() const;
    /// Progress, pause state, the frame's number and slice, recent events, as JSON.
    std::string status_json() const;
    /// The forces' and the probes' rows from row `since_forces` and `since_probes` on, as JSON.
    std::string series_json(std::size_t since_forces, std::size_t since_probes) const;
    /// The last slice taken (null before the first).
    std::shared_ptr<const live::Slice> frame() const;
    /// A viewer asked for something: frames are taken while one watches.
    void viewer_seen();
    /// Waits until the published state's version passes `seen` or `timeout` passes;
    /// returns the version.
    std::uint64_t wait_for_change(std::uint64_t seen, std::chrono::milliseconds timeout) const;
    std::uint64_t version() const;
    /// Wakes the waiters and refuses further waits (the server is stopping).
    void close();

    // ---- the solver's side ----------------------------------------------------------
    /// Simulation::run's hook (every rank): applies what was asked, takes a frame when one
    /// is due, blocks while paused.
    sim::ChunkVerdict between(std::int64_t step);
    /// Forces and probe samples for the live plots (rank 0; the run's sink passes them on).
    void add_forces(std::int64_t step, const std::vector<std::array<double, 3>>& forces);
    void add_probes(std::int64_t step, const std::vector<double>& values);

private:
    std::string compose(std::int64_t step);  // rank 0: the next packet of commands
    void apply(const std::string& packet, std::int64_t step, sim::ChunkVerdict& verdict, bool& frame);
    void log_event(std::int64_t step, const std::string& text);  // rank 0
    void publish_progress(std::int64_t step);                   // rank 0
    sim::CaseSpec read_case(const std::vector<std::string>& overrides) const;
    /// The plots' time of a step: seconds in an SI case, else the step (as the CSV files).
    double time_of(std::int64_t step) const {
        return case_.units.si ? double(step) * case_.units.dt() : double(step);
    }

    sim::Simulation& simulation_;
    sim::OutputSink* sink_;
    Options options_;
    bool lead_;
    const sim::CaseSpec case_;  // as it started: what the server checks requests against
    sim::CaseSpec current_;     // as it runs, steered values included (under mutex_)
    std::string engine_description_;
    std::vector<std::uint8_t> kinds_;  // this rank's owned cells' output node kinds
    std::vector<std::string> steered_;  // the overrides steered so far (every rank; under mutex_)
    std::int64_t steps_left_ = 0;       // of a "step N" request (under mutex_)
    std::int64_t last_step_ = -1;       // where the last between() was

    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;  // the published state moved on (viewers wait)
    std::condition_variable asked_;            // a request arrived (a paused solver waits)
    std::uint64_t version_ = 0;
    bool closed_ = false;
    std::deque<std::string> queue_;  // requests as packet lines
    SliceSpec slice_;
    bool slice_changed_ = true;
    bool paused_ = false;
    std::shared_ptr<const live::Slice> frame_;
    std::chrono::steady_clock::time_point last_viewer_{}, last_frame_{};
    std::int64_t frame_seq_ = 0;
    struct Event {
        std::int64_t seq, step;
        std::string text;
    };
    std::deque<Event> events_;
    std::int64_t event_seq_ = 0;
    // Progress (rank 0).
    std::int64_t step_ = 0;
    double mlups_ = 0, steps_per_second_ = 0;
    std::chrono::steady_clock::time_point rate_t0_{};
    std::int64_t rate_step0_ = -1;
    // Series for the plots: step, time, then the columns'.
    struct Series {
        std::vector<std::string> columns;
        std::vector<std::vector<double>> rows;
    };
    Series forces_, probes_;
};

/// Passes everything on to `inner` (the run's writer) and the forces and probes also to
/// the session's plots.
class SessionSink : public sim::OutputSink {
public:
    SessionSink(sim::OutputSink& inner, Session& session) : inner_(inner), session_(session) {}
    void write(std::int64_t step, std::vector<double> rho, std::vector<double> u,
               std::vector<double> temperature) override {
        inner_.write(step, std::move(rho), std::move(u), std::move(temperature));
    }
    void write_forces(std::int64_t step, const std::vector<std::array<double, 3>>& forces) override {
        inner_.write_forces(step, forces);
        session_.add_forces(step, forces);
    }
    void write_probes(std::int64_t step, const std::vector<double>& values) override {
        inner_.write_probes(step, values);
        session_.add_probes(step, values);
    }
    void write_mean(const sim::MeanFields& mean) override { inner_.write_mean(mean); }
    void write_event(std::int64_t step, const std::string& text) override { inner_.write_event(step, text); }
    void steered(const sim::CaseSpec& spec) override { inner_.steered(spec); }
    void flush() override { inner_.flush(); }

private:
    sim::OutputSink& inner_;
    Session& session_;
};

}  // namespace barracuda::live
