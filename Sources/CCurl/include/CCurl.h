#ifndef MW_CCURL_H
#define MW_CCURL_H

#include <stddef.h>
#include <stdint.h>

/// HTTP GET requests through libcurl, opened on first use (see CLibraryLoader): linked at
/// start-up, libcurl and its TLS libraries cost every `mapwright` command about 11 ms before
/// `main`, and only remote tilesets, styles and sprites need them.

/// What became of a request that got no answer (`MW_HTTP_ANSWERED` when it got one).
typedef enum mw_http_outcome {
    MW_HTTP_ANSWERED = 0,
    MW_HTTP_HOST_NOT_FOUND = 1,
    MW_HTTP_CONNECTION_REFUSED = 2,
    MW_HTTP_TIMED_OUT = 3,
    MW_HTTP_CONNECTION_LOST = 4,
    MW_HTTP_FAILED = 5,
} mw_http_outcome;

/// A request's answer: the status, the final response's header block and the body (decoded
/// when the server compressed it), or why there is none. Free it with mw_http_answer_free.
typedef struct mw_http_answer {
    mw_http_outcome outcome;
    long status;
    /// The header lines of the last response (after redirects), as sent, CRLF-separated.
    char *headers;
    size_t headers_count;
    uint8_t *body;
    size_t body_count;
    /// libcurl's description of the failure; empty when answered.
    char reason[256];
} mw_http_answer;

/// A connection kept open between requests to the same server: one request at a time.
typedef struct mw_http_connection mw_http_connection;

mw_http_connection *mw_http_connection_new(void);
void mw_http_connection_free(mw_http_connection *connection);

/// GETs `url` on `connection` with the header lines given ("Name: value"), following
/// redirects, over HTTP or HTTPS only. The request fails as timed out when no byte arrives for
/// `idle_timeout_seconds` (connecting, waiting for the answer, or between parts of the body).
void mw_http_get(
    mw_http_connection *connection, const char *url, const char *const *header_lines, size_t header_count,
    double idle_timeout_seconds, mw_http_answer *answer);

void mw_http_answer_free(mw_http_answer *answer);

#endif
