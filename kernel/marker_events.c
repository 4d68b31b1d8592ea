// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every marker is a trace event: markers/<name> under tracing/events/,
 * typed from the marker's signature, so that ftrace (enable, filter,
 * trigger, hist), perf and BPF see markers as they see tracepoints.
 *
 * An event is made at run time, as the kernel's synthetic and user events
 * are (kernel/trace/trace_events_synth.c, trace_events_user.c): a struct
 * trace_event_call with its own class, fields defined from the signature,
 * its print format the marker's own, and a reg callback that connects a
 * probe of the registry while ftrace or perf uses the event: typed, of the
 * event's number of arguments, for an event without strings; generic for
 * an event with strings. The event appears when the registry first knows
 * a site of its name and goes when the last one goes and nothing uses it;
 * one still in use stays, inert, and records again when a site of its name
 * returns. An inline marker (MARK_INLINE()) has no event: it has nothing
 * to record, and runs its own code, not probes.
 *
 * Record layout: struct trace_entry, then one field per argument, in
 * order, at its natural alignment (integers of their width, pointers as
 * unsigned long, strings as a u32 __data_loc), then the strings; without
 * strings, up to 7 bytes of zeros that the last field's 8-byte store
 * writes (marker_event_fill_fixed()). A string is copied without
 * faulting, as the probe events read them: a wild, user or NULL pointer
 * records "(fault)"; the strings of one hit share MARKER_EVENT_STR_MAX
 * bytes, longer ones are cut.
 *
 * Lock order: event_mutex, then marker_mutex. ftrace and perf call the reg
 * callback with event_mutex held (and trace_types_lock, when an instance
 * goes), and it takes marker_mutex to connect its probe; so the module
 * notifier takes event_mutex before marker_mutex, as
 * trace_kprobe_module_callback() does, and no event is added or removed
 * with marker_mutex held (trace_add_event_call() takes trace_types_lock).
 */
#include <linux/ctype.h>
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/stringhash.h>
#include <linux/trace_events.h>
#include <linux/tracepoint-defs.h>
#include <linux/workqueue.h>

#include <wrapper/event-mutex.h>
#include <wrapper/unaligned.h>

#include "marker-internal.h"

#define MARKER_EVENT_SYSTEM	"markers"
#define MARKER_EVENT_STR_MAX	256	/* the filter's string limit */
#define MARKER_EVENT_HASH_BITS	10	/* as the registry's table */

/**
 * struct marker_event_field - one argument's field in a record
 * @name: argN, or the name the format gives it ("name=%d")
 * @type: its C type, as the format file shows it
 * @offset: where it is in a record
 * @size: its size
 * @is_signed: a signed integer
 * @code: the argument's MARKER_TYPE_*
 * @mask: the bits of an argument that the field holds: an event without
 *	strings stores each field as 8 bytes (marker_event_fill_fixed())
 */
struct marker_event_field {
	char name[MARKER_FIELD_MAX];
	const char *type;
	u64 mask;
	u16 offset;
	u8 size;
	u8 is_signed;
	char code;
};

/**
 * struct marker_event - the trace event of one marker name
 * @hlist: link in marker_event_table
 * @call: the event, for the tracing core
 * @class: its class: system "markers", our reg callback and fields
 * @tp: its name, for the core; TRACE_EVENT_FL_TRACEPOINT makes BPF
 *	programs of tracepoint type attach (perf_event_set_bpf_prog())
 * @links: the probes connected for it, one per ftrace instance enabling
 *	it and one for perf (struct marker_event_link)
 * @seen: the last marker_events_update() that found a site of the name
 * @added: the tracing core has it
 * @print: a site of the name has print or stack connected
 * @print_failed: trace_get_event_file() failed for @print_file: they write
 *	text until @print goes false
 * @print_file: the event in the "markers" instance, which print and stack
 *	record into (marker_event_print()); a reference taken with
 *	trace_get_event_file() while @print
 * @put_node: link in a list of events whose @print_file is being put
 * @put_file: the file being put
 * @rcu: marker_event_print() finds events under rcu_read_lock(): freed
 *	after a grace period
 * @nargs: the number of arguments
 * @strings: some arguments are strings
 * @size: the size of a record without its strings
 * @rsize: what a record of an event without strings reserves: @size, and
 *	the bytes past the last field that its 8-byte store writes (zeros)
 * @sig: the signature the fields follow; sites of the name with another
 *	are not recorded
 * @fields: the fields, one per argument
 * @format: how a record prints: the marker's format, or one made of the
 *	fields if the marker's does not fit its signature
 * @print_fmt: the same, for the format file (call->print_fmt)
 * @name: the marker's name, the event's
 *
 * All fields under event_mutex; the fixed part (from @nargs down) is
 * written before the event is added, and only read after. @hlist and
 * @print_file are also read at hits, under rcu_read_lock().
 */
struct marker_event {
	struct hlist_node hlist;
	struct trace_event_call call;
	struct trace_event_class class;
	struct tracepoint tp;
	struct list_head links;
	unsigned long seen;
	bool added;
	bool print;
	bool print_failed;
	struct trace_event_file __rcu *print_file;
	struct list_head put_node;
	struct trace_event_file *put_file;
	struct rcu_head rcu;
	unsigned int nargs;
	bool strings;
	unsigned int size;
	unsigned int rsize;
	char sig[MARKER_MAX_ARGS + 1];
	struct marker_event_field fields[MARKER_MAX_ARGS];
	char *format;
	char *print_fmt;
	char name[];
};

/* A probe connected for an event; its data is the ftrace file or the call. */
struct marker_event_link {
	struct list_head node;
	struct marker_probe *probe;	/* marker_action_attach()'s */
};

/*
 * The tracing core's event_mutex, or NULL when it could not be found: then
 * there are no events, and markers reach ftrace through the print action.
 */
static struct mutex *marker_event_mutex;

/*
 * Every event, by name; under marker_event_mutex, and read at hits under
 * rcu_read_lock() (marker_event_print()).
 */
static DEFINE_HASHTABLE(marker_event_table, MARKER_EVENT_HASH_BITS);
static unsigned long marker_event_gen;	/* under marker_event_mutex */
static bool marker_events_closing;	/* under marker_event_mutex */

static void marker_events_work_fn(struct work_struct *work);
static DECLARE_WORK(marker_events_work, marker_events_work_fn);

static const struct {
	char code;
	u8 size;
	u8 is_signed;
	const char *type;
	const char *conv;	/* for a format made of the fields */
} marker_event_types[] = {
	{ MARKER_TYPE_BOOL,	1, 0, "bool",			"%llu" },
	{ MARKER_TYPE_CHAR,	1, 1, "char",			"%lld" },
	{ MARKER_TYPE_UCHAR,	1, 0, "unsigned char",		"%llu" },
	{ MARKER_TYPE_SHORT,	2, 1, "short",			"%lld" },
	{ MARKER_TYPE_USHORT,	2, 0, "unsigned short",		"%llu" },
	{ MARKER_TYPE_INT,	4, 1, "int",			"%lld" },
	{ MARKER_TYPE_UINT,	4, 0, "unsigned int",		"%llu" },
	{ MARKER_TYPE_LONG,	8, 1, "long",			"%lld" },
	{ MARKER_TYPE_ULONG,	8, 0, "unsigned long",		"%llu" },
	{ MARKER_TYPE_LLONG,	8, 1, "long long",		"%lld" },
	{ MARKER_TYPE_ULLONG,	8, 0, "unsigned long long",	"%llu" },
	{ MARKER_TYPE_PTR,	8, 0, "unsigned long",		"0x%llx" },
	{ MARKER_TYPE_STRING,	4, 0, "__data_loc char[]",	"%s" },
};

/* -- Recording ------------------------------------------------------------ */

/* The strings of one hit, copied without faulting. */
struct marker_event_strs {
	char pool[MARKER_EVENT_STR_MAX];
	const char *str[MARKER_MAX_ARGS];
	u16 len[MARKER_MAX_ARGS];
};

/*
 * Is @site's signature the one @ev records? For print, which takes every
 * site of its name (the event's own probes take only these: the registry
 * checks when it connects them). At every hit: no call.
 */
static __always_inline bool marker_event_fits(const struct marker_event *ev,
					      const struct marker_site *site)
{
	unsigned int i;

	if (site->nargs != ev->nargs)
		return false;
	for (i = 0; i < ev->nargs; i++)
		if (site->sig[i] != ev->sig[i])
			return false;
	return true;
}

/* Copy the hit's strings; return the bytes they take in a record. */
static unsigned int marker_event_strings(const struct marker_event *ev,
					 const u64 *args,
					 struct marker_event_strs *s)
{
	unsigned int i, dyn = 0;
	size_t used = 0;

	for (i = 0; i < ev->nargs; i++) {
		if (ev->fields[i].code != MARKER_TYPE_STRING)
			continue;
		s->str[i] = marker_copy_str(s->pool, &used, sizeof(s->pool),
					    (const char *)(unsigned long)args[i]);
		s->len[i] = strlen(s->str[i]) + 1;
		dyn += s->len[i];
	}
	return dyn;
}

/* Write the fields of a hit after @rec's trace_entry, strings last. */
static __always_inline void
marker_event_fill_strs(const struct marker_event *ev, void *rec,
		       const u64 *args, const struct marker_event_strs *s)
{
	unsigned int i, dyn = ev->size;

	for (i = 0; i < ev->nargs; i++) {
		const struct marker_event_field *f = &ev->fields[i];
		void *p = rec + f->offset;

		if (f->code == MARKER_TYPE_STRING) {
			memcpy(rec + dyn, s->str[i], s->len[i]);
			*(u32 *)p = (u32)s->len[i] << 16 | dyn;
			dyn += s->len[i];
			continue;
		}
		switch (f->size) {
		case 1:
			*(u8 *)p = args[i];
			break;
		case 2:
			*(u16 *)p = args[i];
			break;
		case 4:
			*(u32 *)p = args[i];
			break;
		default:
			*(u64 *)p = args[i];
			break;
		}
	}
}

/*
 * Write the @n fields of a hit of an event without strings: an 8-byte
 * store each, of the argument masked to the field's width (little-endian:
 * Kconfig.marker builds the registry for x86-64 only). A typed probe's
 * argument holds its value in its low bytes only, whatever is above. The
 * fields are in the order of their offsets: a store's upper bytes (zeros)
 * land in a hole, in the next field before its own store, or past the
 * last one, in the slack that @ev->rsize reserves. @n is a constant in
 * the typed probes, whose loop unrolls with the arguments in registers:
 * a load of the offset and the mask and a store a field, no branch.
 */
static __always_inline void
marker_event_fill_fixed(const struct marker_event *ev, void *rec,
			const u64 *args, unsigned int n)
{
	unsigned int i;

#pragma GCC unroll 10	/* MARKER_MAX_ARGS */
	for (i = 0; i < n; i++)
		put_unaligned(args[i] & ev->fields[i].mask,
			      (u64 *)(rec + ev->fields[i].offset));
}

/*
 * A record of @ev: with the strings @s (@dyn bytes of them), or without
 * (@s NULL) of its @n fields. Inlined with @s and @n constants in each
 * caller.
 */
static __always_inline void marker_event_fill(const struct marker_event *ev,
					      void *rec, const u64 *args,
					      const struct marker_event_strs *s,
					      unsigned int n)
{
	if (s)
		marker_event_fill_strs(ev, rec, args, s);
	else
		marker_event_fill_fixed(ev, rec, args, n);
}

/* What a record of @ev with @dyn bytes of strings @s reserves */
static __always_inline unsigned int
marker_event_rec_size(const struct marker_event *ev,
		      const struct marker_event_strs *s, unsigned int dyn)
{
	return s ? ev->size + dyn : ev->rsize;
}

static __always_inline void
marker_event_ftrace_record(struct trace_event_file *file,
			   const struct marker_event *ev, const u64 *args,
			   const struct marker_event_strs *s, unsigned int dyn,
			   unsigned int n)
{
	struct trace_event_buffer fbuffer;
	void *rec;

	rec = trace_event_buffer_reserve(&fbuffer, file,
					 marker_event_rec_size(ev, s, dyn));
	if (!rec)
		return;
	marker_event_fill(ev, rec, args, s, n);
	trace_event_buffer_commit(&fbuffer);
}

/* The strings' pool is a frame of its own: only events with strings pay. */
static noinline void marker_event_ftrace_strs(struct trace_event_file *file,
					      const struct marker_event *ev,
					      const u64 *args)
{
	struct marker_event_strs s;

	marker_event_ftrace_record(file, ev, args, &s,
				   marker_event_strings(ev, args, &s), 0);
}

/*
 * The probe connected while an ftrace instance enables an event with
 * strings: generic, for the strings' pool takes a frame of its own.
 */
static void marker_event_ftrace(void *data, struct marker_site *site,
				const u64 *args)
{
	struct trace_event_file *file = data;

	if (trace_trigger_soft_disabled(file))
		return;
	marker_event_ftrace_strs(file, file->event_call->data, args);
}

/*
 * The probes of an event without strings, one for each number of
 * arguments: typed probes of the event's signature, which the registry
 * connects to the sites of that signature only (marker_probe_other_sig()),
 * and which take every argument as a u64 whatever its type: on x86-64 an
 * integer or pointer argument takes one register or 8-byte stack slot,
 * whose low bytes hold its value (marker_event_fill_fixed() masks the
 * rest). A site with one of them alone calls it from its trampoline, as it
 * calls a module's typed probe: no array of arguments, no dispatch and no
 * indirect call, which a generic probe pays at each hit.
 */
static __always_inline void
marker_event_ftrace_fixed(struct trace_event_file *file, const u64 *args,
			  unsigned int n)
{
	if (trace_trigger_soft_disabled(file))
		return;
	marker_event_ftrace_record(file, file->event_call->data, args, NULL,
				   0, n);
}

#define MARKER_EVENT_FTRACE(...)					\
static notrace void							\
__MARKER_CAT(marker_event_ftrace_, __MARKER_NARGS(__VA_ARGS__))(		\
	void *data __MARKER_MAP(__MARKER_U64_PARAM_C, ##__VA_ARGS__))	\
{									\
	__MARKER_U64_ARRAY(__VA_ARGS__);				\
									\
	marker_event_ftrace_fixed(data, args, __MARKER_NARGS(__VA_ARGS__)); \
}

__MARKER_FOR_EACH_NARGS(MARKER_EVENT_FTRACE)

/* By the number of arguments */
static void *const marker_event_ftrace_typed[MARKER_MAX_ARGS + 1] =
	__MARKER_NARGS_FNS(marker_event_ftrace_);

/**
 * marker_event_print() - record a hit of print or stack as its marker's event
 * @site: the site that fired
 * @args: its arguments
 *
 * Writes the event of @site's name into the "markers" instance, as an
 * enabled event would, with the instance's filter and triggers for it: the
 * one output path of print, stack and the tracing tools. Nothing when the
 * event is also enabled in that instance: its own probe records the hit.
 *
 * Context: a probe of @site, preemption disabled.
 * Return: true if the event took the hit (recorded, filtered out or
 * soft-disabled), false if print must write it as text: no event for the
 * name yet, none at all, or a site whose signature is not the event's.
 */
bool marker_event_print(struct marker_site *site, const u64 *args)
{
	struct trace_event_file *file;
	struct marker_event *ev;
	bool took = false;

	if (!marker_event_mutex)
		return false;
	rcu_read_lock();
	hash_for_each_possible_rcu(marker_event_table, ev, hlist,
				   full_name_hash(NULL, site->name,
						  strlen(site->name))) {
		if (strcmp(ev->name, site->name))
			continue;
		file = rcu_dereference(ev->print_file);
		if (!file || !marker_event_fits(ev, site))
			break;
		took = true;
		if (READ_ONCE(file->flags) & EVENT_FILE_FL_ENABLED ||
		    trace_trigger_soft_disabled(file))
			break;
		if (ev->strings)
			marker_event_ftrace_strs(file, ev, args);
		else
			marker_event_ftrace_record(file, ev, args, NULL, 0,
						   ev->nargs);
		break;
	}
	rcu_read_unlock();
	return took;
}

#ifdef CONFIG_PERF_EVENTS
static __always_inline void
marker_event_perf_record(struct trace_event_call *call,
			 const struct marker_event *ev, const u64 *args,
			 struct hlist_head *head,
			 const struct marker_event_strs *s, unsigned int dyn,
			 unsigned int n)
{
	struct pt_regs *regs;
	int rctx, size;
	void *rec;

	/* perf puts a u32 size before the record, and wants u64 alignment */
	size = ALIGN(marker_event_rec_size(ev, s, dyn) + sizeof(u32),
		     sizeof(u64)) - sizeof(u32);
	rec = perf_trace_buf_alloc(size, &regs, &rctx);
	if (!rec)
		return;
	perf_fetch_caller_regs(regs);
	marker_event_fill(ev, rec, args, s, n);
	perf_trace_run_bpf_submit(rec, size, rctx, call, 1, regs, head, NULL);
}

static noinline void marker_event_perf_strs(struct trace_event_call *call,
					    const struct marker_event *ev,
					    const u64 *args,
					    struct hlist_head *head)
{
	struct marker_event_strs s;

	marker_event_perf_record(call, ev, args, head, &s,
				 marker_event_strings(ev, args, &s), 0);
}

/*
 * The probes connected while perf (or a BPF program) uses the event: as
 * for ftrace, generic for an event with strings, else typed.
 */
static void marker_event_perf(void *data, struct marker_site *site,
			      const u64 *args)
{
	struct trace_event_call *call = data;
	struct hlist_head *head = this_cpu_ptr(call->perf_events);

	if (!bpf_prog_array_valid(call) && hlist_empty(head))
		return;
	marker_event_perf_strs(call, call->data, args, head);
}

static __always_inline void
marker_event_perf_fixed(struct trace_event_call *call, const u64 *args,
			unsigned int n)
{
	struct hlist_head *head = this_cpu_ptr(call->perf_events);

	if (!bpf_prog_array_valid(call) && hlist_empty(head))
		return;
	marker_event_perf_record(call, call->data, args, head, NULL, 0, n);
}

#define MARKER_EVENT_PERF(...)						\
static notrace void							\
__MARKER_CAT(marker_event_perf_, __MARKER_NARGS(__VA_ARGS__))(			\
	void *data __MARKER_MAP(__MARKER_U64_PARAM_C, ##__VA_ARGS__))	\
{									\
	__MARKER_U64_ARRAY(__VA_ARGS__);				\
									\
	marker_event_perf_fixed(data, args, __MARKER_NARGS(__VA_ARGS__)); \
}

__MARKER_FOR_EACH_NARGS(MARKER_EVENT_PERF)

static void *const marker_event_perf_typed[MARKER_MAX_ARGS + 1] =
	__MARKER_NARGS_FNS(marker_event_perf_);
#endif

/* -- Connecting: the reg callback ------------------------------------------ */

static bool marker_event_func_in(const void *func, void *const *typed)
{
	unsigned int i;

	for (i = 0; i <= MARKER_MAX_ARGS; i++)
		if (func == typed[i])
			return true;
	return false;
}

/* Is @func a probe of an event, for ftrace or for perf? */
bool marker_event_func(const void *func)
{
#ifdef CONFIG_PERF_EVENTS
	if (func == marker_event_perf ||
	    marker_event_func_in(func, marker_event_perf_typed))
		return true;
#endif
	return func == marker_event_ftrace ||
	       marker_event_func_in(func, marker_event_ftrace_typed);
}

/*
 * Connect a probe for @ev with @data (an ftrace file, or the call for
 * perf), to the sites of @ev's name whose signature is @ev's: the registry
 * passes over the others when it connects, so that the probes need not
 * check at each hit. The generic @fn for an event with strings, else the
 * typed probe of its number of arguments in @typed.
 * marker_action_attach_sig() pins marker.ko while it is connected: the
 * probe's code is ours, and so is the event.
 */
static int marker_event_connect(struct marker_event *ev, marker_generic_fn fn,
				void *const *typed, void *data)
{
	struct marker_event_link *link;
	int ret;

	lockdep_assert_held(marker_event_mutex);
	link = kzalloc(sizeof(*link), GFP_KERNEL);
	if (!link)
		return -ENOMEM;
	if (ev->strings)
		link->probe = marker_action_attach_sig(ev->name, fn, true,
						       data, ev->sig);
	else
		link->probe = marker_action_attach_sig(ev->name,
						       typed[ev->nargs], false,
						       data, ev->sig);
	if (IS_ERR(link->probe)) {	/* -ENODEV: going, the event goes too */
		ret = PTR_ERR(link->probe);
		pr_warn("event markers/%s: cannot connect its probe (%d)\n",
			ev->name, ret);
		kfree(link);
		return ret;
	}
	list_add(&link->node, &ev->links);
	return 0;
}

/* Disconnect @ev's probe for @data, after a grace period. */
static void marker_event_disconnect(struct marker_event *ev, void *data)
{
	struct marker_event_link *link;

	lockdep_assert_held(marker_event_mutex);
	list_for_each_entry(link, &ev->links, node) {
		if (link->probe->data != data)
			continue;
		list_del(&link->node);
		marker_action_detach(link->probe);	/* waits for the hits */
		kfree(link);
		/* an event whose sites went can go now: not from here */
		if (list_empty(&ev->links))
			schedule_work(&marker_events_work);
		return;
	}
	WARN_ON_ONCE(1);
}

static int marker_event_reg(struct trace_event_call *call,
			    enum trace_reg type, void *data)
{
	struct marker_event *ev = call->data;

	switch (type) {
	case TRACE_REG_REGISTER:
		return marker_event_connect(ev, marker_event_ftrace,
					    marker_event_ftrace_typed, data);
	case TRACE_REG_UNREGISTER:
		marker_event_disconnect(ev, data);
		return 0;
#ifdef CONFIG_PERF_EVENTS
	case TRACE_REG_PERF_REGISTER:
		return marker_event_connect(ev, marker_event_perf,
					    marker_event_perf_typed, call);
	case TRACE_REG_PERF_UNREGISTER:
		marker_event_disconnect(ev, call);
		return 0;
	case TRACE_REG_PERF_OPEN:
	case TRACE_REG_PERF_CLOSE:
	case TRACE_REG_PERF_ADD:
	case TRACE_REG_PERF_DEL:
		return 0;
#endif
	}
	return 0;
}

/* -- Fields and output ----------------------------------------------------- */

static int marker_event_define_fields(struct trace_event_call *call)
{
	struct marker_event *ev = call->data;
	unsigned int i;
	int ret;

	for (i = 0; i < ev->nargs; i++) {
		const struct marker_event_field *f = &ev->fields[i];

		ret = trace_define_field(call, f->type, f->name, f->offset,
					 f->size, f->is_signed, FILTER_OTHER);
		if (ret)
			return ret;
	}
	return 0;
}

static struct trace_event_fields marker_event_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE,
	  .define_fields = marker_event_define_fields },
	{}
};

/* The value of field @i of the record @rec of @len bytes, as a u64 slot. */
static u64 marker_event_value(const struct marker_event *ev, const void *rec,
			      unsigned int len, unsigned int i)
{
	const struct marker_event_field *f = &ev->fields[i];
	const void *p = rec + f->offset;
	u32 loc, off, n;

	switch (f->code) {
	case MARKER_TYPE_STRING:
		loc = *(const u32 *)p;
		off = loc & 0xffff;
		n = loc >> 16;
		if (!n || off + n > len || ((const char *)rec)[off + n - 1])
			return (unsigned long)"(bad)";
		return (unsigned long)(rec + off);
	}
	switch (f->size) {
	case 1:
		return f->is_signed ? (u64)*(const s8 *)p : *(const u8 *)p;
	case 2:
		return f->is_signed ? (u64)*(const s16 *)p : *(const u16 *)p;
	case 4:
		return f->is_signed ? (u64)*(const s32 *)p : *(const u32 *)p;
	default:
		return *(const u64 *)p;
	}
}

/* "name: " and the record formatted with the event's format. */
static enum print_line_t marker_event_output(struct trace_iterator *iter,
					     int flags,
					     struct trace_event *tev)
{
	struct trace_event_call *call =
		container_of(tev, struct trace_event_call, event);
	struct marker_event *ev = call->data;
	u64 a[MARKER_MAX_ARGS] = { };
	unsigned int i;
	int ret;

	ret = trace_raw_output_prep(iter, tev);
	if (ret != TRACE_TYPE_HANDLED)
		return ret;
	if (iter->ent_size < ev->size) {
		trace_seq_puts(&iter->seq, "(short record)\n");
		return trace_handle_return(&iter->seq);
	}
	for (i = 0; i < ev->nargs; i++)
		a[i] = marker_event_value(ev, iter->ent, iter->ent_size, i);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	trace_seq_printf(&iter->seq, ev->format, a[0], a[1], a[2], a[3], a[4],
			 a[5], a[6], a[7], a[8], a[9]);
#pragma GCC diagnostic pop
	trace_seq_putc(&iter->seq, '\n');
	return trace_handle_return(&iter->seq);
}

static struct trace_event_functions marker_event_funcs = {
	.trace = marker_event_output,
};

/* -- Making an event from a site -------------------------------------------- */

/* C keywords, which a BPF tool's generated struct could not name a field */
static const char * const marker_event_keywords[] = {
	"auto", "bool", "break", "case", "char", "const", "continue",
	"default", "do", "double", "else", "enum", "extern", "float", "for",
	"goto", "if", "inline", "int", "long", "register", "restrict",
	"return", "short", "signed", "sizeof", "static", "struct", "switch",
	"typedef", "union", "unsigned", "void", "volatile", "while",
};

static bool marker_field_name_ok(char names[][MARKER_FIELD_MAX],
				 const char *name, size_t len, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < ARRAY_SIZE(marker_event_keywords); j++)
		if (strlen(marker_event_keywords[j]) == len &&
		    !strncmp(marker_event_keywords[j], name, len))
			return false;

	/* not argN either: the name of an unnamed field */
	if (!len || len >= MARKER_FIELD_MAX || isdigit(*name) ||
	    !strncmp(name, "common_", 7) ||
	    (len > 3 && !strncmp(name, "arg", 3) && isdigit(name[3])))
		return false;
	for (j = 0; j < i; j++)
		if (strlen(names[j]) == len && !strncmp(names[j], name, len))
			return false;
	return true;
}

/**
 * marker_field_names() - the names of a marker's arguments
 * @format: the marker's format
 * @nargs: its number of arguments, at most MARKER_MAX_ARGS
 * @names: @nargs names of MARKER_FIELD_MAX bytes, filled in
 *
 * argN (from arg1), or the identifier right before "=%" that the format
 * puts before the argument's conversion ("value=%d name=%s"): the fields
 * of the marker's trace event, and what a predicate (marker_pred.c) may
 * name.
 *
 * Context: any.
 */
void marker_field_names(const char *format, unsigned int nargs,
			char names[][MARKER_FIELD_MAX])
{
	const char *p = format, *end, *start;
	unsigned int i;

	for (i = 0; i < nargs; i++)
		names[i][0] = '\0';
	for (i = 0; (p = strchr(p, '%')) && i < nargs; p++) {
		if (p[1] == '%') {
			p++;
			continue;
		}
		end = p;
		if (end > format && end[-1] == '=') {
			end--;
			start = end;
			while (start > format &&
			       (isalnum(start[-1]) || start[-1] == '_'))
				start--;
			if (marker_field_name_ok(names, start, end - start, i))
				strscpy(names[i], start, end - start + 1);
		}
		i++;
	}
	for (i = 0; i < nargs; i++)
		if (!names[i][0])
			snprintf(names[i], MARKER_FIELD_MAX, "arg%u", i + 1);
}

/* Name the fields of @ev (marker_field_names()). */
static void marker_event_name_fields(struct marker_event *ev,
				     const char *format)
{
	char names[MARKER_MAX_ARGS][MARKER_FIELD_MAX];
	unsigned int i;

	marker_field_names(format, ev->nargs, names);
	for (i = 0; i < ev->nargs; i++)
		strscpy(ev->fields[i].name, names[i], MARKER_FIELD_MAX);
}

/* The format made of the fields, for a marker whose own does not fit. */
static char *marker_event_own_format(const struct marker_event *ev)
{
	size_t size = ev->nargs * (MARKER_FIELD_MAX + 8) + 1;
	char *fmt = kmalloc(size, GFP_KERNEL);
	unsigned int i, n = 0, t;

	if (!fmt)
		return NULL;
	fmt[0] = '\0';
	for (i = 0; i < ev->nargs; i++) {
		for (t = 0; marker_event_types[t].code != ev->fields[i].code; t++)
			;
		n += scnprintf(fmt + n, size - n, "%s%s=%s", i ? " " : "",
			       ev->fields[i].name, marker_event_types[t].conv);
	}
	return fmt;
}

/* "format", REC->a, __get_str(b): the print format the format file shows. */
static char *marker_event_print_fmt(const struct marker_event *ev)
{
	size_t size = 2 * strlen(ev->format) + 3 +
		      ev->nargs * (MARKER_FIELD_MAX + 16) + 1;
	char *buf = kmalloc(size, GFP_KERNEL), *q;
	const char *p;
	unsigned int i;

	if (!buf)
		return NULL;
	q = buf;
	*q++ = '"';
	for (p = ev->format; *p; p++) {
		if (*p == '"' || *p == '\\') {
			*q++ = '\\';
			*q++ = *p;
		} else if (*p == '\n') {
			*q++ = '\\';
			*q++ = 'n';
		} else {
			*q++ = *p;
		}
	}
	*q++ = '"';
	for (i = 0; i < ev->nargs; i++)
		q += scnprintf(q, buf + size - q,
			       ev->fields[i].code == MARKER_TYPE_STRING ?
			       ", __get_str(%s)" : ", REC->%s",
			       ev->fields[i].name);
	return buf;
}

static void marker_event_free(struct marker_event *ev)
{
	if (!ev)
		return;
	kfree(ev->print_fmt);
	kfree(ev->format);
	kfree(ev);
}

static void marker_event_free_rcu(struct rcu_head *rcu)
{
	marker_event_free(container_of(rcu, struct marker_event, rcu));
}

/*
 * Take @ev out of marker_event_table and free it once marker_event_print()
 * cannot see it: after a grace period (marker_events_exit() waits for the
 * callbacks).
 */
static void marker_event_unhash(struct marker_event *ev)
{
	lockdep_assert_held(marker_event_mutex);
	hash_del_rcu(&ev->hlist);
	call_rcu(&ev->rcu, marker_event_free_rcu);
}

/* The event of @site's name, typed from its signature; not added yet. */
static struct marker_event *marker_event_alloc(const struct marker_site *site)
{
	unsigned int i, t, offset = sizeof(struct trace_entry);
	struct marker_event *ev;

	lockdep_assert_held(&marker_mutex);
	ev = kzalloc(struct_size(ev, name, strlen(site->name) + 1), GFP_KERNEL);
	if (!ev)
		return NULL;
	strscpy(ev->name, site->name, strlen(site->name) + 1);
	INIT_LIST_HEAD(&ev->links);
	ev->nargs = min_t(unsigned int, site->nargs, MARKER_MAX_ARGS);
	memcpy(ev->sig, site->sig, ev->nargs);
	for (i = 0; i < ev->nargs; i++) {
		struct marker_event_field *f = &ev->fields[i];

		for (t = 0; t < ARRAY_SIZE(marker_event_types); t++)
			if (marker_event_types[t].code == ev->sig[i])
				break;
		if (t == ARRAY_SIZE(marker_event_types))
			goto free_event;	/* not a signature MARK() makes */
		f->code = ev->sig[i];
		ev->strings |= f->code == MARKER_TYPE_STRING;
		f->type = marker_event_types[t].type;
		f->size = marker_event_types[t].size;
		f->is_signed = marker_event_types[t].is_signed;
		f->mask = f->size < 8 ? BIT_ULL(8 * f->size) - 1 : ~0ULL;
		offset = ALIGN(offset, f->size);
		f->offset = offset;
		offset += f->size;
	}
	ev->size = offset;
	/* marker_event_fill_fixed() writes 8 bytes at the last field */
	ev->rsize = ev->nargs ? max_t(unsigned int, ev->size,
				      ev->fields[ev->nargs - 1].offset + 8) :
				ev->size;
	marker_event_name_fields(ev, site->format);
	if (!marker_format_check(site, NULL, 0))
		ev->format = kstrdup(site->format, GFP_KERNEL);
	else
		ev->format = marker_event_own_format(ev);
	if (!ev->format)
		goto free_event;
	ev->print_fmt = marker_event_print_fmt(ev);
	if (!ev->print_fmt)
		goto free_event;
	return ev;

free_event:
	marker_event_free(ev);
	return NULL;
}

/* Give @ev to the tracing core: tracing/events/markers/<name>/. */
static int marker_event_add(struct marker_event *ev)
{
	struct trace_event_call *call = &ev->call;
	int ret;

	lockdep_assert_held(marker_event_mutex);
	INIT_LIST_HEAD(&ev->class.fields);
	ev->class.system = MARKER_EVENT_SYSTEM;
	ev->class.reg = marker_event_reg;
	ev->class.fields_array = marker_event_fields_array;
	ev->tp.name = ev->name;
	call->class = &ev->class;
	call->event.funcs = &marker_event_funcs;
	call->print_fmt = ev->print_fmt;
	call->data = ev;
	/* references counted in call->refcnt, which removal checks */
	call->flags = TRACE_EVENT_FL_TRACEPOINT | TRACE_EVENT_FL_DYNAMIC;
	call->tp = &ev->tp;
	if (!register_trace_event(&call->event))
		return -ENODEV;
	ret = trace_add_event_call(call);
	if (ret) {
		unregister_trace_event(&call->event);
		return ret;
	}
	return 0;
}

/*
 * Take @ev from the tracing core and free it, unless it is in use: enabled
 * in an instance, open in perf (the core refuses both with -EBUSY) or
 * referenced (a trigger's enable_event, an event probe, a kernel user of
 * trace_get_event_file(), print's @print_file until it is put).
 */
static int marker_event_remove(struct marker_event *ev)
{
	int ret;

	lockdep_assert_held(marker_event_mutex);
	if (!list_empty(&ev->links) || atomic_read(&ev->call.refcnt))
		return -EBUSY;
	ret = trace_remove_event_call(&ev->call);	/* unregisters its id */
	if (ret)
		return ret;
	marker_event_unhash(ev);
	return 0;
}

static struct marker_event *marker_event_find(const char *name)
{
	struct marker_event *ev;

	hash_for_each_possible(marker_event_table, ev, hlist,
			       full_name_hash(NULL, name, strlen(name)))
		if (!strcmp(ev->name, name))
			return ev;
	return NULL;
}

/* -- Keeping the events in step with the registry ---------------------------- */

/**
 * marker_events_lock() - take event_mutex, which nests outside marker_mutex
 *
 * Taken by the registry around a change of its sites that
 * marker_events_update() then follows. Nothing when there are no events.
 *
 * Context: process context, may sleep.
 */
void marker_events_lock(void)
{
	if (marker_event_mutex)
		mutex_lock(marker_event_mutex);
}

static void marker_events_print_files(void);

/**
 * marker_events_unlock() - release event_mutex, then give print and stack
 *	the events they record into
 *
 * Context: process context, may sleep; nothing held that nests inside
 * event_mutex (trace_get_event_file() and trace_put_event_file() take it).
 */
void marker_events_unlock(void)
{
	if (!marker_event_mutex)
		return;
	mutex_unlock(marker_event_mutex);
	marker_events_print_files();
}

/**
 * marker_events_sync() - follow a change of the registry outside its
 *	module notifier: print or stack connected or disconnected
 *
 * Context: process context, may sleep; not under marker_mutex,
 * marker_offer_mutex or event_mutex.
 */
void marker_events_sync(void)
{
	marker_events_lock();
	marker_events_update();
	marker_events_unlock();
}

/* Has a site of @e print or stack connected? Under marker_mutex. */
static bool marker_entry_prints(struct marker_entry *e)
{
	struct marker_funcs *funcs;
	struct marker_rec *rec;
	unsigned int i;
	bool generic;
	void *func;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry(rec, &e->sites, node) {
		funcs = __marker_site_funcs(rec->site);
		for (i = 0; funcs && i < funcs->nr; i++) {
			func = marker_func_fn(&funcs->f[i], &generic);
			if (generic && marker_action_formats(func))
				return true;
		}
	}
	return false;
}

/**
 * marker_events_update() - an event for every marker name with a site
 *
 * Adds the events of names the registry has learnt, and removes those of
 * names whose last site went, unless they are in use: such an event stays
 * and records again when a site of its name returns; it is removed by the
 * first update after its last user has gone (the last disable runs one).
 *
 * Context: process context, with marker_events_lock() held, not
 * marker_mutex.
 */
void marker_events_update(void)
{
	struct marker_event *ev;
	struct marker_site *site;
	struct marker_entry *e;
	struct marker_rec *rec;
	struct hlist_node *tmp;
	unsigned long gen;
	unsigned int bkt;
	int ret;

	if (!marker_event_mutex)
		return;
	lockdep_assert_held(marker_event_mutex);
	if (marker_events_closing)
		return;
	gen = ++marker_event_gen;

	/* what the registry knows, under its lock: nothing added here */
	mutex_lock(&marker_mutex);
	list_for_each_entry(e, &marker_entries, list) {
		rec = list_first_entry_or_null(&e->sites, struct marker_rec,
					       node);
		site = rec ? rec->site : NULL;
		/* an inline marker records nothing: it has no arguments to */
		if (!site || site->kind == MARKER_KIND_INLINE)
			continue;
		ev = marker_event_find(e->name);
		if (!ev) {
			ev = marker_event_alloc(site);
			if (!ev) {
				pr_warn("event markers/%s: no memory, or a signature it cannot record: no event\n",
					e->name);
				continue;
			}
			hash_add_rcu(marker_event_table, &ev->hlist,
				     full_name_hash(NULL, ev->name,
						    strlen(ev->name)));
		}
		ev->seen = gen;
		ev->print = marker_entry_prints(e);
		if (!ev->print)
			ev->print_failed = false;
	}
	mutex_unlock(&marker_mutex);

	/* then the tracing core, which takes trace_types_lock */
	hash_for_each_safe(marker_event_table, bkt, tmp, ev, hlist) {
		if (ev->seen != gen) {
			ev->print = false;
			ev->print_failed = false;
			if (ev->added)
				marker_event_remove(ev);	/* or stays inert */
			continue;
		}
		if (ev->added)
			continue;
		ret = marker_event_add(ev);
		if (ret) {
			pr_warn("event markers/%s: cannot add it (%d): no event\n",
				ev->name, ret);
			marker_event_unhash(ev);
			continue;
		}
		ev->added = true;
	}
}

/*
 * Put the print files of the events that no longer print: detached under
 * event_mutex, put after a grace period (marker_event_print() reads them
 * under rcu_read_lock()) and without event_mutex, which
 * trace_put_event_file() takes. An event is not removed, so not freed,
 * while its file is held (call->refcnt).
 *
 * Return: whether one was put: its event may be removable now.
 */
static bool marker_events_put_files(void)
{
	struct trace_event_file *file;
	struct marker_event *ev, *tmp;
	unsigned int bkt;
	LIST_HEAD(put);

	mutex_lock(marker_event_mutex);
	hash_for_each(marker_event_table, bkt, ev, hlist) {
		file = rcu_dereference_protected(ev->print_file,
						 lockdep_is_held(marker_event_mutex));
		if (ev->print || !file)
			continue;
		RCU_INIT_POINTER(ev->print_file, NULL);
		ev->put_file = file;
		list_add_tail(&ev->put_node, &put);
	}
	mutex_unlock(marker_event_mutex);
	if (list_empty(&put))
		return false;
	synchronize_rcu();
	list_for_each_entry_safe(ev, tmp, &put, put_node)
		trace_put_event_file(ev->put_file);	/* @ev may go now */
	return true;
}

/* The next event that prints and has no file yet: a copy of its name. */
static char *marker_events_next_print(void)
{
	struct marker_event *ev;
	unsigned int bkt;
	char *name;

	lockdep_assert_held(marker_event_mutex);
	hash_for_each(marker_event_table, bkt, ev, hlist) {
		if (!ev->added || !ev->print || ev->print_failed ||
		    rcu_access_pointer(ev->print_file))
			continue;
		name = kstrdup(ev->name, GFP_KERNEL);
		if (name)
			return name;
		ev->print_failed = true;
		pr_warn("event markers/%s: no memory: print and stack write it as text\n",
			ev->name);
	}
	return NULL;
}

/*
 * Get the file of each event that prints and has none, in the "markers"
 * instance, one at a time: trace_get_event_file() takes trace_types_lock
 * and event_mutex itself. Published for marker_event_print(). A failure is
 * said once, and print writes the name's hits as text until it no longer
 * prints.
 */
static void marker_events_get_files(void)
{
	struct trace_event_file *file;
	struct marker_event *ev;
	char *name;

	for (;;) {
		mutex_lock(marker_event_mutex);
		name = marker_events_next_print();
		mutex_unlock(marker_event_mutex);
		if (!name)
			return;
		file = trace_get_event_file(MARKER_INSTANCE, MARKER_EVENT_SYSTEM,
					    name);
		mutex_lock(marker_event_mutex);
		ev = marker_event_find(name);
		if (ev && ev->print && !rcu_access_pointer(ev->print_file)) {
			if (!IS_ERR(file) && file->event_call == &ev->call) {
				rcu_assign_pointer(ev->print_file, file);
				file = NULL;
			} else if (IS_ERR(file)) {
				ev->print_failed = true;
				pr_warn("event markers/%s: not found in instance \"%s\" (%ld): print and stack write it as text\n",
					name, MARKER_INSTANCE, PTR_ERR(file));
			}
		}
		mutex_unlock(marker_event_mutex);
		if (!IS_ERR_OR_NULL(file))
			trace_put_event_file(file);	/* of an event gone since */
		kfree(name);
	}
}

/*
 * After a change, with event_mutex released: the print files that went,
 * then the events only they kept, then the print files that are wanted.
 */
static void marker_events_print_files(void)
{
	if (marker_events_put_files()) {
		mutex_lock(marker_event_mutex);
		marker_events_update();
		mutex_unlock(marker_event_mutex);
	}
	marker_events_get_files();
}

/* An event's last user went: remove it if its sites went too. */
static void marker_events_work_fn(struct work_struct *work)
{
	marker_events_sync();
}

/**
 * marker_events_init() - find event_mutex, and add the events of the sites
 *	known so far
 *
 * Without event_mutex (see marker_event_mutex_find()) there are no events,
 * and one line says so; the registry works without them.
 *
 * Context: process context, at the registry's init, not under marker_mutex.
 */
void marker_events_init(void)
{
	if (!IS_ENABLED(CONFIG_DYNAMIC_EVENTS)) {
		pr_info("no trace events for markers: the kernel has no CONFIG_DYNAMIC_EVENTS\n");
		return;
	}
	marker_event_mutex = marker_event_mutex_find();
	if (!marker_event_mutex) {
		pr_warn("no trace events for markers: event_mutex not found (CONFIG_KPROBES and CONFIG_KALLSYMS_ALL?); the print action still writes to ftrace\n");
		return;
	}
	marker_events_sync();
}

/**
 * marker_events_exit() - remove every event
 *
 * None is in use: enabled events and perf's pin marker.ko (see
 * marker_event_connect()).
 *
 * Context: process context, at the registry's exit, not under marker_mutex.
 */
void marker_events_exit(void)
{
	struct marker_event *ev;
	struct hlist_node *tmp;
	unsigned int bkt;

	if (!marker_event_mutex)
		return;
	marker_events_lock();
	marker_events_closing = true;
	hash_for_each(marker_event_table, bkt, ev, hlist)
		ev->print = false;
	marker_events_unlock();			/* puts every print file */
	cancel_work_sync(&marker_events_work);	/* sees marker_events_closing */

	marker_events_lock();
	hash_for_each_safe(marker_event_table, bkt, tmp, ev, hlist) {
		if (!ev->added) {
			marker_event_unhash(ev);
			continue;
		}
		if (marker_event_remove(ev))
			pr_err("event markers/%s is in use as marker.ko goes (an event probe on it?): left in place\n",
			       ev->name);
	}
	marker_events_unlock();
	rcu_barrier();		/* marker_event_free_rcu() is ours */
}
