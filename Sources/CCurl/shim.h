#ifndef VITRINE_CCURL_SHIM_H
#define VITRINE_CCURL_SHIM_H

// libcurl, loaded at run time (dlopen) by the first transfer of a run, and only then: linking it would load it and
// the 27 shared libraries it needs (GnuTLS, Kerberos, LDAP, SSH, RTMP...) at every start of the binary, about 10 ms
// each time on this machine, a sixth of a rebuild that has nothing to fetch (BENCHMARKS.md, "Figures behind the
// code").
// Its header still gives the types and constants; the functions are called through the pointers looked up below.

#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

/// The functions of libcurl that the transfer engine calls, looked up in the loaded library.
typedef struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd *extra, unsigned count, int milliseconds, int *events);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *remaining);
    const char *(*multi_strerror)(CURLMcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
} VitrineCurl;

/// Looks every function up in `library` (a handle from dlopen); 0 when one is missing, else 1.
static inline int vitrine_curl_bind(void *library, VitrineCurl *api) {
#define VITRINE_CURL_BIND(field, symbol)                                                                              \
    *(void **)(&api->field) = dlsym(library, symbol);                                                                 \
    if (api->field == NULL) return 0;
    VITRINE_CURL_BIND(global_init, "curl_global_init")
    VITRINE_CURL_BIND(easy_init, "curl_easy_init")
    VITRINE_CURL_BIND(easy_cleanup, "curl_easy_cleanup")
    VITRINE_CURL_BIND(easy_setopt, "curl_easy_setopt")
    VITRINE_CURL_BIND(easy_getinfo, "curl_easy_getinfo")
    VITRINE_CURL_BIND(easy_strerror, "curl_easy_strerror")
    VITRINE_CURL_BIND(multi_init, "curl_multi_init")
    VITRINE_CURL_BIND(multi_cleanup, "curl_multi_cleanup")
    VITRINE_CURL_BIND(multi_setopt, "curl_multi_setopt")
    VITRINE_CURL_BIND(multi_add_handle, "curl_multi_add_handle")
    VITRINE_CURL_BIND(multi_remove_handle, "curl_multi_remove_handle")
    VITRINE_CURL_BIND(multi_perform, "curl_multi_perform")
    VITRINE_CURL_BIND(multi_poll, "curl_multi_poll")
    VITRINE_CURL_BIND(multi_wakeup, "curl_multi_wakeup")
    VITRINE_CURL_BIND(multi_info_read, "curl_multi_info_read")
    VITRINE_CURL_BIND(multi_strerror, "curl_multi_strerror")
    VITRINE_CURL_BIND(slist_append, "curl_slist_append")
    VITRINE_CURL_BIND(slist_free_all, "curl_slist_free_all")
#undef VITRINE_CURL_BIND
    return 1;
}

/// dlopen's flags for the library: its symbols resolved at once and kept to itself.
static inline int vitrine_curl_open_flags(void) { return RTLD_NOW | RTLD_LOCAL; }

/* libcurl's setopt/getinfo are variadic and do not import into Swift: one typed wrapper per argument type. */

static inline CURLcode vitrine_curl_easy_setopt_long(const VitrineCurl *api, CURL *handle, CURLoption option,
                                                     long value) {
    return api->easy_setopt(handle, option, value);
}

static inline CURLcode vitrine_curl_easy_setopt_offset(const VitrineCurl *api, CURL *handle, CURLoption option,
                                                       curl_off_t value) {
    return api->easy_setopt(handle, option, value);
}

static inline CURLcode vitrine_curl_easy_setopt_string(const VitrineCurl *api, CURL *handle, CURLoption option,
                                                       const char *value) {
    return api->easy_setopt(handle, option, value);
}

static inline CURLcode vitrine_curl_easy_setopt_pointer(const VitrineCurl *api, CURL *handle, CURLoption option,
                                                        void *value) {
    return api->easy_setopt(handle, option, value);
}

static inline CURLcode vitrine_curl_easy_setopt_slist(const VitrineCurl *api, CURL *handle, CURLoption option,
                                                      struct curl_slist *value) {
    return api->easy_setopt(handle, option, value);
}

typedef size_t (*vitrine_curl_data_callback)(char *data, size_t size, size_t count, void *userdata);

static inline CURLcode vitrine_curl_easy_setopt_data_callback(const VitrineCurl *api, CURL *handle,
                                                              CURLoption option,
                                                              vitrine_curl_data_callback callback) {
    return api->easy_setopt(handle, option, callback);
}

static inline CURLcode vitrine_curl_easy_getinfo_long(const VitrineCurl *api, CURL *handle, CURLINFO info,
                                                      long *value) {
    return api->easy_getinfo(handle, info, value);
}

static inline CURLcode vitrine_curl_easy_getinfo_string(const VitrineCurl *api, CURL *handle, CURLINFO info,
                                                        char **value) {
    return api->easy_getinfo(handle, info, value);
}

static inline CURLMcode vitrine_curl_multi_setopt_long(const VitrineCurl *api, CURLM *multi, CURLMoption option,
                                                       long value) {
    return api->multi_setopt(multi, option, value);
}

/* CURLMsg's payload is a union; read it here. */
static inline CURL *vitrine_curl_msg_easy_handle(const CURLMsg *message) { return message->easy_handle; }
static inline int vitrine_curl_msg_is_done(const CURLMsg *message) { return message->msg == CURLMSG_DONE; }
static inline CURLcode vitrine_curl_msg_result(const CURLMsg *message) { return message->data.result; }

/* glibc's malloc arenas: the transfer thread and the cooperative pool each get one by default (mallopt is in
   <malloc.h>, which no Swift module map of Glibc covers). */
#include <malloc.h>
static inline int vitrine_limit_malloc_arenas(int count) { return mallopt(M_ARENA_MAX, count); }
/* Gives the whole free pages of every arena back to the system; 1 if it gave any. */
static inline int vitrine_trim_malloc_arenas(void) { return malloc_trim(0); }

#endif
