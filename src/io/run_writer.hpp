// Writes a run's output instants as files: VTK ImageData per instant, a .pvd
// series that ParaView opens as one time-dependent dataset, a PNG slice, and
// (with a [forces] table) forces.csv, one row per force sample.
#pragma once
#include <array>
#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <string>
#include <memory>
#include <utility>
#include <vector>

#include "io/output_dir.hpp"
#include "io/png_slice.hpp"
#include "io/vtk.hpp"
#include "sim/case_spec.hpp"
#include "sim/simulation.hpp"

namespace barracuda::io {

/// A new run's directory (io/output_dir.hpp), claimed by rank 0 for every rank of the run.
OutputDirectory claim_output_directory(const std::filesystem::path& requested);
/// An earlier run's directory, locked to go on in it (--restart), for every rank.
OutputDirectory claim_run_directory(const std::filesystem::path& directory);

/// The heat balance of an [average] window in output units (W in an SI case): the mean
/// heat entering through each face and obstacle (negative: leaving), their sums, and
/// the storage (the change of the heat held, per unit of time). net - storage is the
/// sampling's residual; at a statistical steady state the storage and the net vanish
/// against the inflow.
struct HeatBalance {
    std::vector<std::pair<std::string, double>> rows;
    double in = 0, out = 0, net = 0, storage = 0;
};
HeatBalance heat_balance(const sim::CaseSpec& spec, const sim::MeanFields& mean);

class RunWriter final : public sim::OutputSink {
public:
    /// Writes into a claimed directory (claim_output_directory). With a decomposed run,
    /// every rank makes one: rank 0 writes the series, the .pvti, the PNG and
    /// forces.csv; each rank writes its piece.
    RunWriter(const sim::CaseSpec& spec, OutputDirectory directory, const parallel::Subdomain* sub = nullptr);
    /// Goes on in `directory` (claim_run_directory), the output of a run restarted from
    /// its checkpoint at `step`: the output instants and force samples after that step
    /// (written before the run stopped) are removed, as the run writes them again; the
    /// .pvd series and forces.csv keep the earlier ones.
    RunWriter(const sim::CaseSpec& spec, OutputDirectory directory, const parallel::Subdomain* sub, std::int64_t step);
    /// Writes force samples still held back (a run ended by an exception); errors are dropped here.
    ~RunWriter() override;
    void write(std::int64_t step, std::vector<double> rho, std::vector<double> u,
               std::vector<double> temperature) override;
    /// Adds a row to forces.csv: step, time, then per obstacle Fx, Fy, Fz, C_d, C_l.
    /// The file is rewritten atomically at the first row, then at most every
    /// `csv_rewrite_seconds` and at flush(), so that a long run with a short
    /// interval does not spend its time rewriting a growing file.
    void write_forces(std::int64_t step, const std::vector<std::array<double, 3>>& forces) override;
    /// Adds a row to probes.csv: step, time, then per probe its velocity, density (an SI
    /// case: the pressure p - p_0 in Pa) and temperature ([thermal]); rewritten as forces.csv.
    void write_probes(std::int64_t step, const std::vector<double>& values) override;
    /// Writes mean.vti (mean.pvti and its pieces on several ranks): mean density (an SI
    /// case: and pressure), velocity, velocity fluctuation and temperature; with a
    /// section, mean_section.csv and its PNG maps, and with profiles, mean_profiles.png.
    void write_mean(const sim::MeanFields& mean) override;
    /// Adds a row to events.csv (step, time, what happened: the live view's steering).
    void write_event(std::int64_t step, const std::string& text) override;
    /// Takes the steered case's values (the body force of the permeability).
    void steered(const sim::CaseSpec& spec) override { spec_.body_force = spec.body_force; }
    void flush() override;

    static constexpr double csv_rewrite_seconds = 2.0;

    const OutputDirectory& directory() const { return dir_; }
    const std::vector<std::filesystem::path>& files() const { return files_; }
    /// The most recent PNG slice, if any.
    const std::filesystem::path& last_png() const { return last_png_; }
    /// forces.csv once a force sample was written, else empty.
    const std::filesystem::path& forces_csv() const { return forces_.written; }
    /// probes.csv once a probe sample was written, else empty.
    const std::filesystem::path& probes_csv() const { return probes_.written; }
    /// Drag and lift coefficients of one force against the case's reference values.
    static std::array<double, 2> coefficients(const sim::ForceReportSpec& f, const std::array<double, 3>& force);

private:
    void truncate_to(std::int64_t step);
    /// Several ranks' PNG slice: the plane gathered to rank 0, which writes it.
    void write_png(std::int64_t step, const FieldSet& fields);
    /// The PNG slice's plane and title at `step`.
    SliceOptions slice_of(std::int64_t step) const;
    /// An instant's file name without its extension: fields_<step>, slice_<step>.
    static std::string instant_name(const char* kind, std::int64_t step);
    /// The fields a VTI holds: the velocity and node kinds only where the output asks for them.
    FieldSet vti_fields(const FieldSet& fields) const;
    /// One rank's instant (`fields` in lattice units, put in output units there): its VTI,
    /// the .pvd that lists it and its PNG written on a thread of their own while the run goes on (seed 004's room on the H200: six instants of
    /// 86 MB cost 1.1-1.4 s of an 18.5-18.8 s run, in which the GPU waited). One instant in flight:
    /// the next write() waits for it (settle_instant), flush() and the destructor for it
    /// and the means' VTI (settle), and its error is thrown there. Several ranks write as
    /// before (their pieces and the .pvti gather over MPI on the run's thread).
    void write_behind(std::int64_t step, FieldSet fields);
    /// `task` on a thread of its own, its future in `slot`; here where no thread is to be had.
    void launch_behind(std::future<void>& slot, const std::function<void()>& task);
    void settle_instant();
    void settle();
    std::future<void> behind_;
    /// One rank's mean.vti, written beside the run's last instant (a window that closes at
    /// the run's end, as seed 004's: 100 MB, written while the last fields come down).
    std::future<void> mean_behind_;
    sim::CaseSpec spec_;
    parallel::Subdomain sub_;
    bool lead_ = true;  // rank 0
    OutputDirectory dir_;
    PvdSeries series_;
    std::vector<std::uint8_t> kinds_;
    std::vector<std::filesystem::path> files_;
    std::filesystem::path last_png_;
    std::int64_t last_step_ = -1;
    /// A CSV file that grows by rows and is rewritten whole, atomically.
    struct CsvLog {
        explicit CsvLog(std::string file) : name(std::move(file)) {}
        std::string name;                     // in the output directory
        std::string text;                     // the whole file as written so far
        bool dirty = false;                   // rows not yet in the file
        std::filesystem::path written;        // set at the first write
        std::chrono::steady_clock::time_point at{};
    };
    /// Adds a row (after `header` when the file is new), rewriting the file at its first
    /// row and then at most every csv_rewrite_seconds.
    void append(CsvLog& log, const std::string& header, const std::string& row);
    void flush(CsvLog& log);
    /// Keeps the header and the rows up to `step` of a file an earlier sitting wrote.
    void truncate(CsvLog& log, std::int64_t step);
    /// Writes `fields` as stem.vti, or on several ranks as this rank's stem_r<rank>.vti
    /// and (rank 0) stem.pvti; returns the name ParaView opens.
    std::string write_dataset(const std::string& stem, const FieldSet& fields);
    /// An SI case's fields in SI (velocities in m/s, density in kg/m^3, pressure beside it).
    void in_output_units(FieldSet& fields) const;
    /// The time column of the CSV files: seconds in an SI case, else the step.
    double time_of(std::int64_t step) const;
    void write_section(const sim::MeanFields& mean, const FieldSet& fields);
    void write_heat_balance(const sim::MeanFields& mean);
    /// Darcy's permeability of the fields written at `step` (sim::darcy_axis).
    void write_permeability(std::int64_t step, const std::vector<double>& u);
    /// A [multiphase] case's integrals of the fields written at `step` (multiphase.csv;
    /// sim::multiphase_integrals): rho, u and rho_B (two components) in lattice units.
    void write_multiphase(std::int64_t step, const std::vector<double>& rho, const std::vector<double>& u,
                          const std::vector<double>& second);
public:
    /// The last window's heat balance (empty rows: none written yet).
    const HeatBalance& last_heat_balance() const { return balance_; }
    /// Darcy's permeability at the last field output (step -1: none; sim::darcy_axis).
    struct Permeability {
        std::int64_t step = -1;
        int axis = -1;
        double porosity = 0, velocity = 0, k = 0;  // lattice units: cells/step, cells^2
    };
    const Permeability& last_permeability() const { return permeability_; }
    const std::filesystem::path& permeability_csv() const { return permeability_log_.written; }
private:
    HeatBalance balance_;
    Permeability permeability_;
    CsvLog forces_{"forces.csv"}, probes_{"probes.csv"}, permeability_log_{"permeability.csv"},
        events_{"events.csv"}, multiphase_log_{"multiphase.csv"};
};

}  // namespace barracuda::io
