/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Compat: event_mutex, the tracing core's lock over its list of events,
 * which trace_add_event_call() and trace_remove_event_call() want held.
 */
#ifndef _WRAPPER_EVENT_MUTEX_H
#define _WRAPPER_EVENT_MUTEX_H

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/trace_events.h>

#ifdef MODULE
/**
 * marker_event_mutex_find() - the address of the tracing core's event_mutex
 *
 * No kernel exports event_mutex (6.1 nor 6.12), so a module cannot link
 * against it. register_kprobe() resolves a symbol with kallsyms (data
 * symbols too, CONFIG_KALLSYMS_ALL) and stores the address in the kprobe
 * before its text check refuses a kprobe on data: the way LTTng-modules
 * finds kallsyms_lookup_name() since upstream "kallsyms: unexport
 * kallsyms_lookup_name() and kallsyms_on_each_symbol()" (v5.7-rc1). What
 * it finds must be the start of a symbol named event_mutex, which
 * sprint_symbol() checks; nothing is ever called through it.
 *
 * Context: process context, may sleep.
 * Return: the mutex, or NULL (no kprobes, no KALLSYMS_ALL, or a check
 * failed).
 */
static inline struct mutex *marker_event_mutex_find(void)
{
	struct kprobe kp = { .symbol_name = "event_mutex" };
	char sym[KSYM_SYMBOL_LEN];
	static const char want[] = "event_mutex+0x0/";

	if (!IS_ENABLED(CONFIG_KPROBES))
		return NULL;
	if (!register_kprobe(&kp)) {
		/* a kprobe on a mutex: not what we asked for */
		unregister_kprobe(&kp);
		return NULL;
	}
	if (!kp.addr || !IS_ALIGNED((unsigned long)kp.addr, sizeof(long)))
		return NULL;
	sprint_symbol(sym, (unsigned long)kp.addr);
	if (strncmp(sym, want, sizeof(want) - 1))
		return NULL;
	return (struct mutex *)kp.addr;
}
#else
/*
 * Built in, the registry links against event_mutex itself. Its declaration
 * is in kernel/trace/trace.h (6.1 and 6.12), private to kernel/trace/.
 */
extern struct mutex event_mutex;

static inline struct mutex *marker_event_mutex_find(void)
{
	return &event_mutex;
}
#endif

#endif /* _WRAPPER_EVENT_MUTEX_H */
