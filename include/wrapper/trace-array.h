/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Compat: ftrace instances (struct trace_array) of <linux/trace.h>.
 */
#ifndef _WRAPPER_TRACE_ARRAY_H
#define _WRAPPER_TRACE_ARRAY_H

#include <linux/trace.h>

#include <wrapper/kernel-version.h>

/**
 * marker_trace_array_get_by_name() - look up, or create, an ftrace instance
 * @name: the instance's name (its directory under tracing/instances/)
 *
 * With a reference, as trace_array_get_by_name(); a new instance gets the
 * event directories of every event system, as before 6.7.
 *
 * Context: process context, may sleep.
 * Return: the instance, or NULL.
 */
static inline struct trace_array *
marker_trace_array_get_by_name(const char *name)
{
#if MARKER_KERNEL_AT_LEAST(6, 7, 0)
	/*
	 * 6.7: trace_array_get_by_name() takes a systems string, the event
	 * systems the new instance shows, NULL for all of them (upstream
	 * "tracing: Allow creating instances with specified system events",
	 * v6.7-rc1).
	 */
	return trace_array_get_by_name(name, NULL);
#else
	return trace_array_get_by_name(name);
#endif
}

#endif /* _WRAPPER_TRACE_ARRAY_H */
