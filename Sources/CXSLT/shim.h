#ifndef VITRINE_CXSLT_SHIM_H
#define VITRINE_CXSLT_SHIM_H

/* ICU clash: libxml2 may pull in ICU headers whose types collide with Foundation's. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlsave.h>
#include <libxml/xmlwriter.h>
#include <libxml/xpath.h>
#include <libxml/relaxng.h>
#include <libxslt/xslt.h>
#include <libxslt/xsltInternals.h>
#include <libxslt/transform.h>
#include <libxslt/xsltutils.h>
#include <libxslt/security.h>
#include <libxslt/documents.h>
#include <libxslt/variables.h>
#include <libexslt/exslt.h>

#if defined(__linux__)
#include <malloc.h>
#elif defined(__APPLE__)
#include <malloc/malloc.h>
#endif

/* The bytes the C library's allocator gave `pointer` (from malloc or realloc), which a free gives back. */
static inline size_t vitrine_usable_size(void *pointer) {
#if defined(__APPLE__)
    return malloc_size(pointer);
#else
    return malloc_usable_size(pointer);
#endif
}

/* xmlFree is a global function pointer variable that Swift 6 refuses to touch. */
static inline void vitrine_xml_free(void *pointer) { xmlFree(pointer); }

/* Messages from libxml2/libxslt error callbacks, collected for one operation. */
typedef struct {
    char text[4096];
    size_t length;
    int count;
} vitrine_error_buffer;

static void vitrine_error_buffer_append_list(vitrine_error_buffer *buffer, const char *format, va_list arguments) {
    if (buffer == NULL) return;
    buffer->count += 1;
    if (buffer->length + 1 >= sizeof buffer->text) return;
    int written = vsnprintf(buffer->text + buffer->length, sizeof buffer->text - buffer->length, format, arguments);
    if (written > 0) {
        size_t room = sizeof buffer->text - buffer->length - 1;
        buffer->length += (size_t)written < room ? (size_t)written : room;
    }
}

static void vitrine_error_buffer_append(void *context, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vitrine_error_buffer_append_list((vitrine_error_buffer *)context, format, arguments);
    va_end(arguments);
}

/* libxslt's generic error handler is one process-wide variable, which libxslt uses where it has no transform context
   at hand (compiling a stylesheet, EXSLT functions, some XPath functions). It is set once, to this handler, with the
   address of a thread-specific key as its context: each message goes to the buffer that the thread raising it made
   current under that key (none: dropped), so threads that compile and transform at once keep their messages apart. */
static void vitrine_thread_error_append(void *key, const char *format, ...) {
    if (key == NULL) return;
    va_list arguments;
    va_start(arguments, format);
    vitrine_error_buffer_append_list((vitrine_error_buffer *)pthread_getspecific(*(pthread_key_t *)key), format,
                                     arguments);
    va_end(arguments);
}

/* Sends libxslt's generic errors to the buffer each thread makes current under `key` (see above); once a process. */
static inline void vitrine_route_xslt_errors_by_thread(pthread_key_t *key) {
    xsltSetGenericErrorFunc(key, vitrine_thread_error_append);
}

static void vitrine_structured_error_append(void *context, xmlErrorPtr error) {
    if (error == NULL) return;
    if (error->line > 0) {
        vitrine_error_buffer_append(context, "line %d: %s", error->line, error->message ? error->message : "error\n");
    } else {
        vitrine_error_buffer_append(context, "%s", error->message ? error->message : "error\n");
    }
}

/* Route this thread's libxml2 errors into buffer (NULL: dropped); libxml2 keeps its handlers per thread. */
static inline void vitrine_collect_xml_errors(vitrine_error_buffer *buffer) {
    xmlSetGenericErrorFunc(buffer, vitrine_error_buffer_append);
    xmlSetStructuredErrorFunc(buffer, vitrine_structured_error_append);
}

static inline void vitrine_collect_transform_errors(xsltTransformContextPtr context, vitrine_error_buffer *buffer) {
    xsltSetTransformErrorFunc(context, buffer, vitrine_error_buffer_append);
}

static inline void vitrine_collect_relaxng_errors(xmlRelaxNGValidCtxtPtr context, vitrine_error_buffer *buffer) {
    xmlRelaxNGSetValidStructuredErrors(context, vitrine_structured_error_append, buffer);
}

static inline void vitrine_collect_relaxng_parser_errors(xmlRelaxNGParserCtxtPtr context, vitrine_error_buffer *buffer) {
    xmlRelaxNGSetParserStructuredErrors(context, vitrine_structured_error_append, buffer);
}

/* Stylesheets may load only what the loader serves; everything else is refused. */
typedef xmlDocPtr (*vitrine_template_loader)(const xmlChar *uri, xmlDictPtr dict, int options, void *context,
                                             xsltLoadType type);

static inline void vitrine_set_template_loader(vitrine_template_loader loader) { xsltSetLoaderFunc(loader); }

#endif
