/*
 * page.h - the frame every report page shares (report.c): the document's
 * head with its inline CSS, and its footer. The plan's page and the
 * chargeback's (cost_report.c) are both built inside it.
 */
#ifndef GS_PAGE_H
#define GS_PAGE_H

#include "base/buf.h"

/* Opens the page: <head> titled "TITLE — WHAT" (title escaped; what is
 * ours, e.g. "gpushare plan"), the CSS, and <body><main>. */
void gs_report_page_head(gs_buf *b, const char *title, const char *what);
/* The footer, and the end of the page. */
void gs_report_page_foot(gs_buf *b);

#endif
