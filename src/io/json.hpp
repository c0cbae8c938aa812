// Writing JSON by hand: the little the live view's server answers with (its requests
// are form-encoded, live/server.cpp) and barracuda bench --json; nothing reads JSON.
#pragma once
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace barracuda::io {

/// `text` as a JSON string literal, quotes included.
inline std::string json_string(std::string_view text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char b[8];
                    std::snprintf(b, sizeof b, "\\u%04x", c);
                    out += b;
                } else {
                    out += char(c);
                }
        }
    }
    return out + "\"";
}

/// A number as JSON with `digits` significant digits (null for NaN and infinities,
/// which JSON lacks).
inline std::string json_number(double v, int digits = 9) {
    if (!std::isfinite(v)) return "null";
    char b[40];
    std::snprintf(b, sizeof b, "%.*g", digits, v);
    return b;
}

}  // namespace barracuda::io
