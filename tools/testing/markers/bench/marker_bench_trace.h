/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The trace event of marker_bench: a TRACE_EVENT with one int field, the
 * field the marker event of bench_nz has, so that an enabled marker event
 * and a tracepoint's event are measured recording the same record.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM marker_bench

#if !defined(_MARKER_BENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MARKER_BENCH_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(bench_ev,
	    TP_PROTO(int i),
	    TP_ARGS(i),
	    TP_STRUCT__entry(__field(int, arg1)),
	    TP_fast_assign(__entry->arg1 = i;),
	    TP_printk("%d", __entry->arg1)
);

#endif /* _MARKER_BENCH_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE marker_bench_trace
#include <trace/define_trace.h>
