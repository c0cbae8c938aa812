#include "sim/face_values.hpp"

#include <cmath>
#include <sstream>

#include "boundary/parameters.hpp"
#include "common/error.hpp"

namespace barracuda::sim {

std::string face_expression_key(int face, int component) {
    const std::string key = "boundary." + std::string(boundary::face_name(face));
    return component < 3 ? key + ".velocity[" + std::to_string(component) + "]" : key + ".density";
}

std::array<double, 3> hydrostatic_gradient(const CaseSpec& spec, int face) {
    const ThermalSpec& t = spec.thermal;
    const auto& c = t.faces[std::size_t(face)];
    if (!t.enabled || spec.faces[std::size_t(face)].type != boundary::FaceType::Pressure || !c ||
        c->rule == boundary::ScalarRule::Flux || !t.face_expressions[std::size_t(face)].empty())
        return {0, 0, 0};
    const double theta = c->value - t.reference;  // the outside fluid's
    std::array<double, 3> g{};
    for (std::size_t a = 0; a < 3; ++a) g[a] = -3.0 * t.expansion * theta * t.gravity[a];
    g[std::size_t(boundary::Parameters::axis(face))] = 0;  // the face is one layer thick
    return g;
}

FaceValues::FaceValues(const CaseSpec& spec, const parallel::Subdomain& sub) : faces_(spec.faces), size_(spec.size), units_(spec.units), sub_(sub) {
    for (int f = 0; f < 6; ++f) {
        const auto& face = spec.faces[std::size_t(f)];
        const auto a = std::size_t(f / 2);
        const bool neighbour = (f & 1) ? sub.ghost_hi[a] : sub.ghost_lo[a];  // not this rank's face
        gradient_[std::size_t(f)] = hydrostatic_gradient(spec, f);
        for (std::size_t b = 0; b < 3; ++b) centre_[std::size_t(f)][b] = 0.5 * (spec.size[b] - 1);
        const auto& h = gradient_[std::size_t(f)];
        const bool hydrostatic = h[0] != 0 || h[1] != 0 || h[2] != 0;
        if ((!face.has_expression() && !hydrostatic) || neighbour) continue;
        has_[std::size_t(f)] = true;
        for (int k = 0; k < 4; ++k) {
            const std::string& text = k < 3 ? face.velocity_expression[std::size_t(k)] : face.density_expression;
            if (text.empty()) continue;
            try {
                auto& e = expr_[std::size_t(f)][std::size_t(k)].emplace(text, spec.size);
                time_dependent_ = time_dependent_ || e.uses_time();
            } catch (const ExpressionError& e) {
                throw CaseError(face_expression_key(f, k) + " = \"" + text + "\": " + describe_parse_error(text, e));
            }
        }
    }
}

bool FaceValues::any() const {
    for (bool h : has_)
        if (h) return true;
    return false;
}

std::size_t FaceValues::nodes(int face) const {
    const auto n = sub_.local_size();
    return std::size_t(n[std::size_t(boundary::Parameters::in_face_axis(face, 0))]) *
           std::size_t(n[std::size_t(boundary::Parameters::in_face_axis(face, 1))]);
}

void FaceValues::evaluate(int face, double t, std::vector<double>& out) const {
    const auto& fs = faces_[std::size_t(face)];
    const auto& ex = expr_[std::size_t(face)];
    const auto n = sub_.local_size();
    const int a = boundary::Parameters::axis(face);
    const int b0 = boundary::Parameters::in_face_axis(face, 0), b1 = boundary::Parameters::in_face_axis(face, 1);
    out.assign(4 * nodes(face), 0.0);
    int g[3];
    g[a] = (face & 1) ? size_[std::size_t(a)] - 1 : 0;
    for (int j = 0; j < n[std::size_t(b1)]; ++j) {
        g[b1] = sub_.global_coordinate(b1, j);
        for (int i = 0; i < n[std::size_t(b0)]; ++i) {
            g[b0] = sub_.global_coordinate(b0, i);
            double v[4] = {fs.velocity[0], fs.velocity[1], fs.velocity[2], fs.density};
            for (int k = 0; k < 4; ++k) {
                if (!ex[std::size_t(k)]) continue;
                if (units_.si) {  // node i at (i + 1/2) dx, step t at t dt; a velocity in m/s
                    v[k] = (*ex[std::size_t(k)])(units_.node_position(g[0]), units_.node_position(g[1]),
                                                 units_.node_position(g[2]), t * units_.dt());
                    if (k < 3) v[k] /= units_.velocity_scale();
                } else {
                    v[k] = (*ex[std::size_t(k)])(g[0], g[1], g[2], t);
                }
            }
            for (int b = 0; b < 3; ++b)  // the outside's hydrostatic pressure (hydrostatic_gradient)
                v[3] += gradient_[std::size_t(face)][std::size_t(b)] * (g[b] - centre_[std::size_t(face)][std::size_t(b)]);
            const double speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            const bool is_velocity = fs.type == boundary::FaceType::Velocity;
            std::string problem;
            int culprit = 0;
            for (int k = 0; k < 4 && problem.empty(); ++k)
                if (ex[std::size_t(k)] && !std::isfinite(v[k])) problem = "is NaN/Inf", culprit = k;
            if (problem.empty() && is_velocity && !(speed < max_lattice_velocity)) {
                std::ostringstream m;
                m << "gives |u| = " << speed << ", which must be < " << max_lattice_velocity
                  << " (lattice units; Ma = |u|/c_s)";
                problem = m.str();
                for (int k = 0; k < 3; ++k)
                    if (ex[std::size_t(k)]) { culprit = k; break; }
            }
            if (problem.empty() && !is_velocity && !(v[3] > 0)) problem = "gives a density <= 0", culprit = 3;
            if (!problem.empty()) {
                std::ostringstream m;
                if (ex[std::size_t(culprit)])
                    m << face_expression_key(face, culprit) << " = \"" << ex[std::size_t(culprit)]->text() << "\" ";
                else  // the hydrostatic profile alone
                    m << face_expression_key(face, culprit) << " with the outside's hydrostatic pressure ";
                m << problem << " at node (x, y, z) = (" << g[0] << ", " << g[1] << ", " << g[2] << ") at t = " << t;
                throw CaseError(m.str());
            }
            const std::size_t node = std::size_t(i) + std::size_t(n[std::size_t(b0)]) * std::size_t(j);
            for (int k = 0; k < 4; ++k) out[4 * node + std::size_t(k)] = v[k];
        }
    }
}

void check_face_expressions(const CaseSpec& spec) {
    const auto whole = parallel::Subdomain::whole(spec.size, spec.periodic);
    const FaceValues values(spec, whole);
    std::vector<double> out;
    for (int f = 0; f < 6; ++f)
        if (values.has(f)) values.evaluate(f, 1.0, out);
}

}  // namespace barracuda::sim
