#include "sim/expression.hpp"

#include <algorithm>

#include <muParser.h>

namespace barracuda::sim {

struct Expression::Parser {
    mu::Parser parser;
    double x = 0, y = 0, z = 0, t = 0;
};

Expression::Expression(const std::string& text, const std::array<int, 3>& size)
    : p_(std::make_unique<Parser>()), text_(text) {
    auto& p = p_->parser;
    try {
        p.DefineVar("x", &p_->x);
        p.DefineVar("y", &p_->y);
        p.DefineVar("z", &p_->z);
        p.DefineVar("t", &p_->t);
        p.DefineConst("nx", size[0]);
        p.DefineConst("ny", size[1]);
        p.DefineConst("nz", size[2]);
        p.SetExpr(text);
        p.Eval();  // muparser parses on the first evaluation: syntax errors surface here
        uses_time_ = p.GetUsedVar().count("t") > 0;
    } catch (const mu::Parser::exception_type& e) {
        throw ExpressionError(e.GetMsg(), std::min<std::size_t>(std::size_t(e.GetPos()), text.size()));
    }
}

Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

double Expression::operator()(double x, double y, double z, double t) const {
    p_->x = x, p_->y = y, p_->z = z, p_->t = t;
    try {
        return p_->parser.Eval();
    } catch (const mu::Parser::exception_type&) {
        return std::numeric_limits<double>::quiet_NaN();  // e.g. a runtime domain error: the caller reports NaN
    }
}

std::string describe_parse_error(const std::string& text, const ExpressionError& e) {
    return std::string(e.what()) + "\n    " + text + "\n    " + std::string(e.position, ' ') + "^";
}

}  // namespace barracuda::sim
