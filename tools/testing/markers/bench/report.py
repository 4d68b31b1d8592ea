#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""report.py - the report of make bench, from the guest logs and sites.csv.

Usage: report.py --out DIR --passes "icount icount2 time" --wall SECONDS

Reads DIR/<pass>.log (BENCH, SCALE and INFO lines of bench-guest.sh) and
DIR/sites.csv (sites.py); writes DIR/report.md, DIR/cases.csv,
DIR/scaling.csv, DIR/scaling.png (gnuplot) and DIR/headline.rst, and prints
the headline table.
"""

import argparse
import csv
import datetime
import os
import re
import subprocess
import sys

# label: (what, mode, state, probes, anchor)
CASES = [
    ('empty', 'empty loop (baseline)', '-', '-', '-', None),
    ('key', 'static key', '-', 'disarmed', '-', 'key'),
    ('tp', 'tracepoint', '-', 'disarmed', '-', 'key'),
    ('ev', 'TRACE_EVENT tracepoint', '-', 'disarmed', '-', 'key'),
    ('nz', 'marker mid-function', 'near-zero', 'disarmed', '-', 'key'),
    ('pt', 'marker mid-function', 'portable', 'disarmed', '-', 'key'),
    ('nz-tail', 'marker ending its function', 'near-zero', 'disarmed',
     '-', 'key'),
    ('pt-tail', 'marker ending its function', 'portable', 'disarmed',
     '-', 'key'),
    ('empty3', 'empty, three arguments stored (baseline of the *3 rows)',
     '-', '-', '-', None),
    ('tp3', 'tracepoint, three values live across it', '-', 'disarmed', '-',
     'key'),
    ('nz3', 'marker, three values live across it', 'near-zero', 'disarmed',
     '-', 'key'),
    ('pt3', 'marker, three values live across it', 'portable', 'disarmed',
     '-', 'key'),
    ('tp-armed-typed-1', 'tracepoint', '-', 'armed', '1 empty probe',
     'tp-armed-typed-1'),
    ('tp-armed-typed-2', 'tracepoint', '-', 'armed', '2 empty probes',
     'tp-armed-typed-2'),
    ('tp-armed-typed-3', 'tracepoint', '-', 'armed', '3 empty probes',
     'tp-armed-typed-3'),
    ('tp-armed-typed-8', 'tracepoint', '-', 'armed', '8 empty probes',
     'tp-armed-typed-8'),
    ('nz-armed-typed-1', 'marker', 'near-zero', 'armed', '1 empty typed probe',
     'tp-armed-typed-1'),
    ('nz-armed-generic-1', 'marker', 'near-zero', 'armed',
     '1 empty generic probe', 'tp-armed-typed-1'),
    ('nz-armed-typed-2', 'marker', 'near-zero', 'armed', '2 empty typed probes',
     'tp-armed-typed-2'),
    ('nz-armed-typed-3', 'marker', 'near-zero', 'armed', '3 empty typed probes',
     'tp-armed-typed-3'),
    ('nz-armed-typed-8', 'marker', 'near-zero', 'armed', '8 empty typed probes',
     'tp-armed-typed-8'),
    ('nz-armed-generic-3', 'marker', 'near-zero', 'armed', '3 empty generic probes',
     'tp-armed-typed-3'),
    ('pt-armed-typed-1', 'marker', 'portable', 'armed', '1 empty typed probe',
     'tp-armed-typed-1'),
    ('pt-armed-generic-1', 'marker', 'portable', 'armed',
     '1 empty generic probe', 'tp-armed-typed-1'),
    ('pt-armed-typed-2', 'marker', 'portable', 'armed', '2 empty typed probes',
     'tp-armed-typed-2'),
    ('pt-armed-typed-3', 'marker', 'portable', 'armed', '3 empty typed probes',
     'tp-armed-typed-3'),
    ('pt-armed-typed-8', 'marker', 'portable', 'armed', '8 empty typed probes',
     'tp-armed-typed-8'),
    ('pt-armed-generic-3', 'marker', 'portable', 'armed', '3 empty generic probes',
     'tp-armed-typed-3'),
    ('tp-event', 'TRACE_EVENT, enabled', '-', 'armed', 'ftrace record',
     'tp-event'),
    ('nz-event', 'marker trace event, enabled', 'near-zero', 'armed',
     'ftrace record', 'tp-event'),
    ('tp-event-filtered', 'TRACE_EVENT, enabled', '-', 'armed',
     'ftrace record, filtered out', 'tp-event-filtered'),
    ('nz-event-filtered', 'marker trace event, enabled', 'near-zero', 'armed',
     'ftrace record, filtered out', 'tp-event-filtered'),
    ('nz-count', 'marker, count action', 'near-zero', 'armed',
     'no predicate', 'nz-armed-generic-1'),
    ('nz-count-pred-true', 'marker, count action', 'near-zero', 'armed',
     'predicate arg1 >= 0, true', 'nz-count'),
    ('nz-count-pred-false', 'marker, count action', 'near-zero', 'armed',
     'predicate arg1 < 0, false (filtered out)', 'tp-event-filtered'),
    ('kprobe-int3', 'kprobe on the site\'s symbol', 'int3', '-',
     'empty pre_handler', 'nz-armed-typed-1'),
    ('kprobe-opt', 'kprobe on the site\'s symbol', 'optimized', '-',
     'empty pre_handler', 'nz-armed-typed-1'),
]

HEADLINE = ['empty', 'key', 'tp', 'nz', 'nz-tail', 'pt', 'pt-tail',
            'tp-armed-typed-1',
            'nz-armed-typed-1', 'nz-armed-generic-1', 'tp-armed-typed-3',
            'nz-armed-typed-3',
            'tp-event', 'nz-event', 'tp-event-filtered', 'nz-event-filtered',
            'nz-count-pred-false',
            'kprobe-int3', 'kprobe-opt']


def indirect_per_fire(label):
    """Indirect branches (retpolines) per pass, from the code (sites.csv)."""
    m = re.match(r'^tp-armed-typed-(\d+)$', label)
    if m:
        # one probe: the tracepoint's static call calls it directly; more:
        # the static call goes to the iterator, which calls each through
        # a pointer
        n = int(m.group(1))
        return 0 if n == 1 else n
    m = re.match(r'^(nz|pt)-armed-(typed|generic)-(\d+)$', label)
    if m:
        n = int(m.group(3))
        # one typed probe: a direct call of the site's trampoline, which
        # jumps directly to the probe; else one indirect call a probe
        return 0 if m.group(2) == 'typed' and n == 1 else n
    if label.startswith('nz-event'):
        # bench_nz passes no string: the event's typed probe, alone, is
        # reached as one typed probe is, through the site's trampoline
        return 0
    if label == 'nz-count-pred-false':
        return 1	# the predicate's wrapper, a generic probe
    if label.startswith('nz-count-pred'):
        return 2	# the wrapper, then the action
    if label == 'nz-count':
        return 1
    if label.startswith('kprobe'):
        return '>= 1'	# the kprobe core calls pre_handler through a pointer
    return 0


def parse_log(path):
    bench, scale, info = {}, [], {}
    if not os.path.exists(path):
        return bench, scale, info
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == 'BENCH' and len(w) == 6:
                bench.setdefault(w[1], []).append(
                    (int(w[3]), int(w[4]), int(w[5])))
            elif w[0] == 'SCALE' and len(w) == 10:
                scale.append([w[1], w[2]] + [int(x) for x in w[3:]])
            elif w[0] == 'INFO' and len(w) >= 2:
                key = w[1] if w[1] != 'vuln' else 'vuln ' + w[2]
                info[key] = ' '.join(w[2:] if w[1] != 'vuln' else w[3:])
    return bench, scale, info


def per_iter(runs, col):
    """Minimum over the runs of col (1: ticks, 2: ns) per iteration."""
    return min(r[col] / r[0] for r in runs)


def fmt(x, nd=2):
    if x is None or x == '':
        return '-'
    if isinstance(x, str):
        return x
    if abs(x - round(x)) < 0.005:
        return '%d' % round(x)
    text = '%.*f' % (nd, x)
    return text[1:] if re.match(r'^-0\.0*$', text) else text


def ratio(a, b):
    if a is None or not b:
        return None
    return a / b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('--passes', default='icount icount2 time')
    ap.add_argument('--wall', type=int, default=0)
    ap.add_argument('--builtin-log', default=None,
                    help="intree.sh's builtin stage log, from this run")
    ap.add_argument('--hotpaths-dir', default=None,
                    help="intree.sh's log directory, with the hotpaths "
                    "stage's logs of this run")
    args = ap.parse_args()
    out = args.out
    logs = {p: parse_log(os.path.join(out, p + '.log'))
            for p in args.passes.split()}
    ic = logs.get('icount', ({}, [], {}))
    tm = logs.get('time', ({}, [], {}))
    ic2 = logs.get('icount2', ({}, [], {}))
    info = dict(tm[2])
    info.update(ic[2])
    sites = []
    if os.path.exists(os.path.join(out, 'sites.csv')):
        with open(os.path.join(out, 'sites.csv')) as f:
            sites = list(csv.DictReader(f))

    # -- the cases -------------------------------------------------------
    rows = []
    base_i = per_iter(ic[0]['empty'], 1) if 'empty' in ic[0] else None
    base_t = per_iter(tm[0]['empty'], 2) if 'empty' in tm[0] else None
    net_i, net_t = {}, {}
    for label, *_ in CASES:
        # the *3 rows against the function of the same shape, empty3
        base = 'empty3' if label in ('tp3', 'nz3', 'pt3') else None
        bi = per_iter(ic[0][base], 1) if base in ic[0] else base_i
        bt = per_iter(tm[0][base], 2) if base in tm[0] else base_t
        if label in ic[0] and bi is not None:
            net_i[label] = per_iter(ic[0][label], 1) - bi
        if label in tm[0] and bt is not None:
            net_t[label] = per_iter(tm[0][label], 2) - bt
    for label, what, mode, state, probes, anchor in CASES:
        runs = ic[0].get(label)
        total = per_iter(runs, 1) if runs else None
        spread = (max(r[1] for r in runs) - min(r[1] for r in runs)
                  if runs else None)
        rows.append({
            'case': label, 'what': what, 'mode': mode, 'state': state,
            'probes': probes,
            'iterations': runs[0][0] if runs else '',
            'runs': len(runs) if runs else 0,
            'insns_per_iter': total,
            'insns_net': net_i.get(label),
            'spread_ticks': spread,
            'ratio_to_baseline': ratio(total, base_i),
            'anchor': anchor or '',
            'ratio_to_anchor': ratio(net_i.get(label), net_i.get(anchor))
            if anchor else None,
            'indirect_per_fire': indirect_per_fire(label),
            'ns_per_iter': per_iter(tm[0][label], 2) if label in tm[0] else None,
            'ns_net': net_t.get(label),
            'ns_ratio_to_anchor': ratio(net_t.get(label), net_t.get(anchor))
            if anchor else None,
        })
    fields = list(rows[0].keys())
    with open(os.path.join(out, 'cases.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow({k: (round(v, 3) if isinstance(v, float) else
                            '' if v is None else v) for k, v in r.items()})
    by = {r['case']: r for r in rows}

    # -- scaling ---------------------------------------------------------
    scale_rows = []
    probes_of = {}
    for mod, op, ns, count, keys, jumps, calls, gps, ipis in tm[1]:
        m = re.match(r'^mb_(scale|shared|portable|tp|plain)_(\d+)$', mod)
        nsites = int(m.group(2)) if m else 0
        kind = m.group(1) if m else mod
        names = nsites // 10 if kind == 'shared' else nsites
        mode = {'portable': 'portable', 'tp': 'tracepoint',
                'plain': 'none'}.get(kind, 'near-zero')
        if op in ('arm', 'typed'):
            probes_of[mod] = 'one glob probe' if op == 'arm' else \
                '%d typed probes' % names
        scale_rows.append({
            'module': mod, 'sites': nsites, 'names': names, 'mode': mode,
            'probes': probes_of.get(mod, '') if op != 'load' else '-',
            'op': op if op != 'typed' else 'arm',
            'ms': ns / 1e6, 'count': count, 'key_updates': keys,
            'jump_updates': jumps, 'call_updates': calls,
            'patch_batches': keys + calls, 'grace_periods': gps,
            'sync_ipis': ipis,
        })
    sfields = ['module', 'sites', 'names', 'mode', 'probes', 'op', 'ms',
               'count', 'key_updates', 'jump_updates', 'call_updates',
               'patch_batches', 'grace_periods', 'sync_ipis']
    with open(os.path.join(out, 'scaling.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=sfields)
        w.writeheader()
        for r in scale_rows:
            w.writerow({k: (round(v, 3) if isinstance(v, float) else v)
                        for k, v in r.items()})
    chart(out, scale_rows)

    # -- goals -----------------------------------------------------------
    goals = evaluate(by, sites, scale_rows, args.builtin_log)
    hot_goal, hot_md = hot_paths(args.hotpaths_dir)
    goals.append(hot_goal)

    # -- the report ------------------------------------------------------
    kernel = info.get('kernel', '?')
    version = info.get('version', '')
    m = re.search(r'Debian (\S+) \((\d{4}-\d\d-\d\d)\)\s*$', version)
    kver = '%s (Debian %s of %s)' % (kernel, m.group(1), m.group(2)) \
        if m else kernel
    today = datetime.date.today().isoformat()
    md = []
    md.append('# Markers: what a marker costs\n')
    md.append('Measured %s by `make bench` on %s, x86_64, in QEMU (TCG, `-cpu max`), '
              'guest CPU "%s"; spectre_v2: %s. `make bench` took %d s.\n' % (
                  today, kver, info.get('cpu', '?'),
                  info.get('vuln spectre_v2', '?'), args.wall))
    md.append('Instruction counts come from a boot with `-icount shift=0 -smp 1`: '
              'the guest TSC then advances by one per guest instruction, so a '
              'loop\'s TSC delta is its instruction count. Each case is a '
              'noinline function that stores its argument and holds the '
              'construct; the loop calls it %s times with interrupts off, %s '
              'runs, minimum taken. *net* is instructions per pass minus the '
              'baseline loop of the same boot (%s instructions: the call, '
              'the ftrace NOP, the store, the return, the loop). Nanoseconds '
              'are emulated time from a boot without icount (`-smp 2`, '
              'multi-threaded TCG): for reference only.\n' % (
                  by['empty']['iterations'], by['empty']['runs'],
                  fmt(base_i)))
    md.append('<a name="headline"></a>\n## Headline\n')
    md.append(headline_md(by))
    md.append('\n## Goals\n')
    for name, verdict, detail in goals:
        md.append('- **%s: %s.** %s' % (name, verdict, detail))
    md.append('\n## Every case\n')
    md.append('| case | mode | state | probes | insns/pass | net | ratio to '
              'baseline | anchor | net / anchor net | indirect branches '
              '/ fire | spread (ticks) | emulated ns/pass | net ns |')
    md.append('|' + '---|' * 13)
    for r in rows:
        md.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            r['what'], r['mode'], r['state'], r['probes'],
            fmt(r['insns_per_iter']), fmt(r['insns_net']),
            fmt(r['ratio_to_baseline']), r['anchor'] or '-',
            fmt(r['ratio_to_anchor']), r['indirect_per_fire'],
            fmt(r['spread_ticks']), fmt(r['ns_per_iter'], 1),
            fmt(r['ns_net'], 1)))
    md.append('\nThe anchor of the disarmed rows is the disarmed static key '
              '(the kernel\'s cheapest branch), of the armed rows the '
              'tracepoint with one empty probe, of the kprobe rows the armed '
              'marker with one typed probe. Indirect branches per fire are '
              'read from the code: one typed probe is called directly through '
              'the site\'s trampoline (retargeted with '
              '`__static_call_update()`), the tracepoint through its inline '
              'static call; several or generic probes are called through a '
              'pointer, a retpoline each.\n')
    md.append(stability_md(ic[0], ic2[0], by))
    md.append('\n## The sites in the built code (objdump)\n')
    md.append(sites_md(out))
    md.append('\n## Arming and disarming at scale\n')
    md.append(scaling_md(scale_rows))
    md.append('\n## The hot paths of vmlinux, marked\n')
    md.append(hot_md)
    md.append('\n## Files\n')
    md.append('`cases.csv`, `sites.csv`, `scaling.csv`, `scaling.png` '
              '(the scaling curve), `headline.rst` (for '
              'Documentation/markers-bench.rst), the guest logs '
              '`icount.log`, `icount2.log`, `time.log`, all in build/bench/.\n')
    with open(os.path.join(out, 'report.md'), 'w') as f:
        f.write('\n'.join(md) + '\n')
    with open(os.path.join(out, 'headline.rst'), 'w') as f:
        f.write(headline_rst(by, today, kver, goals))
    print(headline_md(by))
    for name, verdict, detail in goals:
        print('%s: %s' % (name, verdict))
    return 0


def headline_md(by):
    lines = ['| case | instructions / pass (net) | × baseline | ratio to anchor | '
             'indirect branches / fire | emulated ns (net) |',
             '|---|---|---|---|---|---|']
    for label in HEADLINE:
        r = by[label]
        what = r['what'] + ('' if r['mode'] in ('-', '') else ', ' + r['mode'])
        what += ', ' + r['state'] if r['state'] != '-' else ''
        what += ', ' + r['probes'] if r['probes'] != '-' else ''
        if label == 'empty':
            net = '%s (absolute)' % fmt(r['insns_per_iter'])
        else:
            net = fmt(r['insns_net'])
        lines.append('| %s | %s | %s | %s | %s | %s |' % (
            what, net, fmt(r['ratio_to_baseline']),
            ('%s× %s' % (fmt(r['ratio_to_anchor']), r['anchor'])
             if r['anchor'] and r['ratio_to_anchor'] is not None else '-'),
            r['indirect_per_fire'],
            fmt(r['ns_net'] if label != 'empty' else r['ns_per_iter'], 1)))
    return '\n'.join(lines) + '\n'


def shared_batches_goal(log, a, sa):
    """Arming 1000 names in shared text_poke_bp() batches: measured in a
    tree that carries the markers, by intree.sh's builtin stage (@log,
    which bench.sh runs), since the kernel of the other boots, Debian's,
    exports one batch a key."""
    title = ('Arming 1000 names, built in: shared batches, at most 12 sync '
             'IPIs')
    if a and sa:
        detail = ('Out of tree, the exported static-key API patches each '
                  'key in a batch of its own: %d sync IPIs for 1000 names, '
                  '%d for 1000 sites under 100 names (the best it reaches: '
                  'fewer names). ' % (a['sync_ipis'], sa['sync_ipis']))
    else:
        detail = ''
    m = None
    if log and os.path.exists(log):
        with open(log) as f:
            m = re.search(r'# 1000 names: armed with (\d+) batches, (\d+) IPIs, '
                          r'(\d+) keys; disarmed with (\d+) batches, (\d+) IPIs',
                          f.read())
    if not m:
        return (title, 'not measured',
                detail + 'In tree, intree.sh\'s builtin stage measures it; '
                'it did not run (INTREE=0) or failed (build/bench/intree.log).')
    arm, ipis, keys, disarm, dipis = (int(g) for g in m.groups())
    detail += ('In tree (the KUnit kernel of 6.1 with the markers built in, '
               'two CPUs), by static_key_slow_inc_many() and _dec_many(): '
               '%d keys armed in %d text_poke_bp() batches of up to 256 '
               'entries (%d sync IPIs; %d function-call IPIs in all, some of '
               'other causes), disarmed in %d (%d IPIs in all).' % (
                   keys, arm, 3 * arm, ipis, disarm, dipis))
    worst = 3 * max(arm, disarm)
    return (title, 'met' if worst <= 12 else 'not met, by %d' % (worst - 12),
            detail)


HOT_LIMIT = 0.1     # percent of the workload's instructions


def hot_paths(d):
    """The goal of the hot paths' patch set (scripts/graft/hot-paths/), and
    its section of the report, from intree.sh's hotpaths stage in @d: the
    workload's instructions a phase on the kernel with the markers compiled
    in and disarmed ("on") and without them ("off"), and the sizes."""
    title = ('Hot paths of vmlinux marked, disarmed: within %s%% of a '
             'whole-system workload\'s instructions' % HOT_LIMIT)
    runs = {}
    reps = '?'
    for v in ('on', 'off'):
        path = os.path.join(d, 'hotpaths-%s.log' % v) if d else ''
        if not path or not os.path.exists(path):
            continue
        with open(path) as f:
            text = f.read()
            m = re.search(r'^# hot-paths %s: reps (\d+)$' % v, text, re.M)
            if m:
                reps = m.group(1)
            for m in re.finditer(r'^# hot-paths %s: (\w+) (\d+) ns (\d+) max \d+$' % v,
                                 text, re.M):
                runs.setdefault(v, {})[m.group(1)] = (int(m.group(2)),
                                                      int(m.group(3)))
    if set(runs) != {'on', 'off'} or set(runs['on']) != set(runs['off']):
        return ((title, 'not measured',
                 'intree.sh\'s hotpaths stage measures it; it did not run '
                 '(INTREE=0) or failed (build/bench/intree.log).'),
                'Not measured.\n')
    sizes = {}
    path = os.path.join(d, 'hotpaths-size.txt')
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                v, name, text, data, bss = line.split()
                sizes[(v, name)] = (int(text), int(data), int(bss))
    md = ['The optional patch set scripts/graft/hot-paths/ (`integrate.sh '
          '--hot-paths`) puts `MARK()` on the context switch, file open, '
          'bio submission, device transmit and page allocation of Debian\'s '
          'linux-source-6.1. Its kernel (configs/hot-paths.config: no lock '
          'or memory debugging, jump labels, retpolines, the function '
          'tracer) is built twice from the same tree: *on*, '
          '`CONFIG_MARKERS=y`, the markers compiled in and disarmed; *off*, '
          '`CONFIG_MARKERS=n`, `MARK()` compiled away. Each boots with '
          '`-icount shift=0 -smp 1`, without address randomization '
          '(`nokaslr randomize_kstack_offset=off`, randomize_va_space 0), '
          'and runs hot-paths-load, each phase a number of rounds through '
          'one marked path, the five phases %s times, the least of the '
          'runs taken; the guest clock\'s advance over a phase is the '
          'instructions the whole guest executed (the workload, the kernel, '
          'interrupts).\n' % reps,
          '| phase | rounds | instructions off | instructions on | on - off '
          '| per round | on / off |', '|' + '---|' * 7]
    order = ['open', 'bio', 'xmit', 'switch', 'page', 'all']
    for ph in order + sorted(set(runs['on']) - set(order)):
        if ph not in runs['on']:
            continue
        n, on = runs['on'][ph]
        off = runs['off'][ph][1]
        md.append('| %s | %d | %d | %d | %+d | %+.2f | %s |' % (
            ph, n, off, on, on - off, (on - off) / n,
            '%.5f' % (on / off) if off else '-'))
    n, on = runs['on']['all']
    off = runs['off']['all'][1]
    pct = 100.0 * (on - off) / off
    detail = ('hot-paths-load, %d rounds of each of five phases (open, a '
              '4 KiB O_DIRECT bio, a UDP packet on lo, a pipe round trip, '
              'a page faulted in), the least of %s runs: %d instructions '
              'with the five markers compiled in and disarmed, %d without '
              'them: %+.4f%%.' % (n, reps, on, off, pct))
    if ('on', 'code') in sizes and ('off', 'code') in sizes:
        c_on, c_off = sizes[('on', 'code')][0], sizes[('off', 'code')][0]
        objs = sorted(k[1] for k in sizes
                      if k[0] == 'on' and k[1] not in ('vmlinux', 'code'))
        o_on = sum(sizes[('on', o)][0] for o in objs)
        o_off = sum(sizes[('off', o)][0] for o in objs if ('off', o) in sizes)
        detail += (' Code: vmlinux\'s functions %d bytes on, %d off (%+d, '
                   'the registry included); the text of the five marked '
                   'files %+d.' % (c_on, c_off, c_on - c_off, o_on - o_off))
        md.append('\nSizes in bytes: vmlinux\'s functions (the sizes of its '
                  'text symbols: `size`\'s text of vmlinux is padded to a '
                  'fixed end), and `size` of the marked files '
                  '(text / data / bss):\n')
        md.append('| file | on | off | text on - off |')
        md.append('|---|---|---|---|')
        md.append('| vmlinux\'s functions | %d | %d | %+d |' % (
            c_on, c_off, c_on - c_off))
        for o in objs:
            if ('on', o) in sizes and ('off', o) in sizes:
                a, b = sizes[('on', o)], sizes[('off', o)]
                md.append('| %s | %d / %d / %d | %d / %d / %d | %+d |' % (
                    o, a[0], a[1], a[2], b[0], b[1], b[2], a[0] - b[0]))
    verdict = ('met' if abs(pct) <= HOT_LIMIT else
               'not met, by %.4f%%' % (abs(pct) - HOT_LIMIT))
    return (title, verdict, detail), '\n'.join(md) + '\n'


def headline_rst(by, today, kver, goals):
    rows = []
    for label in HEADLINE:
        r = by[label]
        what = r['what'] + ('' if r['mode'] in ('-', '') else ', ' + r['mode'])
        what += ', ' + r['state'] if r['state'] != '-' else ''
        what += ', ' + r['probes'] if r['probes'] != '-' else ''
        net = (fmt(r['insns_per_iter']) + ' (absolute)' if label == 'empty'
               else fmt(r['insns_net']))
        rows.append((what, net, str(r['indirect_per_fire'])))
    w0 = max(len(r[0]) for r in rows + [('case',)])
    w1 = max(len(r[1]) for r in rows + [('', 'insns/pass (net)')])
    w2 = len('indirect/fire')
    sep = '%s  %s  %s' % ('=' * w0, '=' * w1, '=' * w2)
    out = ['Measured %s on %s, x86_64, QEMU TCG with ``-icount shift=0``:' % (
        today, kver), '', sep,
        '%-*s  %-*s  %s' % (w0, 'case', w1, 'insns/pass (net)', 'indirect/fire'),
        sep]
    for r in rows:
        out.append('%-*s  %-*s  %s' % (w0, r[0], w1, r[1], r[2]))
    out += [sep, '']
    for name, verdict, _ in goals:
        out.append('- %s: **%s**' % (name, verdict))
    return '\n'.join(out) + '\n'


def stability_md(ic, ic2, by):
    if not ic2:
        return ''
    lines = ['Repeatability: the disarmed cases in a second boot with '
             'instruction counting (minimum ticks for the same iterations):\n',
             '| case | boot 1 | boot 2 | difference |', '|---|---|---|---|']
    for label in ('empty', 'key', 'tp', 'nz', 'pt', 'nz-tail', 'pt-tail'):
        if label in ic and label in ic2:
            a = min(r[1] for r in ic[label])
            b = min(r[1] for r in ic2[label])
            lines.append('| %s | %d | %d | %d |' % (label, a, b, b - a))
    if 'empty-end' in ic:
        lines.append('\nThe baseline at the end of boot 1: %d ticks (start: %d).' % (
            min(r[1] for r in ic['empty-end']), min(r[1] for r in ic['empty'])))
    return '\n'.join(lines) + '\n'


def sites_md(out):
    path = os.path.join(out, 'sites.md')
    text = open(path).read() if os.path.exists(path) else ''
    return ('Every function holding a marker site in the samples and the '
            'benchmark module (`marker_example.ko` also rebuilt in portable '
            'mode), read with objdump and compared with the same source built '
            'with CONFIG_MARKERS off. The hot path is the straight line from '
            'the entry to the return with every conditional branch falling '
            'through (a disarmed site\'s NOP or branch included); *extra* '
            'names the added instructions that are not the site\'s own. '
            'The static key and tracepoint rows compare their case with the '
            'empty one.\n\n' + text)


def scaling_md(rows):
    if not rows:
        return 'No scaling run.\n'
    lines = ['One module a line: N noinline functions with one `MARK()` '
             'each; "shared" puts 10 sites under each name, "portable" is '
             'built in the portable mode. Armed with one generic glob probe '
             '(`marker_probe_register()`, as `marker_loader.ko markers=...`) '
             'or with one typed probe a name; fired once (every site); '
             'disarmed. Counts are deltas of `markers/stats` and of the '
             'function-call IPIs (`CAL` in /proc/interrupts): with 2 CPUs, '
             'one IPI a `text_poke_sync()`, three a `text_poke_bp()` batch. '
             'Time is emulated (TCG), for reference. The insmod rows count '
             'the IPIs of loading the module: the kernel patches each inline '
             'static call of the module with one `text_poke_bp()`; the '
             'sites call the scheduler (`preempt_schedule_notrace`, through '
             'one on this PREEMPT_DYNAMIC kernel) from `__marker_resched()`, '
             'once a file.\n',
             '| module | sites | names | mode | probes | op | ms | key '
             'updates | jump updates | call updates | patch batches | grace '
             'periods | sync IPIs |', '|' + '---|' * 13]
    for r in rows:
        lines.append('| %s | %d | %d | %s | %s | %s | %.2f | %d | %d | %d | %d | %d | %d |' % (
            r['module'], r['sites'], r['names'], r['mode'], r['probes'],
            {'fire': 'fire (%d hits)' % r['count'],
             'load': 'insmod (10 ms resolution)'}.get(r['op'], r['op']),
            r['ms'], r['key_updates'], r['jump_updates'], r['call_updates'],
            r['patch_batches'], r['grace_periods'], r['sync_ipis']))
    lines.append('\n![scaling](scaling.png)\n')
    lines.append(loading_md(rows))
    return '\n'.join(lines) + '\n'


def loads_of(rows):
    """{sites: {'none'|'near-zero'|'tracepoint': insmod row}}"""
    by = {}
    for r in rows:
        if r['op'] == 'load' and re.match(r'^mb_(scale|tp|plain)_', r['module']):
            by.setdefault(r['sites'], {})[r['mode']] = r
    return {n: d for n, d in by.items() if len(d) == 3}


def loading_md(rows):
    by = loads_of(rows)
    if not by:
        return ''
    lines = ['### Loading, side by side\n',
             'The same N noinline functions of one `int`, loaded by `insmod` '
             'in the same boot: alone (`mb_plain_N`, the baseline), with one '
             '`MARK()` each (`mb_scale_N`), and with one tracepoint each '
             '(`mb_tp_N`: `DECLARE_TRACE()` and `DEFINE_TRACE()` a '
             'function). What each adds is its row minus the baseline\'s; '
             'time is emulated, at /proc/uptime\'s 10 ms resolution.\n',
             '| functions | plain ms | markers ms | tracepoints ms | markers '
             'add (ms) | tracepoints add (ms) | plain IPIs | markers IPIs | '
             'tracepoints IPIs |', '|' + '---|' * 9]
    for n in sorted(by):
        p, m, t = by[n]['none'], by[n]['near-zero'], by[n]['tracepoint']
        lines.append('| %d | %.0f | %.0f | %.0f | %+.0f | %+.0f | %d | %d | %d |' % (
            n, p['ms'], m['ms'], t['ms'], m['ms'] - p['ms'], t['ms'] - p['ms'],
            p['sync_ipis'], m['sync_ipis'], t['sync_ipis']))
    return '\n'.join(lines) + '\n'


def chart(out, rows):
    data = {}
    for r in rows:
        if not r['module'].startswith('mb_scale_') or \
                r['probes'] not in ('one glob probe', '-'):
            continue
        data.setdefault(r['sites'], {})[r['op']] = r
    if not data:
        return
    dat = os.path.join(out, 'scaling.dat')
    with open(dat, 'w') as f:
        f.write('# sites arm_ms fire_ms disarm_ms arm_ipis disarm_ipis '
                'arm_batches disarm_batches disarm_gps load_ms\n')
        for n in sorted(data):
            d = data[n]
            if not all(k in d for k in ('arm', 'fire', 'disarm', 'load')):
                continue
            f.write('%d %.3f %.3f %.3f %d %d %d %d %d %.3f\n' % (
                n, d['arm']['ms'], d['fire']['ms'], d['disarm']['ms'],
                d['arm']['sync_ipis'], d['disarm']['sync_ipis'],
                d['arm']['patch_batches'], d['disarm']['patch_batches'],
                d['disarm']['grace_periods'], max(d['load']['ms'], 1)))
    script = '''
set terminal pngcairo size 1100,450 font ",10"
set output "%(png)s"
set multiplot layout 1,2 title "Arming, firing and disarming N near-zero markers (one glob probe)"
set logscale xy
set grid
set key top left
set xlabel "marker sites (one name each)"
set ylabel "emulated time (ms)"
plot "%(dat)s" using 1:2 with linespoints title "arm all", \\
     "" using 1:3 with linespoints title "fire each once", \\
     "" using 1:4 with linespoints title "disarm all", \\
     "" using 1:10 with linespoints title "insmod (10 ms steps)"
set ylabel "count"
plot "%(dat)s" using 1:7 with linespoints title "patch batches (arm)", \\
     "" using 1:5 with linespoints title "sync IPIs (arm)", \\
     "" using 1:6 with linespoints title "sync IPIs (disarm)", \\
     "" using 1:9 with linespoints title "grace periods (disarm)"
unset multiplot
''' % {'png': os.path.join(out, 'scaling.png'), 'dat': dat}
    try:
        subprocess.run(['gnuplot'], input=script, text=True, check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print('report.py: no chart: %s' % e, file=sys.stderr)


def site_code(code):
    """A site's instructions without the addresses that differ per site."""
    code = re.sub(r'<__markers\+0x[0-9a-f]+>', '<site>', code)
    return re.sub(r'(j[a-z]+) [0-9a-f]+ <[^>]*>', r'\1 <out of line>', code)


def evaluate(by, sites, scale, builtin_log=None):
    goals = []

    def net(label):
        return by[label]['insns_net'] if label in by else None

    # 1. disarmed near-zero, 2. disarmed portable
    ref_tp = [s for s in sites if s['function'] == 'bench_tp_fn']
    for mode, label, limit, title in (
            ('near-zero', 'nz', 1,
             'Disarmed near-zero site: one NOP, no load, +1 instruction'),
            ('portable', 'pt', 4,
             'Disarmed portable site: at most 4 instructions, 1 load, no '
             'indirect branch')):
        rows = [s for s in sites if s['mode'] == mode and s['added_insns'] != '']
        loads = 0 if mode == 'near-zero' else 1

        def fits(s):
            n = int(s['nsites'])
            return (int(s['added_insns']) <= limit * n and
                    int(s['added_loads']) <= loads * n and
                    s['hot_indirect'] == '0')
        good = [s for s in rows if fits(s)]
        bad = [s for s in rows if not fits(s)]
        mid, tail, three = net(label), net(label + '-tail'), net(label + '3')
        ok = (not bad and mid is not None and tail is not None and
              round(mid) <= limit and round(tail) <= limit and
              (three is None or round(three) <= limit))
        detail = ''
        if good and bad:
            detail = ('Met where nothing is live across the site (%s), '
                      'missed where a value is (%s). ' % (
                          ', '.join('`%s`' % s['function'] for s in good),
                          ', '.join('`%s`' % s['function'] for s in bad)))
        detail += 'The site\'s own code: %s. ' % '; '.join(sorted({
            '`%s`' % site_code(c) for s in rows
            for c in s['site_code'].split(' | ')}))
        detail += 'objdump, what each function\'s hot path gains: %s. ' % \
            '; '.join('`%s` (%s) +%s instructions (+%s bytes), +%s loads for '
                      '%s site(s)%s' % (
                          s['function'], s['module'], s['added_insns'],
                          s['added_bytes'], s['added_loads'], s['nsites'],
                          ' (extra: %s)' % s['extra'] if s['extra'] else '')
                      for s in rows)
        detail += ('Run time: +%s instructions a pass with nothing live across '
                   'the site, +%s with a value live across it, +%s with three '
                   '(against a function of the same shape; the tracepoint '
                   'there: +%s) (goal: %s%s).' % (
                       fmt(tail), fmt(mid), fmt(three), fmt(net('tp3')),
                       '+1' if limit == 1 else 'at most +4',
                       '' if ok else ', missed by %s' % fmt(
                           max(x for x in (mid, tail, three)
                               if x is not None) - limit)))
        extras = ' '.join(s['extra'] for s in bad)
        if 'push' in extras:
            detail += (' The site itself is %s, but where a value is live '
                       'across it, GCC keeps the value in a callee-saved '
                       'register, because the armed path calls out of line '
                       '(the trampoline, the several-probe helper): a push, a '
                       'move and a pop on every pass, armed or not. A '
                       'tracepoint in the same place pays the same%s.' % (
                           'one NOP' if mode == 'near-zero' else
                           'a load, a test and a branch',
                           ' (`bench_tp_fn`: +%s instructions: %s, against '
                           '+1 for the static key)' % (
                               ref_tp[0]['added_insns'], ref_tp[0]['extra'])
                           if ref_tp else ''))
        if re.search(r'\bsub\b.*\bjne\b', extras):
            detail += (' The stack protector adds a canary load, store and '
                       'check: an on-stack array is left in the function.')
        goals.append((title, 'met' if ok else 'not met', detail))

    # 3. armed, one typed probe vs the tracepoint
    m, t = net('nz-armed-typed-1'), net('tp-armed-typed-1')
    mp = net('pt-armed-typed-1')
    ok = m is not None and t is not None and m <= t
    fire_m = (m - net('nz')) if m is not None and net('nz') is not None else None
    fire_t = (t - net('tp')) if t is not None and net('tp') is not None else None
    detail = ('Marker (near-zero) %s instructions a fire, portable %s, '
              'tracepoint %s%s; 0 indirect branches on both (direct call of '
              'the trampoline, then a direct jump; the tracepoint\'s inline '
              'static call). Armed minus disarmed: marker %s, tracepoint %s%s.' % (
                  fmt(m), fmt(mp), fmt(t),
                  '' if ok or m is None or t is None else
                  ' (missed by %s, %s%%)' % (fmt(m - t), fmt(100 * (m - t) / t, 0)),
                  fmt(fire_m), fmt(fire_t),
                  '' if ok else ': the difference is the function-level '
                  'cost of goals 1 and 2'))
    goals.append(('Armed, one empty typed probe: no more instructions than '
                  'the tracepoint, no indirect branch',
                  'met' if ok else 'not met', detail))

    # 3b. armed, N typed probes vs the tracepoint with N; generic vs typed
    per_n, ok = [], True
    for n in (2, 3, 8):
        m, t = net('nz-armed-typed-%d' % n), net('tp-armed-typed-%d' % n)
        p = net('pt-armed-typed-%d' % n)
        if m is None or t is None:
            ok = False
            per_n.append('%d: not measured' % n)
            continue
        ok = ok and m <= t
        per_n.append('%d probes: marker %s (portable %s), tracepoint %s '
                     '(%s×); indirect calls a fire: %s and %s' % (
                         n, fmt(m), fmt(p), fmt(t), fmt(ratio(m, t)),
                         indirect_per_fire('nz-armed-typed-%d' % n),
                         indirect_per_fire('tp-armed-typed-%d' % n)))
    goals.append(('Armed, N empty typed probes (N = 2, 3, 8): no more '
                  'instructions a fire than a tracepoint with N probes',
                  'met' if ok else 'not met',
                  'Instructions a pass, in the same boot: %s. Several probes '
                  'on a marker are called by the registry\'s several-probe '
                  'helper, one indirect call a probe, as the tracepoint\'s '
                  'iterator calls them.' % '; '.join(per_n)))
    g, ty, d = net('nz-armed-generic-1'), net('nz-armed-typed-1'), net('nz')
    g3, ty3 = net('nz-armed-generic-3'), net('nz-armed-typed-3')
    if None not in (g, ty, d):
        fg, ft = g - d, ty - d
        ok = fg <= 2 * ft
        goals.append(('A generic probe costs at most twice a typed one',
                      'met' if ok else 'not met',
                      'A fire (armed minus disarmed), one empty probe: '
                      'generic %s instructions, typed %s (%s×); three '
                      'probes: generic %s, typed %s a pass. The typed '
                      'probe is a direct jump from the site\'s trampoline; '
                      'the generic one alone is reached through the '
                      'several-probe helper\'s dispatch, then '
                      '`__marker_call_generic_N()` stores the marker\'s '
                      'arguments as u64 in an array and makes one indirect '
                      'call (a retpoline), with no loop.' % (
                          fmt(fg), fmt(ft), fmt(ratio(fg, ft)),
                          fmt(g3), fmt(ty3))))

    # 4. no format parsing
    calls = set()
    for s in sites:
        calls.update(s.get('ool_calls', '').split())
    parsing = sorted(c for c in calls if re.search(
        r'printf|printk|vsn|va_|format|kstrto|sscanf', c))
    ok = not parsing
    goals.append(('No format parsing on any hit path', 'met' if ok else 'not met',
                  'The out-of-line parts of every site call only: %s. Typed '
                  'probes get the arguments as C arguments, generic ones as a '
                  'u64 array with the site\'s signature; nothing reads the '
                  'format (the registry\'s print action records the event; '
                  'only its text fallback formats with vsnprintf, which is '
                  'printing, not argument parsing).' % (', '.join('`%s`' % c for c in sorted(calls)) or
                                 'nothing')))

    # 5. arming 1000 markers
    def op(mod, o, probes=None):
        for r in scale:
            if r['module'] == mod and r['op'] == o and (
                    probes is None or r['probes'] == probes):
                return r
        return None
    a, d = op('mb_scale_1000', 'arm', 'one glob probe'), \
        op('mb_scale_1000', 'disarm', 'one glob probe')
    sa, sd = op('mb_shared_1000', 'arm', 'one glob probe'), \
        op('mb_shared_1000', 'disarm', 'one glob probe')
    ta, td = op('mb_scale_1000', 'arm', '1000 typed probes'), \
        op('mb_scale_1000', 'disarm', '1000 typed probes')
    if a and d and sa and sd:
        ok = (a['key_updates'] == a['names'] and sa['key_updates'] == sa['names']
              and a['grace_periods'] == 0 and sa['grace_periods'] == 0 and
              d['grace_periods'] == 1 and sd['grace_periods'] == 1)
        detail = ('1000 sites, 1000 names: arming %d key updates, %d patch '
                  'batches, %d sync IPIs, %d grace periods; disarming %d key '
                  'updates, %d grace period(s). 1000 sites under 100 names: '
                  'arming %d key updates (goal 100), %d patch batches, %d '
                  'sync IPIs; disarming %d grace period(s).' % (
                      a['key_updates'], a['patch_batches'], a['sync_ipis'],
                      a['grace_periods'], d['key_updates'], d['grace_periods'],
                      sa['key_updates'], sa['patch_batches'], sa['sync_ipis'],
                      sd['grace_periods']))
        if ta and td:
            detail += (' With one typed probe a name instead (1000 '
                       'marker_probe_register() calls): arming %d grace '
                       'periods, %d patch batches (key and trampoline); '
                       'disarming (one marker_probe_unregister_many() of '
                       'the 1000) %d grace period(s).' % (
                           ta['grace_periods'], ta['patch_batches'],
                           td['grace_periods']))
        goals.append(('Arming 1000 markers: one key update a name; disarming: '
                      'one grace period', 'met' if ok else 'not met', detail))
    else:
        goals.append(('Arming 1000 markers', 'not measured', 'no scaling run'))

    # 5a. arming many names in shared batches: built in only
    goals.append(shared_batches_goal(builtin_log, a, sa))

    # 5b. loading, side by side with tracepoints
    loads = loads_of(scale)
    if loads:
        ok = all(d['near-zero']['ms'] <= d['tracepoint']['ms'] and
                 d['near-zero']['sync_ipis'] <= d['tracepoint']['sync_ipis']
                 for d in loads.values())
        goals.append((
            'Loading: insmod of N sites no dearer with markers than with '
            'tracepoints (time, IPIs)', 'met' if ok else 'not met',
            ' '.join('%d functions: plain %.0f ms and %d IPIs; markers %.0f '
                     'ms (%+.0f) and %d IPIs; tracepoints %.0f ms (%+.0f) '
                     'and %d IPIs.' % (
                         n, d['none']['ms'], d['none']['sync_ipis'],
                         d['near-zero']['ms'],
                         d['near-zero']['ms'] - d['none']['ms'],
                         d['near-zero']['sync_ipis'], d['tracepoint']['ms'],
                         d['tracepoint']['ms'] - d['none']['ms'],
                         d['tracepoint']['sync_ipis'])
                     for n, d in sorted(loads.items())) +
            ' Time is emulated, at 10 ms resolution; one boot.'))
    else:
        goals.append(('Loading, side by side with tracepoints', 'not measured',
                      'no tracepoint or plain module loaded'))

    # 6. an enabled marker event vs a TRACE_EVENT with the same field
    m, t = net('nz-event'), net('tp-event')
    mf, tf = net('nz-event-filtered'), net('tp-event-filtered')
    ok = m is not None and t is not None and m <= t
    goals.append(('An enabled marker event recording into ftrace: no more '
                  'instructions than a TRACE_EVENT with the same field',
                  'met' if ok else 'not met' if m is not None else 'not measured',
                  'Marker event %s instructions a fire, TRACE_EVENT %s (%s×)%s; '
                  'filtered out (a filter that drops every record, evaluated '
                  'after the record is built, in both): marker %s, TRACE_EVENT '
                  '%s (%s×). The marker event has no string: its probe is '
                  'typed, called from the site\'s trampoline as one typed '
                  'probe is (no indirect call), and stores each field as 8 '
                  'bytes masked to its width, loading the field\'s offset and '
                  'mask (3 instructions a field) and the event from the '
                  'ftrace file; the TRACE_EVENT\'s probe is generated for its '
                  'one field (one store, its offset a constant).' % (
                      fmt(m), fmt(t), fmt(ratio(m, t)),
                      '' if ok or m is None or t is None else
                      ' (missed by %s)' % fmt(m - t),
                      fmt(mf), fmt(tf), fmt(ratio(mf, tf)))))

    # 6b. a false predicate vs an ftrace event filter on the same data
    pf, pt_, c = net('nz-count-pred-false'), net('nz-count-pred-true'), \
        net('nz-count')
    ok = pf is not None and tf is not None and pf <= tf
    goals.append(('A hit a predicate filters out: fewer instructions than '
                  'an ftrace event filter on the same data',
                  'met' if ok else 'not met' if pf is not None else
                  'not measured',
                  'The count action behind "arg1 < 0", false at every hit, '
                  '%s instructions a fire (%s×), against %s for the '
                  'TRACE_EVENT\'s filter "arg1 < 0" and %s for the marker '
                  'event\'s, which run after the record is built; the '
                  'predicate runs before any probe, as a postfix program '
                  'over the u64 arguments. True at every hit: %s; the '
                  'action without a predicate: %s.' % (
                      fmt(pf), fmt(ratio(pf, tf)), fmt(tf), fmt(mf),
                      fmt(pt_), fmt(c))))

    # 7. kprobe >= 10x
    k, ko, m = net('kprobe-int3'), net('kprobe-opt'), net('nz-armed-typed-1')
    ok = k is not None and m and k >= 10 * m and (ko is None or ko >= 10 * m)
    goals.append(('A kprobe on the same site: at least 10 times an armed marker',
                  'met' if ok else 'not met',
                  'int3 kprobe %s instructions (%s×), optimized kprobe %s (%s×), '
                  'armed marker with one typed probe %s.' % (
                      fmt(k), fmt(ratio(k, m), 1), fmt(ko), fmt(ratio(ko, m), 1),
                      fmt(m))))
    return goals


if __name__ == '__main__':
    sys.exit(main())
