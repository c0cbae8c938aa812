// The live view's HTTP server (barracuda run --serve; docs/cli.md#live-view): the page,
// embedded in the binary, and a small API over a Session. cpp-httplib (Debian's
// libcpp-httplib-dev): a thread pool, chunked responses for the event stream, limits on
// request sizes; no WebSocket is needed, since the page receives by server-sent events
// and sends its few requests as form posts.
//
// Security: bound to 127.0.0.1 by default; another address only with `public_bind`.
// A random token (printed in the URL) is asked of every API request, control and view,
// unless `open_view` lets anyone who can reach the port watch (never steer). Only the
// embedded files are served; every request is checked and refused with a message, and
// no request can stop the run.
#pragma once
#include <memory>
#include <string>

#include "live/session.hpp"

namespace barracuda::live {

struct ServeOptions {
    std::string host = "127.0.0.1";
    int port = 0;              // 0: a free port
    bool public_bind = false;  // --serve-public: an address other than loopback is allowed
    bool open_view = false;    // --serve-open-view: watching needs no token
    std::string token;         // empty: a random one
};

/// "[host:]port", "host:" or "" (defaults for what is left out) into `options`; throws
/// CaseError naming the text and what is allowed, or a non-loopback host without public_bind.
void parse_serve_address(const std::string& text, ServeOptions& options);
bool is_loopback(const std::string& host);

/// A file of the page, embedded at build time (live/web/; null when there is none by that
/// path: only these are ever served).
struct EmbeddedFile {
    const char* path;  // "/index.html"
    const char* type;  // MIME type
    const unsigned char* data;
    std::size_t size;
};
const EmbeddedFile* embedded_file(const std::string& path);

class Server {
public:
    /// Binds and starts serving on its own threads; throws ResourceError when the address
    /// cannot be bound.
    Server(Session& session, ServeOptions options);
    ~Server();  // stops serving and waits for its threads
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;
    int port() const;
    const std::string& token() const;
    /// The page's address with the token, as printed at the start.
    std::string url() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace barracuda::live
