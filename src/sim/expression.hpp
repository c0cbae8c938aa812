// Case values given as text: an expression of the node position and the time,
// evaluated on the host by muparser (Debian's libmuparser), e.g. a parabolic
// inflow "0.05 * 4 * (y + 0.5) * (ny - y - 0.5) / ny^2" or a pulsating one
// "1 + 1e-3 * sin(2 * _pi * t / 2000)".
//
// Variables: x, y, z, the node's coordinates in the whole box (lattice units,
// node i at i); t, the time in steps (the value imposed while computing the
// state at time t). Constants: nx, ny, nz (the box size), muparser's _pi and _e
// and its functions (sin, cos, exp, sqrt, abs, min, max, ...; `a ? b : c`).
#pragma once
#include <array>
#include <memory>
#include <stdexcept>
#include <string>

namespace barracuda::sim {

/// An expression that does not parse: muparser's message, and the 0-based
/// character where it stopped (clamped to the text's length).
struct ExpressionError : std::runtime_error {
    ExpressionError(const std::string& message, std::size_t position)
        : std::runtime_error(message), position(position) {}
    std::size_t position;
};

class Expression {
public:
    /// Parses `text` for a box of `size` cells; throws ExpressionError.
    Expression(const std::string& text, const std::array<int, 3>& size);
    ~Expression();
    Expression(Expression&&) noexcept;
    Expression& operator=(Expression&&) noexcept;

    double operator()(double x, double y, double z, double t) const;
    bool uses_time() const { return uses_time_; }
    const std::string& text() const { return text_; }

private:
    struct Parser;
    std::unique_ptr<Parser> p_;  // muparser binds variables by address: kept in one place
    std::string text_;
    bool uses_time_ = false;
};

/// `message` of a parse error followed by the text and a caret under the
/// character where parsing stopped, for error messages.
std::string describe_parse_error(const std::string& text, const ExpressionError& e);

}  // namespace barracuda::sim
