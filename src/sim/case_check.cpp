// Whole-case checks. Each message reads "key = value: what is wrong (what is
// allowed)" so that it can be shown to the user as it is.
#include "sim/case_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "backend/offered.hpp"
#include "common/error.hpp"
#include "physics/collision_trt.hpp"
#include "sim/face_values.hpp"
#include "sim/simulation.hpp"

namespace barracuda::sim {

namespace {

using boundary::FaceType;

std::string vec(const std::array<double, 3>& v, int n) {
    std::string s = "[";
    for (int i = 0; i < n; ++i) s += (i ? ", " : "") + value_text(v[std::size_t(i)]);
    return s + "]";
}

// 2D lattices show two components unless the third is set (and so wrong).
int shown_dims(const CaseSpec& spec, const std::array<double, 3>& v) {
    return lattice::dimensions_of(spec.model.lattice) == 3 || v[2] != 0 ? 3 : 2;
}

std::string size_text(const CaseSpec& spec) {
    const auto& s = spec.size;
    std::string r = "[";  // appended in steps: GCC 12's -Wrestrict misfires on the one-line sum
    r += std::to_string(s[0]) + ", " + std::to_string(s[1]);
    if (s[2] != 1 || lattice::dimensions_of(spec.model.lattice) == 3) r += ", " + std::to_string(s[2]);
    return r + "]";
}

std::string axis_name(int a) { return std::string(1, char('x' + a)); }

[[noreturn]] void fail(const std::string& message) { throw CaseError(message); }

void check_rate(const char* key, double v) {
    if (!(v > 0 && v < 2)) fail(std::string("model.mrt.") + key + " = " + value_text(v) + ": must be in (0, 2) (a relaxation rate 1/tau)");
}

void check_velocity(const CaseSpec& spec, const std::string& key, const std::array<double, 3>& u) {
    const int dims = lattice::dimensions_of(spec.model.lattice);
    if (dims == 2 && u[2] != 0)
        fail(key + " = " + vec(u, 3) + ": lattice " + std::string(lattice::name_of(spec.model.lattice)) +
             " is 2D; the z component must be 0");
    const double mag = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (!(mag < max_lattice_velocity))
        fail(key + " = " + vec(u, shown_dims(spec, u)) + ": |u| = " + value_text(mag) + " must be < " +
             value_text(max_lattice_velocity) + " (lattice units; Ma = |u|/c_s with c_s = 1/sqrt(3), and the " +
             "equilibrium loses accuracy and stability as Ma grows); lower the velocity, or refine the grid " +
             "to keep the Reynolds number with a smaller lattice velocity");
}

void check_model(const CaseSpec& spec) {
    const ModelSpec& m = spec.model;
    if (!(m.tau > 0.5))
        fail("model.tau = " + value_text(m.tau) + ": must be > 0.5 (tau <= 0.5 is unstable; nu = (tau - 0.5)/3)");
    // Far above 1 the populations barely relax in a step: the Chapman-Enskog expansion
    // behind the Navier-Stokes limit needs the relaxation time short against the flow's
    // (a Knudsen number of order tau / N), and such runs drift or diverge (issue 21:
    // tau = 1e300 diverged at step 150). 100 (nu = 33 in lattice units) is far past any
    // use: a coarser grid brings tau down.
    if (!(m.tau <= max_tau))
        fail("model.tau = " + value_text(m.tau) + ": must be at most " + value_text(max_tau) +
             " (nu <= 33 in lattice units): far above 1 the populations barely relax in a step and the model "
             "stops representing a viscous fluid; coarsen the grid or lower the viscosity");
    if (!(m.trt_magic > 0)) fail("model.trt_magic = " + value_text(m.trt_magic) + ": must be > 0 (3/16 is the usual choice)");
    if (!(m.smagorinsky >= 0 && m.smagorinsky <= 1))
        fail("model.smagorinsky = " + value_text(m.smagorinsky) + ": the Smagorinsky constant must be in [0, 1] (0.1-0.2 is usual; 0: no LES)");
    // The configuration table and the other offer rules (backend/offered.cpp), on one rank;
    // Simulation asks again with the ranks it runs on.
    if (auto why = backend::refusal(offer_request(spec, false)); !why.empty()) fail(why);
    if (m.lattice == lattice::Kind::D3Q13) {
        check_rate("s_e", m.mrt.s_e);
        check_rate("s_m", m.mrt.s_m);
    } else if (m.collision == Collision::MRT) {  // every lattice; the free rates it has (mrt_basis.hpp)
        if (m.mrt.s_e != 0) check_rate("s_e", m.mrt.s_e);  // D2Q9: 0, from tau (mrt_rates)
        if (m.mrt.s_eps != 0) check_rate("s_eps", m.mrt.s_eps);
        if (m.mrt.s_q != 0) check_rate("s_q", m.mrt.s_q);  // 0: from tau (mrt_rates), in (0, 2) for tau > 1/2
        if (m.lattice == lattice::Kind::D3Q19 || m.lattice == lattice::Kind::D3Q27) check_rate("s_pi", m.mrt.s_pi);
        if (m.lattice != lattice::Kind::D2Q9 && m.mrt.s_m != 0) check_rate("s_m", m.mrt.s_m);
    }
}

void check_domain(const CaseSpec& spec) {
    const auto& s = spec.size;
    if (s[0] < 1 || s[1] < 1 || s[2] < 1) fail("domain.size = " + size_text(spec) + ": each size must be >= 1");
    // 2^40 cells is far beyond any machine, and keeps every byte count below int64 overflow.
    if (double(s[0]) * s[1] * s[2] > std::ldexp(1.0, 40))
        fail("domain.size = " + size_text(spec) + ": more than 2^40 cells");
    const std::string lat(lattice::name_of(spec.model.lattice));
    if (lattice::dimensions_of(spec.model.lattice) == 2) {
        if (s[2] != 1) fail("domain.size = " + size_text(spec) + ": lattice " + lat + " is 2D and needs nz = 1 (give [nx, ny])");
    } else if (s[2] <= 1) {
        fail("domain.size = " + size_text(spec) + ": lattice " + lat + " is 3D and needs three sizes with nz > 1");
    }
    if (spec.stores_sublattice()) {
        // One sub-lattice (x + y + z even): each row holds nx/2 nodes, and a wrap keeps the parity.
        if (s[0] % 2)
            fail("domain.size = " + size_text(spec) + ": lattice " + lat + " stores the nodes with x + y + z even "
                 "(one sub-lattice) and needs an even nx, got " + std::to_string(s[0]));
        for (std::size_t a = 1; a < 3; ++a)
            if (spec.periodic[a] && s[a] % 2)
                fail("domain.size = " + size_text(spec) + ": lattice " + lat + " needs an even size along the periodic " +
                     axis_name(int(a)) + " axis (the wrap would join nodes of the two sub-lattices), got " +
                     std::to_string(s[a]));
    }
}

void check_faces(const CaseSpec& spec) {
    for (int f = 0; f < 6; ++f) {
        const int a = f / 2;
        const boundary::FaceSpec& face = spec.faces[std::size_t(f)];
        const std::string key = "boundary." + std::string(boundary::face_name(f));
        std::string type = "\"";  // built in steps: GCC 12's -Wrestrict misfires on the one-line sum
        type += boundary::type_name(face.type);
        type += '"';
        if (spec.periodic[std::size_t(a)] && face.type != FaceType::Periodic)
            fail(key + ".type = " + type + ": the " + axis_name(a) +
                 " axis is periodic (domain.periodic), so its faces take no boundary condition");
        if (!spec.periodic[std::size_t(a)] && face.type == FaceType::Periodic)
            fail(key + ".type = " + type + ": the " + axis_name(a) +
                 " axis is not periodic; make it periodic in domain.periodic or give the face a boundary");
        if (face.type == FaceType::MovingWall || face.type == FaceType::Velocity)
            check_velocity(spec, key + ".velocity", face.velocity);
        // Bounce-back models a wall that stays in place: it may only slide.
        if (face.type == FaceType::MovingWall && face.velocity[std::size_t(a)] != 0)
            fail(key + ".velocity = " + vec(face.velocity, shown_dims(spec, face.velocity)) +
                 ": a moving wall slides in its own plane; the " + axis_name(a) + " component must be 0");
        if (face.type == FaceType::Pressure && !(face.density > 0))
            fail(key + ".density = " + value_text(face.density) + ": must be > 0");
        for (int k = 0; k < 3; ++k) {
            const std::string& e = face.velocity_expression[std::size_t(k)];
            if (e.empty()) continue;
            const std::string shown = face_expression_key(f, k) + " = \"" + e + "\"";
            if (face.type != FaceType::Velocity)
                fail(shown + ": expressions are offered on velocity and pressure faces, not on a " + type + " face");
            if (k == 2 && lattice::dimensions_of(spec.model.lattice) == 2)
                fail(shown + ": lattice " + std::string(lattice::name_of(spec.model.lattice)) +
                     " is 2D; the z component must be 0");
        }
        if (face.profile == boundary::Profile::Parabolic && face.has_expression())
            fail(key + ".profile = \"parabolic\": the profile scales constant velocities; write it into the "
                 "expression instead (e.g. 4 * (y + 0.5) * (ny - y - 0.5) / ny^2)");
        if (!face.density_expression.empty() && face.type != FaceType::Pressure)
            fail(face_expression_key(f, 3) + " = \"" + face.density_expression + "\": a " + type + " face takes no density");
    }
    check_face_expressions(spec);  // parses, and evaluates every node at t = 1
}

std::string short_text(double v);

// Whether a node coordinate lies in the box along `axis`: its nodes span [0, n - 1], its
// walls lie half a spacing beyond (an SI case: at 0 and n dx, sim/units.hpp), and a
// position within half a spacing of the end nodes is taken at them.
bool inside_box(const CaseSpec& spec, int axis, double x) {
    return x >= -0.5 && x <= double(spec.size[std::size_t(axis)]) - 0.5;
}

void check_obstacles(const CaseSpec& spec) {
    const int dims = lattice::dimensions_of(spec.model.lattice);
    for (std::size_t i = 0; i < spec.obstacles.size(); ++i) {
        const Obstacle& ob = spec.obstacles[i];
        const std::string key = "obstacle[" + std::to_string(i) + "]";
        if (ob.name.empty()) fail(key + ".name = \"\": must not be empty");
        const std::string who = key + " (\"" + ob.name + "\")";

        const bool si = spec.units.si;
        auto domain_text = [&](int n) {
            std::string s;
            for (int a = 0; a < n; ++a) {
                const int size = spec.size[std::size_t(a)];
                s += (a ? " x " : "") + (si ? "[0, " + short_text(size * spec.units.cell) + "]"
                                            : "[0, " + std::to_string(size - 1) + "]");
            }
            return s + (si ? " m" : "");
        };
        // `skip` is the cylinder's axis, along which the centre is unused.
        auto check_point = [&](const char* k, const std::array<double, 3>& p, int skip) {
            for (int a = 0; a < 3; ++a)
                if (a != skip && !inside_box(spec, a, p[std::size_t(a)])) {
                    const int n = shown_dims(spec, p);
                    std::array<double, 3> given = p;  // as the file gave it
                    if (si)
                        for (double& x : given) x = spec.units.node_position(x);
                    fail(who + "." + k + " = " + vec(given, n) + (si ? " m" : "") + ": outside the domain " +
                         domain_text(n));
                }
        };

        switch (ob.kind) {
            case Obstacle::Shape::Voxels:
            case Obstacle::Shape::Mesh: {
                // The surface, scaled, rotated and moved, must meet the domain.
                bool meets = true;
                for (int a = 0; a < dims; ++a)
                    meets = meets && ob.max[std::size_t(a)] >= -0.5 &&
                            ob.min[std::size_t(a)] <= spec.size[std::size_t(a)] - 0.5;
                std::array<double, 3> lo = ob.min, hi = ob.max;  // as the file's units give them
                if (si)
                    for (std::size_t a = 0; a < 3; ++a) lo[a] = spec.units.node_position(lo[a]), hi[a] = spec.units.node_position(hi[a]);
                if (!meets)
                    fail(who + (ob.kind == Obstacle::Shape::Mesh ? ": the surface spans " : ": the image spans ") +
                         vec(lo, 3) + " to " + vec(hi, 3) + (si ? " m" : "") +
                         (ob.kind == Obstacle::Shape::Mesh ? " after scale, rotate and translate" : " after spacing and translate") +
                         ", outside the domain " + domain_text(3) +
                         " (check the file's unit against scale, and translate)");
                break;
            }
            case Obstacle::Shape::Box:
                check_point("min", ob.min, -1);
                check_point("max", ob.max, -1);
                // A 2D lattice has a single z layer, so there min z = max z = 0.
                for (int a = 0; a < dims; ++a)
                    if (!(ob.min[std::size_t(a)] < ob.max[std::size_t(a)]))
                        fail(who + ".min = " + vec(ob.min, shown_dims(spec, ob.min)) + ", max = " +
                             vec(ob.max, shown_dims(spec, ob.max)) + ": min must be below max on every axis (" +
                             axis_name(a) + " is not)");
                break;
            case Obstacle::Shape::Sphere:
            case Obstacle::Shape::Cylinder:
            case Obstacle::Shape::Pipe: {
                const bool cyl = ob.kind != Obstacle::Shape::Sphere;
                check_point("center", ob.center, cyl ? ob.axis : -1);
                if (!(ob.radius > 0)) fail(who + ".radius = " + value_text(ob.radius) + ": must be > 0");
                if (cyl && dims == 2 && ob.axis != 2)
                    fail(who + ".axis = \"" + axis_name(ob.axis) +
                         "\": on a 2D lattice a cylinder is a disc, so its axis must be \"z\" (use a box for a band)");
                if (cyl) {
                    const int a = ob.axis;
                    const double lo = ob.min[std::size_t(a)], hi = ob.max[std::size_t(a)];
                    const bool flat_ok = a >= dims;  // the single z layer of a 2D lattice
                    if (!inside_box(spec, a, lo) || !inside_box(spec, a, hi) || !(lo < hi || (flat_ok && lo == hi)))
                        fail(who + ".min = " + value_text(lo) + ", max = " + value_text(hi) + ": the extent along the cylinder's axis (" +
                             axis_name(a) + ") must satisfy 0 <= min < max <= " +
                             std::to_string(spec.size[std::size_t(a)] - 1));
                }
                break;
            }
        }
    }
}

// Moving obstacles: a sane surface speed, few enough to travel with the kernels, and
// no force report on them (momentum exchange here assumes a body at rest).
void check_moving_obstacles(const CaseSpec& spec) {
    int moving = 0;
    for (std::size_t i = 0; i < spec.obstacles.size(); ++i) {
        const Obstacle& ob = spec.obstacles[i];
        if (!ob.moving()) continue;
        ++moving;
        const std::string key = "obstacle[" + std::to_string(i) + "] (\"" + ob.name + "\").velocity";
        check_velocity(spec, key.c_str(), ob.velocity);
        // Bounce-back with the moving-wall term models a surface that slides along
        // itself; a velocity across the surface would inject or remove mass.
        const std::string shown = key + " = " + vec(ob.velocity, shown_dims(spec, ob.velocity));
        if (ob.kind == Obstacle::Shape::Voxels)
            fail(shown + ": a voxel image cannot move (the geometry does not move); simulate it in its own frame");
        if (ob.kind == Obstacle::Shape::Mesh)
            fail(shown + ": an STL surface cannot move (the geometry does not move, and its surface is not known to "
                 "slide along itself); simulate it in its own frame, with the flow and the walls moving instead");
        if (ob.kind == Obstacle::Shape::Sphere)
            fail(shown + ": a sphere's surface cannot slide with one uniform velocity (the geometry does not move); "
                 "simulate a moving sphere in its own frame, with the flow and the walls moving instead");
        const bool round = ob.kind == Obstacle::Shape::Cylinder || ob.kind == Obstacle::Shape::Pipe;
        for (int a = 0; a < 3; ++a) {
            if (ob.velocity[std::size_t(a)] == 0) continue;
            if (round && a != ob.axis)
                fail(shown + ": a " + (ob.kind == Obstacle::Shape::Pipe ? "pipe" : "cylinder") +
                     "'s surface can only slide along its axis (" + axis_name(ob.axis) + "); give only that component");
            // Faces (or end caps) across the motion would be mass sources and sinks:
            // along a moving component the body must span the domain.
            const double n_a = spec.size[std::size_t(a)];
            if (ob.min[std::size_t(a)] > 0 || ob.max[std::size_t(a)] < n_a - 1)
                fail(shown + ": the body moves along " + axis_name(a) + " but ends inside the domain there (" +
                     axis_name(a) + " from " + value_text(ob.min[std::size_t(a)]) + " to " + value_text(ob.max[std::size_t(a)]) +
                     "; the domain spans 0 to " + value_text(n_a - 1) +
                     "): its faces across the motion would inject and remove fluid. A moving surface must slide "
                     "along itself: extend the body through the domain along " + axis_name(a));
        }
        for (const auto& name : spec.forces.obstacles)
            if (name == ob.name)
                fail("forces.obstacles = \"" + name + "\": the obstacle moves (" + key + " = " + vec(ob.velocity, 3) +
                     "); forces are reported on obstacles at rest only (work in the body's frame)");
    }
    if (moving > max_moving_obstacles)
        fail("[[obstacle]]: " + std::to_string(moving) + " obstacles have a velocity; at most " +
             std::to_string(max_moving_obstacles) + " may move");
    int numbered = 0;
    for (const auto& ob : spec.obstacles) numbered += ob.numbered() ? 1 : 0;
    if (numbered > max_moving_obstacles)
        fail("[[obstacle]]: " + std::to_string(numbered) + " obstacles have a velocity, a temperature or a heat flux; "
             "at most " + std::to_string(max_moving_obstacles) + " may (the kernels tell them apart by a 3-bit number)");
}

void check_forces(const CaseSpec& spec) {
    const ForceReportSpec& f = spec.forces;
    if (f.obstacles.empty()) return;
    std::string list = "forces.obstacles = [";
    for (std::size_t k = 0; k < f.obstacles.size(); ++k) list += (k ? ", \"" : "\"") + f.obstacles[k] + "\"";
    list += "]: ";
    for (std::size_t k = 0; k < f.obstacles.size(); ++k) {
        const std::string& name = f.obstacles[k];
        int count = 0;
        std::string which;
        for (std::size_t i = 0; i < spec.obstacles.size(); ++i)
            if (spec.obstacles[i].name == name) which += std::string(count++ ? ", " : "") + "obstacle[" + std::to_string(i) + "]";
        if (count == 0) fail(list + unknown_obstacle_text(spec, name));
        if (count > 1)
            fail(list + "\"" + name + "\" is the name of " + std::to_string(count) +
                 " obstacles (" + which + "); give them distinct names");
        for (std::size_t j = 0; j < k; ++j)
            if (f.obstacles[j] == name) fail(list + "\"" + name + "\" is named twice");
    }
    if (!(f.reference_velocity > 0))
        fail("forces.reference_velocity = " + value_text(f.reference_velocity) +
             ": must be > 0 (the velocity U of C = F / (1/2 rho0 U^2 A), lattice units)");
    if (!(f.reference_area > 0))
        fail("forces.reference_area = " + value_text(f.reference_area) +
             ": must be > 0 (the area A of C = F / (1/2 rho0 U^2 A), cells^2; a length in cells on a 2D lattice)");
    const int dims = lattice::dimensions_of(spec.model.lattice);
    for (const auto& [key, axis] : {std::pair{"flow_axis", f.flow_axis}, std::pair{"lift_axis", f.lift_axis}}) {
        if (axis < 0 || axis > 2) fail(std::string("forces.") + key + " = " + std::to_string(axis) + ": must be x, y or z");
        if (axis >= dims)
            fail(std::string("forces.") + key + " = \"" + axis_name(axis) + "\": lattice " +
                 std::string(lattice::name_of(spec.model.lattice)) + " is 2D; choose \"x\" or \"y\"");
    }
    if (f.lift_axis == f.flow_axis)
        fail("forces.lift_axis = \"" + axis_name(f.lift_axis) + "\": must differ from forces.flow_axis = \"" +
             axis_name(f.flow_axis) + "\" (drag is along the flow, lift across it)");
    if (f.interval < 0)
        fail("forces.interval = " + std::to_string(f.interval) + ": must be >= 1 (steps between samples)");
}

void check_run_output(const CaseSpec& spec) {
    const RunSpec& r = spec.run;
    if (r.steps < 1) fail("run.steps = " + std::to_string(r.steps) + ": must be >= 1");
    if (r.check_interval < 1) fail("run.check_interval = " + std::to_string(r.check_interval) + ": must be >= 1");
    if (!(r.steady_tolerance >= 0))
        fail("run.steady_tolerance = " + value_text(r.steady_tolerance) + ": must be >= 0 (0 turns the steady-state stop off)");
    // Two Shan-Chen components: each one's density is watched, and the minor one may dip
    // slightly below zero (case_file.cpp's default), so min may be down to -1.
    if (two_components(spec)) {
        if (!(r.density_min > -1 && r.density_min < 1 && r.density_max > 1))
            fail("run.density_range = [" + value_text(r.density_min) + ", " + value_text(r.density_max) +
                 "]: need -1 < min < 1 < max with two components (the run stops when either component's "
                 "density leaves this range)");
    } else if (!(r.density_min > 0 && r.density_min < 1 && r.density_max > 1)) {
        fail("run.density_range = [" + value_text(r.density_min) + ", " + value_text(r.density_max) +
             "]: need 0 < min < 1 < max (the run stops when the density leaves this range)");
    }

    const OutputSpec& o = spec.output;
    if (o.directory.empty()) fail("output.directory = \"\": must not be empty");
    if (o.interval < 0) fail("output.interval = " + std::to_string(o.interval) + ": must be >= 0 (0 = final state only)");
    if (o.slice_axis < 0 || o.slice_axis > 2) fail("output.slice_axis = " + std::to_string(o.slice_axis) + ": must be x, y or z");
    if (lattice::dimensions_of(spec.model.lattice) == 2 && o.slice_axis != 2)
        fail("output.slice_axis = \"" + axis_name(o.slice_axis) + "\": a 2D lattice has only the z slice");
    if (!(o.slice_position >= 0 && o.slice_position <= 1))
        fail("output.slice_position = " + value_text(o.slice_position) + ": must be in [0, 1] (a fraction of the domain)");
}

/// A lattice constant for a message: 1/3 as 0.3333.
std::string short_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

// What a binary fluid's part (kernel/binary.hpp, kernel/free_energy.hpp) does not carry
// out: each refusal says why. Fluid B's viscosity.
void check_two_fluids(const CaseSpec& spec, const std::string& model, const char* fluids) {
    const MultiphaseSpec& m = spec.multiphase;
    const double tau_b = 3 * m.viscosity_b + 0.5;
    if (!(m.viscosity_b > 0 && tau_b <= max_tau))
        fail("multiphase.viscosity_b = " + value_text(m.viscosity_b) + ": must be > 0 and at most " +
             value_text((max_tau - 0.5) / 3) + " (tau_B = 3 nu_B + 0.5, as model.tau)");
    if (spec.model.smagorinsky > 0)
        fail("model.smagorinsky = " + value_text(spec.model.smagorinsky) + " with multiphase.model = \"" + model +
             "\": the two fluids' BGK collision has no LES closure; remove model.smagorinsky");
    for (int f = 0; f < 6; ++f) {
        if (spec.periodic[std::size_t(f / 2)]) continue;
        const FaceType t = spec.faces[std::size_t(f)].type;
        if (t != FaceType::Wall && t != FaceType::FreeSlip)
            fail("boundary." + std::string(boundary::face_name(f)) + ".type = \"" +
                 std::string(boundary::type_name(t)) + "\" with multiphase.model = \"" + model + "\": its faces "
                 "are walls, free-slip or periodic (what an open or moving face would prescribe for " + fluids +
                 " is not one velocity or density)");
    }
    for (const Obstacle& o : spec.obstacles)
        if (o.moving() || o.interpolated)
            fail("obstacle \"" + o.name + "\": " + (o.moving() ? "a velocity" : "interpolated = true") +
                 " with multiphase.model = \"" + model + "\": its obstacles are at rest with half-way "
                 "bounce-back");
}

// The Shan-Chen models' contact angle (an adhesion calibrated at setup, sim/wetting.cpp):
// within 40 degrees of neutral. Further out a drop that moves to its angle stops more
// than 3 degrees beyond the angle a drop placed at it keeps (measured with two
// components, a half disc of R = 16 spreading or retracting: 45 -> 42.6, 50 -> 47.3,
// 60 -> 59.93, 120 -> 120.30, 130 -> 133.2, 135 -> 139.3; docs/validation.md).
void check_shan_chen_angle(double angle, const char* fluid) {
    if (!(angle >= 50 && angle <= 130))
        fail("multiphase.contact_angle = " + value_text(angle) + ": the Shan-Chen models take 50 to 130 degrees "
             "(measured in " + fluid + "; 90 is a neutral wall): further from 90 a drop that spreads or retracts "
             "to its angle stops more than 3 degrees beyond it. The free-energy model takes (0, 180)");
}

// The two-component model (kernel/binary.hpp): its parameters, and what it does not
// combine with: each refusal says why.
void check_binary(const CaseSpec& spec) {
    const MultiphaseSpec& m = spec.multiphase;
    const physics::ShanChenParameters& p = m.shan_chen;
    if (!(p.rho0 > 0 && p.rho0 < 1e6)) fail("multiphase.rho0 = " + value_text(p.rho0) + ": must be in (0, 1e6)");
    if (spec.model.forcing != physics::ForcingKind::Edm)
        fail("model.forcing = \"guo\" with multiphase.model = \"shan-chen-binary\": the two components take their "
             "forces by the exact difference method (seed 003 §5.3; Guo's scheme has no single velocity for two "
             "components with their own tau); remove model.forcing");
    check_two_fluids(spec, "shan-chen-binary", "each component");
    if (!spec.forces.obstacles.empty())
        fail("forces.obstacles with multiphase.model = \"shan-chen-binary\": the momentum exchange would count "
             "component A only; remove [forces]");
    if (m.density_b_expression.empty() && !(std::isfinite(m.density_b) && m.density_b > 0))
        fail("initial.density_b = " + value_text(m.density_b) + ": must be a number > 0");
    check_shan_chen_angle(m.contact_angle, "component A");
}

// The free-energy model (physics/free_energy.hpp): a, kappa, Gamma and tau_phi that give
// an interface the lattice resolves, and what it does not combine with.
void check_free_energy(const CaseSpec& spec) {
    const MultiphaseSpec& m = spec.multiphase;
    const physics::FreeEnergyParameters& p = m.free_energy_parameters;
    for (const auto& [key, v] : {std::pair{"a", p.a}, std::pair{"kappa", p.kappa}, std::pair{"gamma", p.gamma}})
        if (!(std::isfinite(v) && v > 0)) fail("multiphase." + std::string(key) + " = " + value_text(v) + ": must be > 0");
    // The width w = sqrt(2 kappa / a) (phi = tanh(x / w)): below half a spacing the stencils
    // no longer see a profile (seed 003's binary Poiseuille flow, its sharpest case, has
    // w = 0.25 with kappa = 1e-4, a = 32e-4, at the edge of stability by its own account).
    const double w = physics::interface_width(p);
    if (!(w >= 0.25))
        fail("multiphase.kappa = " + value_text(p.kappa) + " with multiphase.a = " + value_text(p.a) +
             ": the interface width sqrt(2 kappa / a) = " + value_text(w) +
             " is below 0.25 spacings, which no stencil resolves; raise kappa or lower a");
    if (!(physics::mobility_stiffness(p) <= 0.6))
        fail("multiphase.gamma = " + value_text(p.gamma) + ": with a = " + value_text(p.a) + " and kappa = " +
             value_text(p.kappa) + ", gamma (2 a + 16 kappa / 3) = " + value_text(physics::mobility_stiffness(p)) +
             " exceeds 0.6, where the order parameter's populations lose stability (measured: diverging from 0.76); "
             "use gamma <= " + value_text(0.6 / (2 * p.a + 16.0 / 3 * p.kappa)) +
             " and raise tau_phi for the mobility gamma (tau_phi - 1/2)");
    // tau_phi near 1/2: g's BGK loses stability as tau does (sim/units.cpp's bound).
    if (!(m.tau_phi >= 0.5 + 1e-3 && m.tau_phi <= max_tau))
        fail("multiphase.tau_phi = " + value_text(m.tau_phi) + ": must be in [0.501, " + value_text(max_tau) +
             "] (the order parameter's relaxation time; its mobility is gamma (tau_phi - 1/2))");
    check_two_fluids(spec, "free-energy", "each fluid");
    if (spec.model.forcing != physics::ForcingKind::Edm)
        fail("model.forcing = \"guo\" with multiphase.model = \"free-energy\": its body force enters by the exact "
             "difference method (seed 003 §5.3); remove model.forcing");
    // The wetting boundary (physics::wetting_potential) covers every angle between the
    // two complete wettings; they themselves leave no drop to hold an angle.
    if (!(m.contact_angle > 0 && m.contact_angle < 180))
        fail("multiphase.contact_angle = " + value_text(m.contact_angle) +
             ": must be in (0, 180) degrees (measured in fluid A, phi = +1; 90 is a neutral wall)");
    if (m.phi_expression.empty() && !(std::isfinite(m.phi) && m.phi >= -1.5 && m.phi <= 1.5))
        fail("initial.phi = " + value_text(m.phi) + ": must be in [-1.5, 1.5] (+1 fluid A, -1 fluid B)");
}

// [multiphase] (physics/shan_chen.hpp): the parameters that make a model, and what the
// model does not combine with yet.
void check_multiphase(const CaseSpec& spec) {
    const MultiphaseSpec& m = spec.multiphase;
    if (!m.enabled) return;
    const physics::ShanChenParameters& p = m.shan_chen;
    if (spec.thermal.enabled)
        fail("[multiphase] with [thermal]: a temperature coupled to a liquid-vapour model is not offered; remove one");
    if (spec.units.si)
        fail("[multiphase] with [units]: the multiphase models' parameters are in lattice units; write the case in "
             "lattice units");
    if (m.free_energy) {
        check_free_energy(spec);
        return;
    }
    if (!(std::isfinite(p.g) && p.g != 0)) fail("multiphase.g = " + value_text(p.g) + ": must be a nonzero number");
    if (m.binary) {
        check_binary(spec);
        return;
    }
    check_shan_chen_angle(m.contact_angle, "the liquid");
    // beta in [0, 2]: 0 is the gradient of psi^2 alone, 2 its mirror about Shan & Chen's 1;
    // the values that matter (Kupershtokh et al. 2009, Gong & Cheng 2012; 1.2215 here) lie
    // near 1, and further out the interface's equilibrium leaves the phase diagram.
    if (!(p.mixing >= 0 && p.mixing <= 2))
        fail("multiphase.mixing = " + value_text(p.mixing) + ": must be in [0, 2] (the mixed force's beta: 1 is "
             "Shan & Chen's force, 1.2215 Carnahan-Starling's default)");
    if (!(m.wall_density < 0 || std::isfinite(m.wall_density)))
        fail("multiphase.wall_density = " + value_text(m.wall_density) + ": must be a finite number >= 0");
    if (p.psi == physics::Pseudopotential::Exponential || p.psi == physics::Pseudopotential::InverseExponential) {
        if (!(p.rho0 > 0 && p.rho0 < 1e6)) fail("multiphase.rho0 = " + value_text(p.rho0) + ": must be in (0, 1e6)");
    } else {
        const std::pair<const char*, double> finite[] = {{"a", p.a}, {"b", p.b}, {"gas_constant", p.r},
                                                         {"temperature", p.temperature}};
        for (const auto& [key, v] : finite)
            if (!std::isfinite(v)) fail("multiphase." + std::string(key) + " = " + value_text(v) + ": must be a finite number");
        if (!(p.g < 0))
            fail("multiphase.g = " + value_text(p.g) + ": Carnahan-Starling's psi = sqrt(2 (p - rho cs2) / (G cs2)) "
                 "needs G < 0 (-1: the convention of Yuan & Schaefer 2006)");
        // Guo's forcing adds a pressure of its own at the interface: with it the vapour
        // left Maxwell's (44% low at 0.8 T_c with the default mixing, 63% with 1) and runs
        // diverged below 0.8 T_c (docs/validation.md); the exact difference method is the
        // default, and the mixing's calibration is for it.
        if (spec.model.forcing == physics::ForcingKind::Guo)
            fail("model.forcing = \"guo\" with multiphase.pseudopotential = \"carnahan-starling\": with Guo's forcing "
                 "its vapour is far from Maxwell's (44% low at 0.8 T_c) and runs diverge below 0.8 T_c; remove "
                 "model.forcing (the exact difference method, the default)");
        if (!(p.a > 0)) fail("multiphase.a = " + value_text(p.a) + ": must be > 0");
        if (!(p.b > 0)) fail("multiphase.b = " + value_text(p.b) + ": must be > 0");
        if (!(p.r > 0)) fail("multiphase.gas_constant = " + value_text(p.r) + ": must be > 0");
        if (!(p.temperature > 0))
            fail("multiphase.temperature = " + value_text(p.temperature) + ": must be > 0 (T_c = " +
                 value_text(p.critical_temperature()) + " with these a, b, gas_constant)");
        // The pole of the equation (eta = b rho / 4 = 1): every density must stay below it
        // (an expression's and the noise's are checked node by node, Simulation::initial_densities).
        if (!(spec.initial_density * (1 + spec.initial_noise) * p.b / 4 < 1) && spec.initial_density_expression.empty())
            fail("initial.density = " + value_text(spec.initial_density) + ": Carnahan-Starling's equation has its "
                 "pole at rho = 4 / b = " + value_text(4 / p.b) + "; start below it");
        if (m.wall_density >= 0 && !(m.wall_density * p.b / 4 < 1))
            fail("multiphase.wall_density = " + value_text(m.wall_density) + ": Carnahan-Starling's equation has its "
                 "pole at rho = 4 / b = " + value_text(4 / p.b) + "; give a density below it");
    }
}

/// [thermal]: the scalar's relaxation, its coupling and its boundaries.
void check_thermal(const CaseSpec& spec) {
    const ThermalSpec& t = spec.thermal;
    if (!t.enabled) return;
    const double cs2 = lattice::cs2_of(t.lattice);
    const double tau_t = t.diffusivity / cs2 + 0.5;
    const std::string lat(lattice::name_of(t.lattice));
    // tau_T near 1/2: the scalar's BGK/TRT loses positivity and a sharp front oscillates.
    // With the flow's LES the eddy diffusivity nu_t / Pr_t raises tau_T where the flow is
    // unresolved (seed 004: tau_T = 3 (D + D_t) + 1/2), so a smaller floor guards only
    // the arithmetic there (sim/units.cpp says the same of tau).
    const bool les = spec.model.smagorinsky > 0 && t.turbulent_prandtl > 0;
    const double floor = les ? 1e-4 : 1e-3;
    if (!(tau_t >= 0.5 + floor))
        fail(std::string(t.prandtl > 0 ? "thermal.prandtl = " + value_text(t.prandtl)
                                       : "thermal.diffusivity = " + value_text(t.diffusivity)) +
             ": tau_T = D/cs2 + 1/2 = " + value_text(tau_t) + " on " + lat +
             " (cs2 = " + short_text(cs2) + ") must be >= " + short_text(0.5 + floor) + (les ? "" : " without LES") +
             (spec.units.si ? "; raise units.lattice_velocity or refine the grid (tau_T - 1/2 grows with both)"
                            : "; raise the diffusivity or refine the grid"));
    if (!(tau_t <= max_tau))
        fail("thermal.diffusivity = " + value_text(t.diffusivity) + ": tau_T = " + value_text(tau_t) +
             " must be <= " + value_text(max_tau));
    // beta dT: the Boussinesq approximation holds while density changes stay small; the
    // check needs the temperatures a case can reach, which are its boundary and initial
    // values (an exact bound for pure conduction; buoyancy does not make new extremes).
    double lo = t.expression_free_initial(), hi = lo;
    for (const auto& c : t.faces)
        if (c && c->rule == boundary::ScalarRule::Fixed) lo = std::min(lo, c->value), hi = std::max(hi, c->value);
    for (const auto& o : spec.obstacles)
        if (o.thermal && o.thermal->rule == boundary::ScalarRule::Fixed)
            lo = std::min(lo, o.thermal->value), hi = std::max(hi, o.thermal->value);
    lo = std::min(lo, t.reference), hi = std::max(hi, t.reference);
    if (!(std::abs(t.expansion) * (hi - lo) <= 0.1))
        fail("thermal.expansion = " + value_text(t.expansion) + ": beta (T_max - T_min) = " +
             value_text(std::abs(t.expansion) * (hi - lo)) +
             " must be <= 0.1 (the Boussinesq approximation assumes small density changes)");
    const double g = std::sqrt(t.gravity[0] * t.gravity[0] + t.gravity[1] * t.gravity[1] + t.gravity[2] * t.gravity[2]);
    // The largest buoyant acceleration, beta g dT, over a step: 1e-2 already accelerates
    // a fluid at rest to Ma ~ 0.1 in 10 steps.
    if (!(g * std::abs(t.expansion) * (hi - lo) <= 1e-2))
        fail("thermal.gravity: the buoyant acceleration beta |g| dT = " + value_text(g * std::abs(t.expansion) * (hi - lo)) +
             " must be <= 0.01 (lattice units); lower the gravity in lattice units (a finer time step)");
    if (lattice::dimensions_of(spec.model.lattice) == 2 && t.gravity[2] != 0)
        fail("thermal.gravity = " + vec(t.gravity, 3) + ": a 2D lattice has no z component");
    const auto whole = parallel::Subdomain::whole(spec.size, spec.periodic);
    for (int f = 0; f < 6; ++f) face_temperatures(spec, whole, f);  // NaN/Inf, before any allocation
    // A pressure face open to fluid at another temperature holds its hydrostatic profile
    // (sim/face_values.hpp): a weakly compressible lattice carries it as density, which
    // must stay close to 1 (10%: the stability watch's range is far wider, the
    // compressibility error already 1% of the pressure there).
    for (int f = 0; f < 6; ++f) {
        const auto grad = hydrostatic_gradient(spec, f);
        double spread = 0;
        for (std::size_t a = 0; a < 3; ++a) spread += std::abs(grad[a]) * (spec.size[a] - 1);
        if (spread > 0.1)
            fail("boundary." + std::string(boundary::face_name(f)) + ".temperature = " +
                 value_text(t.faces[std::size_t(f)]->value) + ": the outside fluid's hydrostatic pressure across the " +
                 "face changes the density there by " + short_text(spread) + ", above 0.1; lower the gravity in " +
                 "lattice units (a smaller units.lattice_velocity, a finer time step) or the temperature difference");
    }
    for (int f = 0; f < 6; ++f) {
        const auto& c = t.faces[std::size_t(f)];
        if (!c) continue;
        const std::string key = "boundary." + std::string(boundary::face_name(f));
        const auto type = spec.faces[std::size_t(f)].type;
        if (c->rule == boundary::ScalarRule::Flux && (type == FaceType::Pressure || type == FaceType::Outflow))
            fail(key + ".heat_flux: a " + std::string(boundary::type_name(type)) +
                 " face lets the temperature leave with the flow (zero gradient); heat fluxes go on walls");
        if (c->rule == boundary::ScalarRule::Flux && !(std::abs(c->value) < 1e3))
            fail(key + ".heat_flux = " + value_text(c->value) + ": must be finite and below 1e3 in magnitude");
    }
    for (const auto& o : spec.obstacles) {
        const std::string key = "obstacle \"" + o.name + "\"";
        if (o.power && !(std::abs(*o.power) < 1e9))
            fail(key + ".power: " + value_text(*o.power) + " (lattice units) must be finite and below 1e9 in magnitude");
        if (o.thermal && o.thermal->rule == boundary::ScalarRule::Flux && !o.power && !(std::abs(o.thermal->value) < 1e3))
            fail(key + ".heat_flux = " + value_text(o.thermal->value) + ": must be finite and below 1e3 in magnitude");
    }
}

// A position given in the case (node coordinates, or metres in an SI case's file) as the
// file gave it, for messages.
std::string position_text(const CaseSpec& spec, double x) {
    return spec.units.si ? short_text(spec.units.node_position(x)) + " m" : short_text(x);
}

std::string box_text(const CaseSpec& spec, int axis) {
    const double n = spec.size[std::size_t(axis)];
    return spec.units.si ? "[0, " + short_text(n * spec.units.cell) + "] m" : "[-0.5, " + short_text(n - 0.5) + "]";
}

/// [probes] and [average]: positions inside the box, a window inside the run.
void check_monitors(const CaseSpec& spec) {
    const ProbeSpec& p = spec.probes;
    if (p.names.size() != p.points.size())  // a case built in code; the reader fills the names
        fail("[probes]: " + std::to_string(p.names.size()) + " names for " + std::to_string(p.points.size()) +
             " points; give one name per point");
    const bool sublattice = spec.stores_sublattice();
    if (!p.points.empty() && sublattice)
        fail("[probes]: lattice D3Q13 stores every other node (seed 000); probes are offered on the other lattices");
    const int dims = lattice::dimensions_of(spec.model.lattice);
    for (std::size_t k = 0; k < p.points.size(); ++k)
        for (int a = 0; a < dims; ++a)
            if (!inside_box(spec, a, p.points[k][std::size_t(a)]))
                fail("probes.points[" + std::to_string(k) + "] (\"" + p.names[k] + "\"): " + axis_name(a) + " = " +
                     position_text(spec, p.points[k][std::size_t(a)]) + " is outside the box, which spans " +
                     box_text(spec, a) + " along " + axis_name(a));
    const AverageSpec& m = spec.average;
    if (!m.enabled) return;
    if (sublattice)
        fail("[average]: lattice D3Q13 stores every other node (seed 000); time averages are offered on the other "
             "lattices");
    const std::string window = spec.units.si ? "average.time" : "average.steps";
    if (m.to == 0)
        fail("[average]: give the window, " + window +
             (spec.units.si ? " = [start, end] (s)" : " = [first, last] (steps)") +
             ": the mean of a transient is rarely what is wanted, so there is no default");
    // A window beyond run.steps is allowed: a later sitting (--restart, which keeps the
    // sums) closes it; a run that ends inside it writes the means of its samples so far.
    if (m.interval > 0 && m.interval > m.to - m.from)
        fail(std::string(spec.units.si ? "average.period" : "average.interval") + ": " + std::to_string(m.interval) +
             " steps between samples is longer than the window (" + std::to_string(m.to - m.from) + " steps)");
    if (m.section_axis >= 0) {
        if (m.section_axis < dims && !inside_box(spec, m.section_axis, m.section_at))
            fail("average.section_at = " + position_text(spec, m.section_at) + " is outside the box, which spans " +
                 box_text(spec, m.section_axis) + " along " + axis_name(m.section_axis));
        const int first = m.section_axis == 0 ? 1 : 0;
        for (double x : m.profiles)
            if (!inside_box(spec, first, x))
                fail("average.profiles: " + position_text(spec, x) + " is outside the box, which spans " +
                     box_text(spec, first) + " along " + axis_name(first) + " (the section's first axis)");
    }
}

}  // namespace

double ThermalSpec::expression_free_initial() const { return initial_expression.empty() ? initial : reference; }

boundary::ScalarFaces scalar_faces(const CaseSpec& spec) {
    boundary::ScalarFaces out{};
    const ThermalSpec& t = spec.thermal;
    for (int f = 0; f < 6; ++f) {
        const auto type = spec.faces[std::size_t(f)].type;
        boundary::ScalarCondition c;
        if (const auto& given = t.faces[std::size_t(f)]) c = *given;
        else if (type == FaceType::Velocity) c = {boundary::ScalarRule::Fixed, t.reference};
        else if (type == FaceType::Pressure || type == FaceType::Outflow) c = {boundary::ScalarRule::ZeroGradient, t.reference};
        else c = {boundary::ScalarRule::Adiabatic, 0};
        // A temperature on a pressure or outflow face is that of the fluid that enters there.
        if ((type == FaceType::Pressure || type == FaceType::Outflow) && c.rule == boundary::ScalarRule::Fixed)
            c.rule = boundary::ScalarRule::ZeroGradient;
        // Inside, theta = T - T_0: the values move by the reference; a flux does not.
        if (c.rule == boundary::ScalarRule::Fixed || c.rule == boundary::ScalarRule::ZeroGradient) c.value -= t.reference;
        out.face[f] = c;
    }
    return out;
}

backend::Request offer_request(const CaseSpec& spec, bool several_ranks) {
    backend::Request r;
    const ModelSpec& m = spec.model;
    r.config = {m.lattice, m.precision, m.equilibrium, m.collision, m.streaming,
                spec.thermal.enabled      ? spec.thermal.lattice
                : spec.multiphase.enabled ? spec.multiphase.kind()
                                          : lattice::CoupledKind::None,
                // "auto" falls back to dense where sparse is not offered (sim::engine_setup)
                spec.storage == StorageChoice::Sparse ? storage::Storage::Sparse : storage::Storage::Dense};
    r.several_ranks = several_ranks;
    r.smagorinsky = m.smagorinsky;
    for (std::size_t f = 0; f < 6; ++f) {
        r.face_type[f] = spec.periodic[f / 2] ? FaceType::Periodic : spec.faces[f].type;
        r.face_method[f] = spec.faces[f].method;
    }
    return r;
}

void fill_model_defaults(CaseSpec& spec) {
    MrtRates& r = spec.model.mrt;
    auto fill = [](double& rate, double value) {
        if (rate == 0) rate = value;
    };
    // s_q and s_m stay 0 ("from tau", mrt_rates) except on D3Q13.
    switch (spec.model.lattice) {
        case lattice::Kind::D2Q9:  // s_e and s_eps too follow tau (mrt_rates)
            break;
        case lattice::Kind::D3Q19:  // d'Humières et al. 2002
            fill(r.s_e, 1.19);
            fill(r.s_eps, 1.4);
            fill(r.s_pi, 1.4);
            break;
        case lattice::Kind::D3Q13:  // seed 000 §4: "a good choice is to set these values to one"
            fill(r.s_e, 1.0);
            fill(r.s_m, 1.0);
            break;
        case lattice::Kind::D3Q15:  // d'Humières et al. 2002
            fill(r.s_e, 1.6);
            fill(r.s_eps, 1.2);
            break;
        case lattice::Kind::D3Q27:  // no tuned set for this basis: the even non-hydrodynamic moments relax to equilibrium
            fill(r.s_e, 1.0);
            fill(r.s_eps, 1.0);
            fill(r.s_pi, 1.0);
            break;
    }
}

MrtRates mrt_rates(const ModelSpec& model) {
    MrtRates r = model.mrt;
    const double odd = physics::trt_omega_minus(model.tau, model.trt_magic);
    if (r.s_q == 0) r.s_q = odd;
    if (r.s_m == 0) r.s_m = odd;
    if (model.lattice == lattice::Kind::D2Q9) {
        if (r.s_e == 0) r.s_e = 1.0 / model.tau;
        if (r.s_eps == 0) r.s_eps = 1.0 / model.tau;
    }
    return r;
}

void check_case(const CaseSpec& spec) {
    check_units(spec);
    check_model(spec);
    check_domain(spec);
    if (!(spec.initial_density > 0)) fail("initial.density = " + value_text(spec.initial_density) + ": must be > 0");
    check_velocity(spec, "initial.velocity", spec.initial_velocity);
    if (lattice::dimensions_of(spec.model.lattice) == 2 && spec.body_force[2] != 0)
        fail("force.body = " + vec(spec.body_force, 3) + ": lattice " + std::string(lattice::name_of(spec.model.lattice)) +
             " is 2D; the z component must be 0");
    check_faces(spec);
    check_obstacles(spec);
    check_moving_obstacles(spec);
    check_run_output(spec);
    check_forces(spec);
    check_thermal(spec);
    check_multiphase(spec);
    check_monitors(spec);
}

std::string unknown_obstacle_text(const CaseSpec& spec, const std::string& name) {
    std::string s = "\"" + name + "\" is not the name of any [[obstacle]]";
    if (spec.obstacles.empty()) return s + " (the case has no obstacles)";
    s += "; the obstacles are ";
    for (std::size_t i = 0; i < spec.obstacles.size(); ++i) s += (i ? ", \"" : "\"") + spec.obstacles[i].name + "\"";
    return s;
}

MemoryEstimate estimate_memory(const CaseSpec& spec) {
    const std::int64_t cells = spec.cells(), stored = spec.stored_nodes();
    const int flow_q = lattice::velocities_of(spec.model.lattice);
    // A coupled scalar's populations, or a second fluid component's (the flow's Q).
    const std::int64_t q = flow_q + (spec.thermal.enabled     ? lattice::velocities_of(spec.thermal.lattice)
                                     : spec.multiphase.binary ? flow_q
                                                              : 0);
    MemoryEstimate m;
    m.population_bytes = storage::copies_of(spec.model.streaming) * q * storage::bytes_of(spec.model.precision) * stored;
    m.node_kind_bytes = stored;
    // Shan-Chen's psi fields (one a component) or the free energy's phi, in the arithmetic
    // type (FP16 storage computes in FP32).
    if (spec.multiphase.enabled)
        m.population_bytes += (spec.multiphase.binary && !spec.multiphase.free_energy ? 2 : 1) *
                              storage::compute_bytes_of(spec.model.precision) * stored;
    m.output_bytes = (spec.thermal.enabled ? 5 : 4) * 8 * cells;  // density, velocity (and temperature), double
    // initial.density by expression or noise: the densities and velocities placed (host, doubles).
    if (!spec.initial_density_expression.empty() || spec.initial_noise > 0)
        m.output_bytes = std::max(m.output_bytes, std::int64_t(4 * 8) * cells);
    if (spec.stores_sublattice()) m.output_bytes += 4 * 8 * stored + cells;  // the stored nodes' fields, the box's kinds
    if (spec.average.enabled) {
        m.monitor_bytes = backend::mean_components * 8 * stored;  // the running sums (Engine::accumulate)
        m.output_bytes += backend::mean_components * 8 * stored;  // and their copy on the host
    }
    return m;
}

}  // namespace barracuda::sim
