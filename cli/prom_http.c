/* prom_http.c - HTTP GET through libcurl: the one file that opens sockets.
 * A body is kept in memory up to a cap (past it, the transfer stops and
 * the caller asks for less); failures before a response become one line
 * each (cannot connect, TLS, timeout), without curl's timings so that the
 * same failure reads the same every time.
 *
 * libcurl is loaded here, when a command first reads Prometheus, rather
 * than linked: it brings 29 libraries (TLS, Kerberos, LDAP, ...) whose
 * loading took about half of every start (4.2 of the 9.1 ms of
 * `gpushare --version`), for the few commands that read a URL. */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "prom.h"

/* libcurl's ABI has kept this name since 2006 (7.16). */
#define CURL_LIBRARY "libcurl.so.4"

/* The libcurl functions used, called through these. */
static struct {
	CURLcode (*global_init)(long);
	void (*global_cleanup)(void);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	const char *(*easy_strerror)(CURLcode);
	void (*easy_cleanup)(CURL *);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
} cl;

/* A symbol's address into a function pointer: ISO C has no cast between
 * the two, POSIX guarantees they have the same representation. */
static int sym(void *lib, const char *name, void *fn, size_t size)
{
	void *p = dlsym(lib, name);
	if (!p)
		return -1;
	memcpy(fn, &p, size);
	return 0;
}

#define SYM(lib, f, name) sym(lib, name, &cl.f, sizeof cl.f)

/* Loads libcurl once; the library stays loaded until the process ends. */
static int load_curl(const char *name, gs_error *err)
{
	void *lib;
	if (cl.slist_free_all)
		return 0;
	if (!(lib = dlopen(CURL_LIBRARY, RTLD_NOW | RTLD_LOCAL)))
		return cli_prom_error(err, GS_EIO, name, "cannot load libcurl: %s "
		                      "(apt-get install libcurl4)", dlerror());
	if (SYM(lib, global_init, "curl_global_init") < 0 ||
	    SYM(lib, global_cleanup, "curl_global_cleanup") < 0 ||
	    SYM(lib, easy_init, "curl_easy_init") < 0 ||
	    SYM(lib, easy_setopt, "curl_easy_setopt") < 0 ||
	    SYM(lib, easy_perform, "curl_easy_perform") < 0 ||
	    SYM(lib, easy_getinfo, "curl_easy_getinfo") < 0 ||
	    SYM(lib, easy_strerror, "curl_easy_strerror") < 0 ||
	    SYM(lib, easy_cleanup, "curl_easy_cleanup") < 0 ||
	    SYM(lib, slist_append, "curl_slist_append") < 0 ||
	    SYM(lib, slist_free_all, "curl_slist_free_all") < 0) {
		cli_prom_error(err, GS_EIO, name, "cannot load libcurl: %s", dlerror());
		memset(&cl, 0, sizeof cl);
		dlclose(lib);
		return GS_EIO;
	}
	return 0;
}

struct cli_http {
	CURL *curl;
	struct curl_slist *headers;
	char name[GS_ERROR_FILE_MAX];
	int timeout;
	char errbuf[CURL_ERROR_SIZE];
	char *body;
	size_t len, cap, limit;
	int too_big;
};

int cli_prom_error(gs_error *err, int code, const char *name, const char *fmt, ...)
{
	va_list ap;
	memset(err, 0, sizeof *err);
	err->code = code;
	snprintf(err->file, sizeof err->file, "%s", name);
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return code;
}

static size_t on_body(char *data, size_t size, size_t n, void *ud)
{
	cli_http *h = ud;
	size_t add = size * n;
	if (add > h->limit - h->len) {
		h->too_big = 1;
		return 0; /* stops the transfer */
	}
	if (h->len + add + 1 > h->cap) {
		size_t cap = h->cap ? h->cap : 65536;
		char *b;
		while (cap < h->len + add + 1)
			cap *= 2;
		if (!(b = realloc(h->body, cap)))
			return 0;
		h->body = b;
		h->cap = cap;
	}
	memcpy(h->body + h->len, data, add);
	h->len += add;
	h->body[h->len] = '\0';
	return add;
}

int cli_http_open(cli_http **out, const char *name, int timeout, gs_error *err)
{
	const char *token = getenv("PROMETHEUS_TOKEN");
	char auth[4096];
	cli_http *h;

	*out = NULL;
	if (token && strpbrk(token, "\r\n"))
		return cli_prom_error(err, GS_EINVAL, name, "PROMETHEUS_TOKEN holds a line break");
	if (token && *token && snprintf(auth, sizeof auth, "Authorization: Bearer %s", token) >=
	                           (int)sizeof auth)
		return cli_prom_error(err, GS_EINVAL, name, "PROMETHEUS_TOKEN is too long");
	if (load_curl(name, err) < 0)
		return err->code;
	if (cl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return cli_prom_error(err, GS_EIO, name, "cannot start libcurl");
	if (!(h = calloc(1, sizeof *h)) || !(h->curl = cl.easy_init())) {
		free(h);
		cl.global_cleanup();
		return cli_prom_error(err, GS_ENOMEM, name, "out of memory");
	}
	snprintf(h->name, sizeof h->name, "%s", name);
	h->timeout = timeout;
	h->headers = cl.slist_append(NULL, "Accept: application/json");
	if (h->headers && token && *token) {
		/* curl returns NULL and leaves the list as it was. */
		struct curl_slist *more = cl.slist_append(h->headers, auth);
		if (!more)
			cl.slist_free_all(h->headers);
		h->headers = more;
	}
	memset(auth, 0, sizeof auth);
	if (!h->headers) {
		cli_http_close(h);
		return cli_prom_error(err, GS_ENOMEM, name, "out of memory");
	}
	cl.easy_setopt(h->curl, CURLOPT_NOSIGNAL, 1L);
	cl.easy_setopt(h->curl, CURLOPT_TIMEOUT, (long)timeout);
	cl.easy_setopt(h->curl, CURLOPT_FOLLOWLOCATION, 1L);
	cl.easy_setopt(h->curl, CURLOPT_MAXREDIRS, 5L);
#if LIBCURL_VERSION_NUM >= 0x075500 /* 7.85 names protocols, and deprecates the mask */
	cl.easy_setopt(h->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	cl.easy_setopt(h->curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
	cl.easy_setopt(h->curl, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
	cl.easy_setopt(h->curl, CURLOPT_REDIR_PROTOCOLS,
	                 (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	cl.easy_setopt(h->curl, CURLOPT_ACCEPT_ENCODING, ""); /* gzip: a tenth */
	cl.easy_setopt(h->curl, CURLOPT_USERAGENT, "gpushare/" GS_VERSION);
	cl.easy_setopt(h->curl, CURLOPT_HTTPHEADER, h->headers);
	cl.easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, on_body);
	cl.easy_setopt(h->curl, CURLOPT_WRITEDATA, h);
	cl.easy_setopt(h->curl, CURLOPT_ERRORBUFFER, h->errbuf);
	*out = h;
	return 0;
}

/* curl's message without the " after N ms" that makes it vary. */
static const char *tidy(cli_http *h, CURLcode rc)
{
	char *a = strstr(h->errbuf, " after ");
	if (!h->errbuf[0])
		return cl.easy_strerror(rc);
	if (a && a[7] >= '0' && a[7] <= '9') {
		char *e = a + 7;
		while (*e >= '0' && *e <= '9')
			e++;
		if (strncmp(e, " ms", 3) == 0)
			memmove(a, e + 3, strlen(e + 3) + 1);
	}
	return h->errbuf;
}

static int is_tls(CURLcode rc)
{
	return rc == CURLE_SSL_CONNECT_ERROR || rc == CURLE_PEER_FAILED_VERIFICATION ||
	       rc == CURLE_SSL_CERTPROBLEM || rc == CURLE_SSL_CIPHER ||
	       rc == CURLE_SSL_CACERT_BADFILE || rc == CURLE_SSL_ISSUER_ERROR ||
	       rc == CURLE_SSL_PINNEDPUBKEYNOTMATCH || rc == CURLE_SSL_INVALIDCERTSTATUS ||
	       rc == CURLE_SSL_CRL_BADFILE || rc == CURLE_SSL_ENGINE_INITFAILED;
}

/* Why no response came, as one line. */
static int no_response(cli_http *h, CURLcode rc, gs_error *err)
{
	char detail[CURL_ERROR_SIZE + 64];
	long os = 0;
	cl.easy_getinfo(h->curl, CURLINFO_OS_ERRNO, &os);
	if (rc == CURLE_COULDNT_CONNECT && os)
		snprintf(detail, sizeof detail, "cannot connect: %s", strerror((int)os));
	else if (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST ||
	         rc == CURLE_COULDNT_RESOLVE_PROXY)
		snprintf(detail, sizeof detail, "cannot connect: %s", tidy(h, rc));
	else if (is_tls(rc))
		snprintf(detail, sizeof detail, "cannot connect: TLS: %s", tidy(h, rc));
	else if (rc == CURLE_OPERATION_TIMEDOUT)
		snprintf(detail, sizeof detail, "no complete response within %d second%s "
		         "(--timeout)", h->timeout, h->timeout == 1 ? "" : "s");
	else if (rc == CURLE_GOT_NOTHING)
		snprintf(detail, sizeof detail, "the server closed the connection without "
		         "a response");
	else if (rc == CURLE_WRITE_ERROR)
		snprintf(detail, sizeof detail, "out of memory for the response");
	else
		snprintf(detail, sizeof detail, "%s", tidy(h, rc));
	return cli_prom_error(err, GS_EIO, h->name, "%s", detail);
}

int cli_http_get(cli_http *h, const char *url, size_t cap, cli_http_reply *r, gs_error *err)
{
	const char *type = NULL;
	CURLcode rc;

	memset(r, 0, sizeof *r);
	h->len = 0;
	h->too_big = 0;
	h->limit = cap;
	h->errbuf[0] = '\0';
	cl.easy_setopt(h->curl, CURLOPT_URL, url);
	rc = cl.easy_perform(h->curl);
	cl.easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &r->status);
	if (rc == CURLE_WRITE_ERROR && h->too_big) {
		r->too_big = 1;
		return 0;
	}
	if (rc != CURLE_OK)
		return no_response(h, rc, err);
	if (cl.easy_getinfo(h->curl, CURLINFO_CONTENT_TYPE, &type) == CURLE_OK && type)
		snprintf(r->content_type, sizeof r->content_type, "%s", type);
	r->body = h->body ? h->body : "";
	r->len = h->len;
	return 0;
}

char *cli_http_escape(const char *s, char *buf, size_t size)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		int plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		            (c >= '0' && c <= '9') || strchr("-._~", c);
		if (o + (plain ? 1 : 3) >= size)
			return NULL;
		if (plain) {
			buf[o++] = (char)c;
		} else {
			buf[o++] = '%';
			buf[o++] = hex[c >> 4];
			buf[o++] = hex[c & 15];
		}
	}
	if (!size)
		return NULL;
	buf[o] = '\0';
	return buf;
}

void cli_http_close(cli_http *h)
{
	if (!h)
		return;
	cl.slist_free_all(h->headers);
	if (h->curl)
		cl.easy_cleanup(h->curl);
	free(h->body);
	free(h);
	cl.global_cleanup();
}
