#ifndef VITRINE_CCURL_SHIM_H
#define VITRINE_CCURL_SHIM_H

#include <curl/curl.h>

/* libcurl's setopt/getinfo are variadic and do not import into Swift: one typed wrapper per argument type. */

static inline CURLcode vitrine_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode vitrine_curl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode vitrine_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode vitrine_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode vitrine_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*vitrine_curl_data_callback)(char *data, size_t size, size_t count, void *userdata);

static inline CURLcode vitrine_curl_easy_setopt_data_callback(CURL *handle, CURLoption option,
                                                              vitrine_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode vitrine_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode vitrine_curl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode vitrine_curl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode vitrine_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode vitrine_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
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
