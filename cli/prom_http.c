/* prom_http.c - HTTP GET through libcurl: the one file that opens sockets.
 * A body is kept in memory up to a cap (past it, the transfer stops and
 * the caller asks for less); failures before a response become one line
 * each (cannot connect, TLS, timeout), without curl's timings so that the
 * same failure reads the same every time. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "prom.h"

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
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return cli_prom_error(err, GS_EIO, name, "cannot start libcurl");
	if (!(h = calloc(1, sizeof *h)) || !(h->curl = curl_easy_init())) {
		free(h);
		curl_global_cleanup();
		return cli_prom_error(err, GS_ENOMEM, name, "out of memory");
	}
	snprintf(h->name, sizeof h->name, "%s", name);
	h->timeout = timeout;
	h->headers = curl_slist_append(NULL, "Accept: application/json");
	if (h->headers && token && *token)
		h->headers = curl_slist_append(h->headers, auth);
	memset(auth, 0, sizeof auth);
	if (!h->headers) {
		cli_http_close(h);
		return cli_prom_error(err, GS_ENOMEM, name, "out of memory");
	}
	curl_easy_setopt(h->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h->curl, CURLOPT_TIMEOUT, (long)timeout);
	curl_easy_setopt(h->curl, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(h->curl, CURLOPT_MAXREDIRS, 5L);
#if LIBCURL_VERSION_NUM >= 0x075500 /* 7.85 names protocols, and deprecates the mask */
	curl_easy_setopt(h->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h->curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(h->curl, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
	curl_easy_setopt(h->curl, CURLOPT_REDIR_PROTOCOLS,
	                 (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	curl_easy_setopt(h->curl, CURLOPT_ACCEPT_ENCODING, ""); /* gzip: a tenth */
	curl_easy_setopt(h->curl, CURLOPT_USERAGENT, "gpushare/" GS_VERSION);
	curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, h->headers);
	curl_easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h->curl, CURLOPT_WRITEDATA, h);
	curl_easy_setopt(h->curl, CURLOPT_ERRORBUFFER, h->errbuf);
	*out = h;
	return 0;
}

/* curl's message without the " after N ms" that makes it vary. */
static const char *tidy(cli_http *h, CURLcode rc)
{
	char *a = strstr(h->errbuf, " after ");
	if (!h->errbuf[0])
		return curl_easy_strerror(rc);
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
	curl_easy_getinfo(h->curl, CURLINFO_OS_ERRNO, &os);
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
	curl_easy_setopt(h->curl, CURLOPT_URL, url);
	rc = curl_easy_perform(h->curl);
	curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &r->status);
	if (rc == CURLE_WRITE_ERROR && h->too_big) {
		r->too_big = 1;
		return 0;
	}
	if (rc != CURLE_OK)
		return no_response(h, rc, err);
	if (curl_easy_getinfo(h->curl, CURLINFO_CONTENT_TYPE, &type) == CURLE_OK && type)
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
	curl_slist_free_all(h->headers);
	if (h->curl)
		curl_easy_cleanup(h->curl);
	free(h->body);
	free(h);
	curl_global_cleanup();
}
