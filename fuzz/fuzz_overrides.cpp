// libFuzzer target: --set overrides (one per input line) applied to the default
// case, as `barracuda run --set KEY=VALUE` does. Any input must end in a parsed
// case or a CaseError.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "io/case_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> overrides;
    std::size_t from = 0;
    while (from <= text.size() && overrides.size() < 16) {
        const auto end = text.find('\n', from);
        overrides.emplace_back(text.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from));
        if (end == std::string_view::npos) break;
        from = end + 1;
    }
    try {
        barracuda::io::parse_case_string(barracuda::io::default_case_toml(), overrides, "default case");
    } catch (const barracuda::CaseError&) {
    }
    return 0;
}
