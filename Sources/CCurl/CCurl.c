// GET requests through libcurl's multi interface (one transfer per multi handle, which keeps
// the connection for the next request), with an idle timeout measured here to the millisecond.
// libcurl is opened on first use; its API is declared here, by its stable ABI, because its
// development headers are not installed.
#include "CCurl.h"

#include "CLibraryLoader.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void CURL;
typedef void CURLM;
struct curl_slist;
typedef struct CURLMsg {
    int msg;
    CURL *easy_handle;
    union {
        void *whatever;
        int result;
    } data;
} CURLMsg;

enum {
    CURLOPT_WRITEDATA = 10001,
    CURLOPT_URL = 10002,
    CURLOPT_ERRORBUFFER = 10010,
    CURLOPT_WRITEFUNCTION = 20011,
    CURLOPT_HTTPHEADER = 10023,
    CURLOPT_HEADERDATA = 10029,
    CURLOPT_FOLLOWLOCATION = 52,
    CURLOPT_MAXREDIRS = 68,
    CURLOPT_NOSIGNAL = 99,
    CURLOPT_HEADERFUNCTION = 20079,
    CURLOPT_ACCEPT_ENCODING = 10102,
    CURLOPT_PROTOCOLS_STR = 10318,
    CURLOPT_REDIR_PROTOCOLS_STR = 10319,
    CURLINFO_RESPONSE_CODE = 0x200002,
    CURLMSG_DONE = 1,
    CURL_GLOBAL_ALL = 3,
};

enum {
    CURLE_OK = 0,
    CURLE_COULDNT_RESOLVE_PROXY = 5,
    CURLE_COULDNT_RESOLVE_HOST = 6,
    CURLE_COULDNT_CONNECT = 7,
    CURLE_PARTIAL_FILE = 18,
    CURLE_OPERATION_TIMEDOUT = 28,
    CURLE_GOT_NOTHING = 52,
    CURLE_SEND_ERROR = 55,
    CURLE_RECV_ERROR = 56,
    CURLE_HTTP2_STREAM = 92,
};

static mw_library mw_curl_library = {"libcurl", {"libcurl-gnutls.so.4", "libcurl.so.4", "libcurl.so"}, PTHREAD_ONCE_INIT, NULL};

static struct {
    int (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    int (*easy_setopt)(CURL *, int, ...);
    int (*easy_getinfo)(CURL *, int, ...);
    const char *(*easy_strerror)(int);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    int (*multi_cleanup)(CURLM *);
    int (*multi_add_handle)(CURLM *, CURL *);
    int (*multi_remove_handle)(CURLM *, CURL *);
    int (*multi_perform)(CURLM *, int *);
    int (*multi_poll)(CURLM *, void *, unsigned, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
} curl;

static pthread_once_t mw_curl_once = PTHREAD_ONCE_INIT;

static void mw_curl_load(void) {
#define MW_CURL_SYMBOL(field, name) curl.field = mw_library_symbol(&mw_curl_library, name)
    MW_CURL_SYMBOL(global_init, "curl_global_init");
    MW_CURL_SYMBOL(easy_init, "curl_easy_init");
    MW_CURL_SYMBOL(easy_cleanup, "curl_easy_cleanup");
    MW_CURL_SYMBOL(easy_reset, "curl_easy_reset");
    MW_CURL_SYMBOL(easy_setopt, "curl_easy_setopt");
    MW_CURL_SYMBOL(easy_getinfo, "curl_easy_getinfo");
    MW_CURL_SYMBOL(easy_strerror, "curl_easy_strerror");
    MW_CURL_SYMBOL(slist_append, "curl_slist_append");
    MW_CURL_SYMBOL(slist_free_all, "curl_slist_free_all");
    MW_CURL_SYMBOL(multi_init, "curl_multi_init");
    MW_CURL_SYMBOL(multi_cleanup, "curl_multi_cleanup");
    MW_CURL_SYMBOL(multi_add_handle, "curl_multi_add_handle");
    MW_CURL_SYMBOL(multi_remove_handle, "curl_multi_remove_handle");
    MW_CURL_SYMBOL(multi_perform, "curl_multi_perform");
    MW_CURL_SYMBOL(multi_poll, "curl_multi_poll");
    MW_CURL_SYMBOL(multi_info_read, "curl_multi_info_read");
#undef MW_CURL_SYMBOL
    curl.global_init(CURL_GLOBAL_ALL);
}

struct mw_http_connection {
    CURLM *multi;
    CURL *easy;
};

mw_http_connection *mw_http_connection_new(void) {
    pthread_once(&mw_curl_once, mw_curl_load);
    mw_http_connection *connection = calloc(1, sizeof *connection);
    if (connection == NULL) return NULL;
    connection->multi = curl.multi_init();
    connection->easy = curl.easy_init();
    if (connection->multi == NULL || connection->easy == NULL) {
        mw_http_connection_free(connection);
        return NULL;
    }
    return connection;
}

void mw_http_connection_free(mw_http_connection *connection) {
    if (connection == NULL) return;
    if (connection->easy != NULL) curl.easy_cleanup(connection->easy);
    if (connection->multi != NULL) curl.multi_cleanup(connection->multi);
    free(connection);
}

/// A growing byte buffer, and when bytes last arrived.
typedef struct mw_buffer {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
    int failed;
} mw_buffer;

typedef struct mw_transfer {
    mw_buffer body;
    mw_buffer headers;
    struct timespec last_activity;
} mw_transfer;

static double mw_seconds_since(const struct timespec *then) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - then->tv_sec) + (double)(now.tv_nsec - then->tv_nsec) / 1e9;
}

static int mw_buffer_append(mw_buffer *buffer, const void *bytes, size_t count) {
    if (buffer->count + count + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity < 16384 ? 16384 : buffer->capacity;
        while (capacity < buffer->count + count + 1) capacity *= 2;
        uint8_t *grown = realloc(buffer->bytes, capacity);
        if (grown == NULL) {
            buffer->failed = 1;
            return 0;
        }
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->count, bytes, count);
    buffer->count += count;
    buffer->bytes[buffer->count] = 0;
    return 1;
}

static size_t mw_write_body(char *bytes, size_t size, size_t count, void *context) {
    mw_transfer *transfer = context;
    clock_gettime(CLOCK_MONOTONIC, &transfer->last_activity);
    return mw_buffer_append(&transfer->body, bytes, size * count) ? size * count : 0;
}

static size_t mw_write_header(char *bytes, size_t size, size_t count, void *context) {
    mw_transfer *transfer = context;
    clock_gettime(CLOCK_MONOTONIC, &transfer->last_activity);
    // A status line starts a new response (a redirect's, or after 100 Continue): keep the last.
    if (size * count >= 5 && memcmp(bytes, "HTTP/", 5) == 0) transfer->headers.count = 0;
    return mw_buffer_append(&transfer->headers, bytes, size * count) ? size * count : 0;
}

static mw_http_outcome mw_outcome(int code) {
    switch (code) {
    case CURLE_OK: return MW_HTTP_ANSWERED;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY: return MW_HTTP_HOST_NOT_FOUND;
    case CURLE_COULDNT_CONNECT: return MW_HTTP_CONNECTION_REFUSED;
    case CURLE_OPERATION_TIMEDOUT: return MW_HTTP_TIMED_OUT;
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_HTTP2_STREAM: return MW_HTTP_CONNECTION_LOST;
    default: return MW_HTTP_FAILED;
    }
}

void mw_http_get(
    mw_http_connection *connection, const char *url, const char *const *header_lines, size_t header_count,
    double idle_timeout_seconds, mw_http_answer *answer) {
    memset(answer, 0, sizeof *answer);
    CURL *easy = connection->easy;
    CURLM *multi = connection->multi;
    mw_transfer transfer = {0};
    clock_gettime(CLOCK_MONOTONIC, &transfer.last_activity);
    struct curl_slist *headers = NULL;
    for (size_t index = 0; index < header_count; index++) headers = curl.slist_append(headers, header_lines[index]);
    char error[256] = {0};
    // Reset keeps the connection, DNS and TLS session caches (they belong to the multi handle).
    curl.easy_reset(easy);
    curl.easy_setopt(easy, CURLOPT_URL, url);
    curl.easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl.easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(easy, CURLOPT_MAXREDIRS, 10L);
    curl.easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl.easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl.easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    curl.easy_setopt(easy, CURLOPT_ERRORBUFFER, error);
    curl.easy_setopt(easy, CURLOPT_WRITEFUNCTION, mw_write_body);
    curl.easy_setopt(easy, CURLOPT_WRITEDATA, &transfer);
    curl.easy_setopt(easy, CURLOPT_HEADERFUNCTION, mw_write_header);
    curl.easy_setopt(easy, CURLOPT_HEADERDATA, &transfer);
    curl.multi_add_handle(multi, easy);
    int code = -1;
    int running = 1;
    while (running) {
        if (curl.multi_perform(multi, &running) != 0) break;
        if (!running) break;
        if (mw_seconds_since(&transfer.last_activity) >= idle_timeout_seconds) {
            code = CURLE_OPERATION_TIMEDOUT;
            break;
        }
        curl.multi_poll(multi, NULL, 0, 20, NULL);
    }
    int left = 0;
    CURLMsg *message;
    while (code == -1 && (message = curl.multi_info_read(multi, &left)) != NULL) {
        if (message->msg == CURLMSG_DONE && message->easy_handle == easy) code = message->data.result;
    }
    if (code == -1) code = CURLE_RECV_ERROR;
    curl.multi_remove_handle(multi, easy);
    curl.easy_setopt(easy, CURLOPT_HTTPHEADER, NULL);
    curl.easy_setopt(easy, CURLOPT_ERRORBUFFER, NULL);
    curl.slist_free_all(headers);

    if (transfer.body.failed || transfer.headers.failed) {
        free(transfer.body.bytes);
        free(transfer.headers.bytes);
        answer->outcome = MW_HTTP_FAILED;
        strncpy(answer->reason, "out of memory for the answer", sizeof answer->reason - 1);
        return;
    }
    answer->outcome = mw_outcome(code);
    if (code == CURLE_OPERATION_TIMEDOUT) {
        strncpy(answer->reason, "no answer in time", sizeof answer->reason - 1);
    } else if (code != CURLE_OK) {
        strncpy(answer->reason, error[0] != 0 ? error : curl.easy_strerror(code), sizeof answer->reason - 1);
    }
    if (code == CURLE_OK) {
        long status = 0;
        curl.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
        answer->status = status;
        answer->body = transfer.body.bytes;
        answer->body_count = transfer.body.count;
        answer->headers = (char *)transfer.headers.bytes;
        answer->headers_count = transfer.headers.count;
    } else {
        free(transfer.body.bytes);
        free(transfer.headers.bytes);
    }
}

void mw_http_answer_free(mw_http_answer *answer) {
    free(answer->body);
    free(answer->headers);
    answer->body = NULL;
    answer->headers = NULL;
}
