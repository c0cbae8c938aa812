// libFuzzer target: a boundary-value expression (sim/expression.hpp, muparser)
// parsed for a 16 x 12 x 1 box and evaluated at a few nodes and times. Any input
// must end in values (NaN allowed: the run checks them) or an ExpressionError.
#include <cstdint>
#include <string>

#include "sim/expression.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const barracuda::sim::Expression e(text, {16, 12, 1});
        volatile double sink = 0;
        for (int k = 0; k < 4; ++k) sink = sink + e(k, 11 - k, 0, 0.5 * k);
    } catch (const barracuda::sim::ExpressionError& err) {
        (void)barracuda::sim::describe_parse_error(text, err);
    }
    return 0;
}
