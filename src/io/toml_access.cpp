#include "io/toml_access.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>

#include "common/error.hpp"

namespace barracuda::io::detail {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string quoted(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default: out += c;
        }
    }
    return out + "\"";
}

// Long arrays are cut so that one message stays one readable line.
constexpr std::size_t max_text = 80;

std::string value_text(const toml::node& node) {
    if (auto s = node.as_string()) return quoted(s->get());
    if (auto i = node.as_integer()) return std::to_string(i->get());
    if (auto b = node.as_boolean()) return b->get() ? "true" : "false";
    if (auto f = node.as_floating_point()) {
        // Keep TOML's spelling of a float (4000.0, not 4000) so the user sees
        // why an integer key rejected it.
        std::string t = format_number(f->get());
        if (std::isfinite(f->get()) && t.find_first_of(".e") == std::string::npos) t += ".0";
        return t;
    }
    if (auto a = node.as_array()) {
        std::string out = "[";
        for (std::size_t i = 0; i < a->size(); ++i) {
            if (i) out += ", ";
            out += value_text(*a->get(i));
            if (out.size() > max_text) return out + ", ...]";
        }
        return out + "]";
    }
    if (auto t = node.as_table()) {
        std::string out = "{";
        bool first = true;
        for (auto&& [k, v] : *t) {
            out += first ? " " : ", ";
            first = false;
            out += std::string(k.str()) + " = " + value_text(v);
            if (out.size() > max_text) return out + ", ... }";
        }
        return out + (first ? "}" : " }");
    }
    std::ostringstream os;  // dates and times: toml++ prints them in TOML form
    if (auto d = node.as_date()) os << *d;
    else if (auto tm = node.as_time()) os << *tm;
    else if (auto dt = node.as_date_time()) os << *dt;
    return os.str();
}

bool starts_with_key(std::string_view key, std::string_view prefix) {
    if (key == prefix) return true;
    return key.size() > prefix.size() && key.substr(0, prefix.size()) == prefix &&
           (key[prefix.size()] == '.' || key[prefix.size()] == '[');
}

[[noreturn]] void bad_override(const std::string& text, const std::string& why) {
    throw CaseError("--set " + quoted(text) + ": " + why);
}

// One component of an override key: a bare TOML key, optionally indexed (obstacle[1]).
struct KeyPart {
    std::string name;
    std::optional<std::size_t> index;
};

std::vector<KeyPart> split_key(const std::string& key, const std::string& text) {
    std::vector<KeyPart> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = key.find('.', start);
        std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        KeyPart p;
        if (const auto open = part.find('['); open != std::string::npos) {
            const auto close = part.find(']', open);
            std::size_t idx = 0;
            const char* first = part.data() + open + 1;
            const char* last = part.data() + (close == std::string::npos ? part.size() : close);
            const auto [ptr, ec] = std::from_chars(first, last, idx);
            if (close != part.size() - 1 || ec != std::errc() || ptr != last || first == last)
                bad_override(text, "'" + part + "' is not a key or key[index]");
            p.index = idx;
            part.resize(open);
        }
        const bool bare = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
        });
        if (!bare) bad_override(text, "'" + key + "' is not a dotted key (like model.tau or obstacle[0].radius)");
        p.name = std::move(part);
        parts.push_back(std::move(p));
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    return parts;
}

std::string trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(" \t");
    return std::string(s.substr(b, e - b + 1));
}

std::string count_words(std::size_t min_n, std::size_t max_n, std::string_view what) {
    std::string n = std::to_string(min_n);
    if (max_n == min_n + 1) n += " or " + std::to_string(max_n);
    else if (max_n > min_n) n += " to " + std::to_string(max_n);
    return "an array of " + n + " " + std::string(what);
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
    // Three rolling rows suffice: a transposition looks two rows back.
    std::vector<std::size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                cur[j] = std::min(cur[j], prev2[j - 2] + 1);
        }
        std::swap(prev2, prev);
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string closest_match(std::string_view word, std::span<const std::string_view> candidates) {
    const std::string w = lower(word);
    // A third of the word may be wrong; more than that is a different word.
    const std::size_t limit = std::max<std::size_t>(1, w.size() / 3);
    std::string best;
    std::size_t best_d = limit + 1;
    for (std::string_view c : candidates) {
        const std::size_t d = edit_distance(w, lower(c));
        if (d < best_d && d < w.size()) {
            best_d = d;
            best = std::string(c);
        }
    }
    return best;
}

std::string format_number(double v) {
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string describe(const toml::node& node) {
    switch (node.type()) {
        case toml::node_type::string: return "string " + value_text(node);
        case toml::node_type::integer: return "integer " + value_text(node);
        case toml::node_type::floating_point: return "floating-point number " + value_text(node);
        case toml::node_type::boolean: return "boolean " + value_text(node);
        case toml::node_type::array: return "array " + value_text(node);
        case toml::node_type::table: return "table " + value_text(node);
        case toml::node_type::date: return "date " + value_text(node);
        case toml::node_type::time: return "time " + value_text(node);
        case toml::node_type::date_time: return "date-time " + value_text(node);
        case toml::node_type::none: break;
    }
    return "nothing";
}

std::string Origin::where(std::string_view key, const toml::source_region* region) const {
    // Later overrides win, so the last one that covers the key is its origin.
    for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it)
        if (starts_with_key(key, it->first)) return "--set " + it->second + ": ";
    if (region && region->begin.line > 0) {
        const auto& p = region->begin;
        return source_ + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + ": ";
    }
    // A table with no position was created by an override of a key below it.
    for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it)
        if (starts_with_key(it->first, key)) return "--set " + it->second + ": ";
    return {};
}

bool Origin::overridden(std::string_view dotted_key) const {
    return std::any_of(overrides_.begin(), overrides_.end(), [&](const auto& o) { return o.first == dotted_key; });
}

void Origin::fail(std::string_view key, const toml::source_region* region, const std::string& message) const {
    throw CaseError(where(key, region) + message);
}

void apply_overrides(toml::table& root, const std::vector<std::string>& overrides, Origin& origin) {
    for (const std::string& text : overrides) {
        const auto eq = text.find('=');
        if (eq == std::string::npos) bad_override(text, "expected key=value, e.g. --set model.tau=0.8");
        const std::string key = trim(std::string_view(text).substr(0, eq));
        const std::string value = trim(std::string_view(text).substr(eq + 1));
        if (key.empty()) bad_override(text, "the key before '=' is empty");
        const std::vector<KeyPart> parts = split_key(key, text);

        // The value is whatever TOML makes of it; anything TOML rejects (a bare
        // word like cpu or a path) is meant as a string.
        toml::table parsed;
        bool is_toml = false;
        try {
            parsed = toml::parse("x = " + value, std::string_view("--set"));
            is_toml = parsed.size() == 1 && parsed.contains("x");
        } catch (const toml::parse_error&) {
        }
        toml::node* node_value = is_toml ? parsed.get("x") : nullptr;
        toml::value<std::string> as_string(value);
        toml::node& new_value = node_value ? *node_value : static_cast<toml::node&>(as_string);

        // Walk to the parent, creating tables where the case has none.
        toml::table* table = &root;
        std::string path;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            const KeyPart& p = parts[i];
            const bool last = i + 1 == parts.size();
            path += (path.empty() ? "" : ".") + p.name;
            if (p.index) {
                toml::array* arr = table->get_as<toml::array>(p.name);
                if (!arr) bad_override(text, "'" + path + "' is not an array in the case");
                if (*p.index >= arr->size())
                    bad_override(text, "'" + path + "' has " + std::to_string(arr->size()) + " elements, so no [" +
                                           std::to_string(*p.index) + "]");
                path += "[" + std::to_string(*p.index) + "]";
                if (last) {
                    arr->replace(arr->cbegin() + std::ptrdiff_t(*p.index), std::move(new_value));
                    break;
                }
                table = arr->get_as<toml::table>(*p.index);
                if (!table) bad_override(text, "'" + path + "' is not a table");
                continue;
            }
            if (last) {
                table->insert_or_assign(p.name, std::move(new_value));
                break;
            }
            toml::node* next = table->get(p.name);
            if (!next) next = &table->insert_or_assign(p.name, toml::table{}).first->second;
            table = next->as_table();
            if (!table) bad_override(text, "'" + path + "' is " + describe(*next) + ", not a table");
        }
        origin.add_override(path, text);
    }
}

void check_known_keys(const toml::table& root, std::span<const std::string> known, const Origin& origin) {
    // Leaves are the listed keys; tables are their dotted prefixes ("model",
    // "boundary.x_min", "obstacle[]").
    std::set<std::string, std::less<>> leaves(known.begin(), known.end()), tables;
    for (const std::string& k : known)
        for (auto dot = k.find('.'); dot != std::string::npos; dot = k.find('.', dot + 1)) tables.insert(k.substr(0, dot));

    auto children_of = [&](const std::string& parent) {
        std::set<std::string_view> names;
        const std::string prefix = parent.empty() ? "" : parent + ".";
        for (const std::string& k : known) {
            if (k.compare(0, prefix.size(), prefix) != 0) continue;
            std::string_view rest = std::string_view(k).substr(prefix.size());
            rest = rest.substr(0, rest.find('.'));
            if (rest.ends_with("[]")) rest.remove_suffix(2);
            names.insert(rest);
        }
        return std::vector<std::string_view>(names.begin(), names.end());
    };
    // A key in the wrong table (tau at the top level) is found by its last name.
    auto elsewhere = [&](std::string_view name) -> std::string {
        for (const std::string& k : known) {
            const auto dot = k.rfind('.');
            if (dot != std::string::npos && k.find("[]") == std::string::npos && std::string_view(k).substr(dot + 1) == name)
                return k;
        }
        return {};
    };

    auto walk = [&](auto& self, const toml::table& table, const std::string& pattern, const std::string& shown) -> void {
        for (auto&& [k, node] : table) {
            const std::string name(k.str());
            const std::string pat = pattern.empty() ? name : pattern + "." + name;
            const std::string key = shown.empty() ? name : shown + "." + name;
            if (leaves.contains(pat)) continue;  // its type is checked where it is read
            if (tables.contains(pat)) {
                if (auto t = node.as_table()) self(self, *t, pat, key);
                continue;
            }
            if (tables.contains(pat + "[]")) {
                if (auto a = node.as_array(); a && a->is_array_of_tables())
                    for (std::size_t i = 0; i < a->size(); ++i)
                        self(self, *a->template get_as<toml::table>(i), pat + "[]", key + "[" + std::to_string(i) + "]");
                continue;
            }
            std::string message = "unknown key '" + key + "'";
            const std::vector<std::string_view> siblings = children_of(pattern);
            if (std::string near = closest_match(name, siblings); !near.empty())
                message += "; did you mean '" + (shown.empty() ? near : shown + "." + near) + "'?";
            else if (std::string other = elsewhere(name); !other.empty())
                message += "; did you mean '" + other + "'?";
            else if (!siblings.empty()) {
                message += " (known keys here: ";
                for (std::size_t i = 0; i < siblings.size(); ++i) message += (i ? ", " : "") + std::string(siblings[i]);
                message += ")";
            }
            origin.fail(key, &k.source(), message);  // point at the key, not its value
        }
    };
    walk(walk, root, "", "");
}

// --- Section ------------------------------------------------------------------

void Section::fail(std::string_view k, const std::string& message) const {
    origin_->fail(key(k), get(k), "key '" + key(k) + "': " + message);
}

void Section::fail_value(std::string_view k, const std::string& message) const {
    const toml::node* node = get(k);
    origin_->fail(key(k), node, key(k) + " = " + (node ? value_text(*node) : "?") + ": " + message);
}

void Section::fail_missing(std::string_view k, const std::string& message) const {
    origin_->fail(key(k), table_, "missing key '" + key(k) + "'" + (message.empty() ? "" : ": " + message));
}

void Section::fail_type(std::string_view k, std::string_view expected) const {
    fail(k, "expected " + std::string(expected) + ", got " + describe(*get(k)));
}

std::optional<double> Section::number(std::string_view k) const {
    const toml::node* n = get(k);
    if (!n) return std::nullopt;
    if (auto i = n->as_integer()) return double(i->get());
    if (auto f = n->as_floating_point(); f && std::isfinite(f->get())) return f->get();
    fail_type(k, n->is_floating_point() ? "a finite number" : "a number");
}

std::optional<std::int64_t> Section::integer(std::string_view k) const {
    const toml::node* n = get(k);
    if (!n) return std::nullopt;
    if (auto i = n->as_integer()) return i->get();
    // 1e5 is a float in TOML; a whole number written that way is still meant as a count.
    if (auto f = n->as_floating_point()) {
        const double v = f->get();
        if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15) return std::int64_t(v);
    }
    fail_type(k, "an integer");
}

std::optional<bool> Section::boolean(std::string_view k) const {
    const toml::node* n = get(k);
    if (!n) return std::nullopt;
    if (auto b = n->as_boolean()) return b->get();
    fail_type(k, "a boolean (true or false)");
}

std::optional<std::string> Section::string(std::string_view k) const {
    const toml::node* n = get(k);
    if (!n) return std::nullopt;
    if (auto s = n->as_string()) return s->get();
    fail_type(k, "a string");
}

const toml::array* Section::array_of(std::string_view k, std::size_t min_n, std::size_t max_n,
                                     std::string_view expected) const {
    const toml::node* n = get(k);
    if (!n) return nullptr;
    const toml::array* a = n->as_array();
    if (!a || a->size() < min_n || a->size() > max_n) fail_type(k, expected);
    return a;
}

std::optional<std::vector<double>> Section::numbers(std::string_view k, std::size_t min_n, std::size_t max_n) const {
    const std::string expected = count_words(min_n, max_n, "numbers");
    const toml::array* a = array_of(k, min_n, max_n, expected);
    if (!a) return std::nullopt;
    std::vector<double> out;
    for (const toml::node& e : *a) {
        if (auto i = e.as_integer()) out.push_back(double(i->get()));
        else if (auto f = e.as_floating_point(); f && std::isfinite(f->get())) out.push_back(f->get());
        else fail_type(k, expected);
    }
    return out;
}

std::optional<std::vector<std::vector<double>>> Section::number_lists(std::string_view k, std::size_t min_n,
                                                                       std::size_t max_n) const {
    const std::string expected =
        "an array of points, each " + count_words(min_n, max_n, "numbers") + ", e.g. [[1, 2, 3], [4, 5, 6]]";
    const toml::array* a = array_of(k, 1, std::size_t(-1), expected);
    if (!a) return std::nullopt;
    std::vector<std::vector<double>> out;
    for (const toml::node& e : *a) {
        const toml::array* inner = e.as_array();
        if (!inner || inner->size() < min_n || inner->size() > max_n) fail_type(k, expected);
        auto& row = out.emplace_back();
        for (const toml::node& x : *inner) {
            if (auto i = x.as_integer()) row.push_back(double(i->get()));
            else if (auto f = x.as_floating_point(); f && std::isfinite(f->get())) row.push_back(f->get());
            else fail_type(k, expected);
        }
    }
    return out;
}

std::optional<Section::NumberOrText> Section::number_or_text(std::string_view k) const {
    const toml::node* n = get(k);
    if (!n) return std::nullopt;
    if (auto t = n->as_string()) return NumberOrText{t->get()};
    if (auto i = n->as_integer()) return NumberOrText{double(i->get())};
    if (auto f = n->as_floating_point(); f && std::isfinite(f->get())) return NumberOrText{f->get()};
    fail_type(k, "a finite number or an expression in quotes");
}

std::optional<std::vector<Section::NumberOrText>> Section::numbers_or_texts(std::string_view k, std::size_t min_n,
                                                                           std::size_t max_n) const {
    const std::string expected = count_words(min_n, max_n, "numbers or expressions in quotes");
    const toml::array* a = array_of(k, min_n, max_n, expected);
    if (!a) return std::nullopt;
    std::vector<NumberOrText> out;
    for (const toml::node& e : *a) {
        if (auto t = e.as_string()) out.emplace_back(t->get());
        else if (auto i = e.as_integer()) out.emplace_back(double(i->get()));
        else if (auto f = e.as_floating_point(); f && std::isfinite(f->get())) out.emplace_back(f->get());
        else fail_type(k, expected);
    }
    return out;
}

std::optional<std::vector<std::int64_t>> Section::integers(std::string_view k, std::size_t min_n,
                                                           std::size_t max_n) const {
    const std::string expected = count_words(min_n, max_n, "integers");
    const toml::array* a = array_of(k, min_n, max_n, expected);
    if (!a) return std::nullopt;
    std::vector<std::int64_t> out;
    for (const toml::node& e : *a) {
        if (auto i = e.as_integer()) out.push_back(i->get());
        else fail_type(k, expected);
    }
    return out;
}

std::optional<std::vector<bool>> Section::booleans(std::string_view k, std::size_t min_n, std::size_t max_n) const {
    const std::string expected = count_words(min_n, max_n, "booleans");
    const toml::array* a = array_of(k, min_n, max_n, expected);
    if (!a) return std::nullopt;
    std::vector<bool> out;
    for (const toml::node& e : *a) {
        if (auto b = e.as_boolean()) out.push_back(b->get());
        else fail_type(k, expected);
    }
    return out;
}

std::optional<std::vector<std::string>> Section::strings(std::string_view k) const {
    const toml::array* a = array_of(k, 0, std::size_t(-1), "an array of strings");
    if (!a) return std::nullopt;
    std::vector<std::string> out;
    for (const toml::node& e : *a) {
        if (auto s = e.as_string()) out.push_back(s->get());
        else fail_type(k, "an array of strings");
    }
    return out;
}

std::optional<std::size_t> Section::choice(std::string_view k, std::span<const std::string_view> allowed) const {
    std::string list;
    for (std::size_t i = 0; i < allowed.size(); ++i) list += (i ? ", " : "") + quoted(allowed[i]);
    const toml::node* n = get(k);
    if (!n) return std::nullopt;
    if (!n->is_string()) fail_type(k, "a string (one of " + list + ")");
    const std::string v = lower(n->as_string()->get());
    for (std::size_t i = 0; i < allowed.size(); ++i)
        if (v == lower(allowed[i])) return i;
    std::string message = "expected one of " + list;
    if (std::string near = closest_match(v, allowed); !near.empty()) message += "; did you mean " + quoted(near) + "?";
    fail_value(k, message);
}

Section Section::table(std::string_view k) const {
    const toml::node* n = get(k);
    if (n && !n->is_table()) fail_type(k, "a table");
    return Section(*origin_, n ? n->as_table() : nullptr, key(k));
}

std::vector<Section> Section::table_array(std::string_view k) const {
    const toml::node* n = get(k);
    if (!n) return {};
    const toml::array* a = n->as_array();
    if (!a || (!a->empty() && !a->is_array_of_tables()))
        fail_type(k, "an array of tables (write each as [[" + key(k) + "]])");
    std::vector<Section> out;
    for (std::size_t i = 0; i < a->size(); ++i)
        out.emplace_back(*origin_, a->get_as<toml::table>(i), key(k) + "[" + std::to_string(i) + "]");
    return out;
}

}  // namespace barracuda::io::detail
