#include "live/server.hpp"

#include <httplib.h>

#include <sys/socket.h>

#include <atomic>
#include <condition_variable>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "common/error.hpp"
#include "live/frame.hpp"
#include "io/json.hpp"

namespace barracuda::live {

using io::json_number;
using io::json_string;

namespace {

std::string random_token() {
    std::random_device device;  // /dev/urandom on Linux
    std::string out;
    const char* hex = "0123456789abcdef";
    for (int k = 0; k < 32; ++k) out += hex[device() & 15u];
    return out;
}

bool same_text(const std::string& a, const std::string& b) {  // in time independent of where they differ
    if (a.size() != b.size()) return false;
    unsigned char d = 0;
    for (std::size_t k = 0; k < a.size(); ++k) d |= static_cast<unsigned char>(a[k] ^ b[k]);
    return d == 0;
}

// A request refused: 400 (or `status`) with the reason as JSON.
void refuse(httplib::Response& res, const std::string& why, int status = 400) {
    res.status = status;
    res.set_content("{\"error\":" + json_string(why) + "}", "application/json");
}

std::optional<std::int64_t> whole(const std::string& text) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return v;
}

std::optional<double> real(const std::string& text) {
    if (text.empty() || text.size() > 64) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

constexpr std::size_t max_body = 4096;   // a control request's form
constexpr int max_streams = 4;           // open event streams at once (each holds a thread)
constexpr std::size_t workers = 16;      // the server's threads

}  // namespace

bool is_loopback(const std::string& host) {
    return host == "127.0.0.1" || host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

void parse_serve_address(const std::string& text, ServeOptions& options) {
    const auto bad = [&](const std::string& why) {
        throw CaseError("--serve " + text + ": " + why + " (allowed: [host:]port, e.g. 8080, 127.0.0.1:8080, 0 for a free port)");
    };
    std::string host = options.host, port = text;
    if (const auto colon = text.rfind(':'); colon != std::string::npos) {
        host = text.substr(0, colon), port = text.substr(colon + 1);
        if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
        if (host.empty()) bad("the host before ':' is empty");
    }
    if (!port.empty()) {
        const auto p = whole(port);
        if (!p || *p < 0 || *p > 65535) bad("port '" + port + "' is not a number from 0 to 65535");
        options.port = int(*p);
    }
    for (char c : host)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == ':')) bad("host '" + host + "' is not an address");
    options.host = host;
    if (!is_loopback(host) && !options.public_bind)
        throw CaseError("--serve " + text + ": '" + host +
                        "' is not this machine's loopback address; serving to a network needs --serve-public "
                        "(every request must then carry the printed token)");
}

struct Server::Impl {
    Session& session;
    ServeOptions options;
    httplib::Server http;
    std::thread thread;
    int port = 0;
    std::atomic<int> streams{0};
    std::atomic<bool> stopping{false};
    // Whether the listening thread has finished (also when it failed to listen).
    std::mutex state_mutex;
    std::condition_variable state_changed;
    bool finished = false;
    std::mutex png_mutex;  // the last frame drawn, for viewers asking for the same
    std::shared_ptr<const Slice> png_frame;  // held, so that its address is not reused
    std::string png_key, png;

    Impl(Session& s, ServeOptions o) : session(s), options(std::move(o)) {}

    bool has_token(const httplib::Request& req) const {
        const std::string given =
            req.has_header("X-Barracuda-Token") ? req.get_header_value("X-Barracuda-Token") : req.get_param_value("token");
        return same_text(given, options.token);
    }
    // Viewing: the token unless open_view; controls: always the token.
    bool may_view(const httplib::Request& req, httplib::Response& res) const {
        if (options.open_view || has_token(req)) return true;
        refuse(res, "this request needs the token printed at the start (?token=... or the X-Barracuda-Token header)", 403);
        return false;
    }

    void routes() {
        http.set_payload_max_length(max_body);
        http.set_read_timeout(5, 0);
        http.set_write_timeout(5, 0);
        http.set_keep_alive_max_count(100);
        http.set_keep_alive_timeout(2);
        // More workers than httplib's 8: idle keep-alive connections and event streams
        // each hold one.
        http.new_task_queue = [] { return new httplib::ThreadPool(workers); };
        // SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, with which a second run
        // on the same port binds too and the kernel shares the viewers between the two.
        http.set_socket_options([](socket_t sock) {
            int yes = 1;
            ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        });
        // Before any body is read (payload_max_length holds only for a Content-Length):
        // no chunked bodies, no body without its length, and bodies only for /api/control.
        http.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
            const auto refused = [&](int status, const std::string& why) {
                refuse(res, why, status);
                res.set_header("Connection", "close");
                return httplib::Server::HandlerResponse::Handled;
            };
            if (req.has_header("Transfer-Encoding"))
                return refused(411, "chunked request bodies are refused: send a Content-Length (at most 4096 bytes)");
            if (req.method == "POST") {
                if (req.path != "/api/control") return refused(405, "POST is only for /api/control");
                if (!req.has_header("Content-Length")) return refused(411, "a POST needs a Content-Length");
            } else if (req.method != "GET" && req.method != "HEAD") {
                return refused(405, "method " + req.method + " is not allowed");
            } else if (req.has_header("Content-Length") && req.get_header_value("Content-Length") != "0") {
                return refused(400, "a GET carries no body");
            }
            return httplib::Server::HandlerResponse::Unhandled;
        });
        http.set_default_headers({{"Cache-Control", "no-store"},
                                  {"X-Content-Type-Options", "nosniff"},
                                  {"Referrer-Policy", "no-referrer"},
                                  {"X-Frame-Options", "DENY"},
                                  {"Content-Security-Policy",
                                   "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'"}});
        http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
            std::string what = "internal error";
            try {
                if (ep) std::rethrow_exception(ep);
            } catch (const std::exception& e) {
                what = e.what();
            } catch (...) {
            }
            refuse(res, what, 500);  // the run goes on
        });
        http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
            if (res.body.empty()) {
                const std::string why = res.status == 404   ? "no such page: " + req.path
                                        : res.status == 413 ? "request too large (at most 4096 bytes)"
                                                            : "refused (HTTP " + std::to_string(res.status) + ")";
                res.set_content("{\"error\":" + json_string(why) + "}", "application/json");
            }
        });
        // The page: only the embedded files, by exact path.
        http.Get(R"(/[A-Za-z0-9_.\-]*)", [](const httplib::Request& req, httplib::Response& res) {
            const auto* f = embedded_file(req.path == "/" ? "/index.html" : req.path);
            if (!f) return refuse(res, "no such page: " + req.path, 404);
            res.set_content(reinterpret_cast<const char*>(f->data), f->size, f->type);
        });
        http.Get("/api/info", [this](const httplib::Request& req, httplib::Response& res) {
            if (!may_view(req, res)) return;
            session.viewer_seen();
            res.set_content(session.info_json(), "application/json");
        });
        http.Get("/api/status", [this](const httplib::Request& req, httplib::Response& res) {
            if (!may_view(req, res)) return;
            session.viewer_seen();
            res.set_content(session.status_json(), "application/json");
        });
        http.Get("/api/series", [this](const httplib::Request& req, httplib::Response& res) {
            if (!may_view(req, res)) return;
            const auto f = req.has_param("forces") ? whole(req.get_param_value("forces")) : std::optional<std::int64_t>(0);
            const auto p = req.has_param("probes") ? whole(req.get_param_value("probes")) : std::optional<std::int64_t>(0);
            if (!f || !p || *f < 0 || *p < 0) return refuse(res, "forces and probes: row numbers from 0");
            res.set_content(session.series_json(std::size_t(*f), std::size_t(*p)), "application/json");
        });
        http.Get("/api/frame.png", [this](const httplib::Request& req, httplib::Response& res) { frame(req, res); });
        http.Get("/api/events", [this](const httplib::Request& req, httplib::Response& res) { events(req, res); });
        http.Post("/api/control", [this](const httplib::Request& req, httplib::Response& res) { control(req, res); });
    }

    void frame(const httplib::Request& req, httplib::Response& res) {
        if (!may_view(req, res)) return;
        session.viewer_seen();
        ColourRange range;
        if (req.has_param("lo") || req.has_param("hi")) {
            const auto lo = real(req.get_param_value("lo")), hi = real(req.get_param_value("hi"));
            if (!lo || !hi || !(*lo < *hi)) return refuse(res, "lo and hi: two finite numbers with lo < hi");
            range.automatic = false, range.lo = *lo, range.hi = *hi;
        }
        const auto slice = session.frame();
        if (!slice) return refuse(res, "no frame yet: the first is taken after the first chunk of steps", 503);
        const auto colours = range_of(*slice, range);
        const std::string key = json_number(colours[0]) + "," + json_number(colours[1]);
        std::string bytes;
        {
            std::lock_guard lock(png_mutex);
            if (png_frame != slice || png_key != key) {
                char title[160];
                std::snprintf(title, sizeof title, "step %lld, %c = %d", static_cast<long long>(slice->step),
                              "xyz"[slice->spec.axis], slice->spec.index);
                png = frame_png(*slice, colours, title);
                png_frame = slice, png_key = key;
            }
            bytes = png;
        }
        res.set_header("X-Frame-Step", std::to_string(slice->step));
        res.set_header("X-Frame-Range", key);
        res.set_content(std::move(bytes), "image/png");
    }

    void events(const httplib::Request& req, httplib::Response& res) {
        if (!may_view(req, res)) return;
        if (streams.fetch_add(1) >= max_streams) {
            streams.fetch_sub(1);
            return refuse(res, "too many open event streams (at most " + std::to_string(max_streams) + ")", 503);
        }
        session.viewer_seen();
        auto seen = std::make_shared<std::uint64_t>(~std::uint64_t(0));
        res.set_chunked_content_provider(
            "text/event-stream",
            [this, seen](std::size_t, httplib::DataSink& sink) {
                try {  // httplib does not catch what a content provider throws
                    // At most ten updates a second; a comment every second keeps it open.
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
                    const auto v = session.wait_for_change(*seen, std::chrono::milliseconds(1000));
                    if (!http.is_running() || stopping) return false;
                    session.viewer_seen();
                    std::string text;
                    if (v != *seen) {
                        *seen = v;
                        text = "data: " + session.status_json() + "\n\n";
                    } else {
                        text = ": keep-alive\n\n";
                    }
                    return sink.write(text.data(), text.size());
                } catch (...) {
                    return false;
                }
            },
            [this](bool) { streams.fetch_sub(1); });
    }

    void control(const httplib::Request& req, httplib::Response& res) {
        if (!has_token(req))
            return refuse(res, "control requests need the token printed at the start (X-Barracuda-Token header)", 403);
        const std::string action = req.get_param_value("action");
        Request r;
        if (action == "pause") r.kind = Request::Pause;
        else if (action == "resume") r.kind = Request::Resume;
        else if (action == "snapshot") r.kind = Request::Snapshot;
        else if (action == "step") {
            r.kind = Request::Step;
            const auto n = req.has_param("steps") ? whole(req.get_param_value("steps")) : std::optional<std::int64_t>(1);
            if (!n) return refuse(res, "steps '" + req.get_param_value("steps") + "': a whole number from 1 to 1000000");
            r.steps = *n;
        } else if (action == "slice") {
            r.kind = Request::Slice;
            const auto axis = whole(req.get_param_value("axis")), index = whole(req.get_param_value("index"));
            const auto field = field_named(req.get_param_value("field"));
            if (!axis || !index) return refuse(res, "axis and index: whole numbers");
            if (!field) return refuse(res, "field '" + req.get_param_value("field") + "': allowed speed, ux, uy, uz, density, temperature, vorticity, node_kind");
            if (*axis < 0 || *axis > 2 || *index < 0 || *index > (1 << 30)) return refuse(res, "axis 0 to 2 and index from 0");
            r.slice = {int(*axis), int(*index), *field};
        } else if (action == "steer") {
            r.kind = Request::Steer;
            r.key = req.get_param_value("key"), r.value = req.get_param_value("value");
        } else {
            return refuse(res, "action '" + action + "': allowed pause, resume, step, slice, snapshot, steer");
        }
        if (const auto why = session.request(r); !why.empty()) return refuse(res, why);
        res.status = 202;
        res.set_content("{\"queued\":" + json_string(action) + "}", "application/json");
    }
};

Server::Server(Session& session, ServeOptions options) : impl_(std::make_unique<Impl>(session, std::move(options))) {
    auto& m = *impl_;
    if (m.options.token.empty()) m.options.token = random_token();
    m.routes();
    m.port = m.options.port == 0 ? m.http.bind_to_any_port(m.options.host)
                                  : (m.http.bind_to_port(m.options.host, m.options.port) ? m.options.port : -1);
    if (m.port < 0)
        throw ResourceError("--serve: cannot listen on " + m.options.host + ":" + std::to_string(m.options.port) +
                            " (in use, or not an address of this machine)");
    m.thread = std::thread([&m] {
        m.http.listen_after_bind();
        std::lock_guard lock(m.state_mutex);
        m.finished = true;
        m.state_changed.notify_all();
    });
    // httplib's stop() does nothing before the listening loop runs: wait for it, so that
    // a run that ends at once can stop the server.
    std::unique_lock lock(m.state_mutex);
    while (!m.finished && !m.http.is_running()) m.state_changed.wait_for(lock, std::chrono::milliseconds(1));
    if (m.finished) {
        lock.unlock();
        m.thread.join();
        throw ResourceError("--serve: the server on " + m.options.host + ":" + std::to_string(m.port) +
                            " stopped as it started");
    }
}

Server::~Server() {
    auto& m = *impl_;
    m.stopping = true;
    m.session.close();
    m.http.stop();
    // Stopping waits for every worker; one held by a client that sends a byte every few
    // seconds would keep the finished run's process alive. Give them two seconds, then
    // leave the server to the process's end (its memory is not freed: the threads may
    // still touch it).
    std::unique_lock lock(m.state_mutex);
    if (m.state_changed.wait_for(lock, std::chrono::seconds(2), [&] { return m.finished; })) {
        lock.unlock();
        m.thread.join();
        return;
    }
    lock.unlock();
    m.thread.detach();
    (void)impl_.release();
}

int Server::port() const { return impl_->port; }
const std::string& Server::token() const { return impl_->options.token; }

std::string Server::url() const {
    const auto& h = impl_->options.host;
    const std::string host = h.find(':') != std::string::npos ? "[" + h + "]" : h == "0.0.0.0" ? "127.0.0.1" : h;
    return "http://" + host + ":" + std::to_string(impl_->port) + "/?token=" + impl_->options.token;
}

}  // namespace barracuda::live
