#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""sites.py - what each disarmed marker site adds to its function's hot path.

Usage: sites.py --csv FILE --md FILE BUILD:ON.ko:OFF.ko... [ref:KO:FN:BASEFN...]

Reads the built modules with objdump. ON.ko holds the sites, built as BUILD
says (a label: each site's mode is read from its code); OFF.ko is the same source built with CONFIG_MARKERS
off, where MARK() compiles to nothing. For each function with a site:

  hot path	the instructions run when every conditional branch falls
		through and the sites are disarmed: a near-zero site's NOP
		falls through, a portable site's branch is not taken (both are
		checked: the out-of-line part is what the branch or the
		jump-table entry targets)
  added		hot path of ON minus hot path of OFF, in instructions and
		bytes; "site" is the site's own part (the NOP; the load,
		compare and branch), "extra" the rest (register saves, stack
		protector...)
  loads		instructions on the hot path that read memory, added
  out of line	where the armed path starts, and what it holds: its
		instructions, its direct calls of the site's trampoline and
		its indirect calls (retpolines)

ref:KO:FN:BASEFN compares two functions of one module instead (the static
key and the tracepoint cases against the empty one).
"""

import argparse
import csv
import re
import subprocess
import sys

TEXT_SECTIONS = ('.text', '.text.unlikely', '.init.text', '.exit.text',
                 '.text.hot', '.noinstr.text')


def objdump(*args):
    return subprocess.run(('objdump',) + args, check=True,
                          capture_output=True, text=True).stdout


class Insn:
    def __init__(self, sec, addr, raw, text):
        self.sec, self.addr = sec, addr
        self.size = len(raw.split())
        self.raw = raw.strip()
        # objdump -w puts the relocations on the instruction's line
        self.relocs = re.findall(r'[0-9a-f]+: R_X86_64_(\S+)\s+(\S+)', text)
        text = text.split('\t')[0]
        parts = text.split(None, 1)
        self.mnem = parts[0] if parts else ''
        self.ops = parts[1].split('#')[0].strip() if len(parts) > 1 else ''

    @property
    def end(self):
        return self.addr + self.size

    def reloc_syms(self):
        return [sym for _, sym in self.relocs]

    def text(self):
        rel = ''.join(' <%s>' % s for s in self.reloc_syms())
        return ('%s %s' % (self.mnem, self.ops)).strip() + rel


class Module:
    def __init__(self, path):
        self.path = path
        self.syms = {}		# name -> (sec, addr, size, is_func)
        self.funcs = []		# (sec, start, end, name)
        for line in objdump('-t', path).splitlines():
            m = re.match(r'^([0-9a-f]+) (.{7}) (\S+)\t([0-9a-f]+) (.*)$', line)
            if not m:
                continue
            addr, flags, sec, size, name = (int(m.group(1), 16), m.group(2),
                                            m.group(3), int(m.group(4), 16),
                                            m.group(5).strip())
            is_func = 'F' in flags
            self.syms.setdefault(name, (sec, addr, size, is_func))
            if is_func and size and sec in TEXT_SECTIONS:
                self.funcs.append((sec, addr, addr + size, name))
        self.insns = {}		# (sec, addr) -> Insn
        self.order = {}		# sec -> [addr...]
        sec = None
        last = None
        for line in objdump('-d', '-r', '-w', path).splitlines():
            m = re.match(r'^Disassembly of section (\S+):', line)
            if m:
                sec = m.group(1)
                self.order.setdefault(sec, [])
                continue
            m = re.match(r'^\s+([0-9a-f]+):\s+R_X86_64_(\S+)\s+(\S+)', line)
            if m and last is not None:
                last.relocs.append((m.group(2), m.group(3)))
                continue
            m = re.match(r'^\s*([0-9a-f]+):\t([0-9a-f ]+)\t(.*)$', line)
            if m and sec:
                insn = Insn(sec, int(m.group(1), 16), m.group(2), m.group(3))
                self.insns[(sec, insn.addr)] = insn
                self.order[sec].append(insn.addr)
                last = insn
        self.jump_entries = self._jump_table()

    def resolve(self, value):
        """'.text+0x2ff' or 'sym+0x10' -> (sec, addr), or None."""
        m = re.match(r'^([^+-]+)([+-]0x[0-9a-f]+)?$', value)
        if not m:
            return None
        base, off = m.group(1), int(m.group(2) or '0', 16)
        if base in self.order or base.startswith('.'):
            return (base, off)
        if base in self.syms:
            sec, addr, _, _ = self.syms[base]
            return (sec, addr + off)
        return None

    def _jump_table(self):
        """[(code (sec, addr), target (sec, addr), key name)]"""
        fields = {}
        try:
            out = objdump('-r', '-j', '__jump_table', self.path)
        except subprocess.CalledProcessError:
            return []
        for line in out.splitlines():
            m = re.match(r'^([0-9a-f]+) (R_X86_64_\S+)\s+(\S+)$', line)
            if m:
                off = int(m.group(1), 16)
                fields[(off // 16, off % 16)] = m.group(3)
        entries = []
        for (i, f), value in sorted(fields.items()):
            if f != 0 or (i, 4) not in fields or (i, 8) not in fields:
                continue
            # the target is stored relative to its own field: +4 undone
            code = self.resolve(value)
            target = self.resolve(fields[(i, 4)])
            if target:
                target = (target[0], target[1])
            key = re.split(r'[+-]', fields[(i, 8)])[0]
            entries.append((code, target, key))
        return entries

    def func_of(self, sec, addr):
        for fsec, start, end, name in self.funcs:
            if fsec == sec and start <= addr < end:
                return (name, start, end)
        return None

    def func(self, name):
        for fsec, start, end, fname in self.funcs:
            if fname == name:
                return (fsec, start, end)
        return None

    def insn(self, sec, addr):
        return self.insns.get((sec, addr))


def is_return(insn):
    return insn.mnem.startswith('ret') or (
        insn.mnem == 'jmp' and any('return_thunk' in s for s in insn.reloc_syms()))


def is_indirect(insn):
    return ((insn.mnem in ('call', 'jmp') and insn.ops.startswith('*')) or
            any('indirect_thunk' in s for s in insn.reloc_syms()))


def branch_target(insn):
    """A direct jump's or call's target in the same section, or None."""
    if insn.relocs:
        return None
    m = re.match(r'^([0-9a-f]+)( <.*>)?$', insn.ops)
    return int(m.group(1), 16) if m else None


def reads_memory(insn):
    mnem = insn.mnem
    if mnem.startswith(('lea', 'nop', 'push', 'prefetch')) or mnem == 'xchg' and insn.ops == '%ax,%ax':
        return False
    if mnem.startswith('pop'):
        return True
    ops = re.split(r',(?![^(]*\))', insn.ops)
    mem = ['(' in op or re.search(r'%[gf]s:', op) for op in ops]
    if not any(mem):
        return False
    if len(ops) == 1:
        return not mnem.startswith('set')
    if mem[0]:
        return True
    # a memory destination: read too unless it is a plain store
    return not mnem.startswith('mov')


def hot_path(mod, sec, start, end, skip_jcc=()):
    """The instructions from @start when every conditional branch falls
    through, following direct jumps inside the function."""
    path, seen, addr = [], set(), start
    while (sec, addr) in mod.insns and addr not in seen:
        insn = mod.insn(sec, addr)
        seen.add(addr)
        path.append(insn)
        if is_return(insn) or insn.mnem in ('ud2', 'int3', 'hlt'):
            break
        if insn.mnem == 'jmp':
            target = branch_target(insn)
            if target is None or not start <= target < end:
                break		# a tail call, or an indirect jump
            addr = target
            continue
        addr = insn.end
    return path


def portable_sites(mod, path):
    """On a hot path: each load from a site descriptor followed, within two
    instructions, by a conditional branch: [(first, jcc, [insns])]."""
    sites = []
    for i, insn in enumerate(path):
        if not any(s.startswith('__markers') for s in insn.reloc_syms()):
            continue
        for j in range(i + 1, min(i + 3, len(path))):
            if path[j].mnem.startswith('j') and path[j].mnem != 'jmp':
                sites.append((insn, path[j], path[i:j + 1]))
                break
    return sites


def site_name(mod, insn):
    """The site a portable load reads: the __marker_site_* around it."""
    for _, sym in insn.relocs:
        target = mod.resolve(sym)
        if not target:
            continue
        for name, (sec, addr, size, _) in mod.syms.items():
            if (sec == target[0] and name.startswith('__marker_site_') and
                    addr <= target[1] + 4 < addr + size):
                return re.sub(r'\.\d+$', '', name[len('__marker_site_'):])
    return '?'


def callee_indirect(mod, insn):
    """The indirect calls in the module's function that @insn calls."""
    target = None
    for _, sym in insn.relocs:
        target = mod.resolve(sym)
        if target:
            target = (target[0], target[1] + 4)	# PC32: -4 undone
    if target is None and branch_target(insn) is not None:
        target = (insn.sec, branch_target(insn))
    if target is None:
        return 0
    f = mod.func_of(*target)
    if not f or f[1] != target[1]:
        return 0
    sec = target[0]
    return sum(1 for (s, a), i in mod.insns.items()
               if s == sec and f[1] <= a < f[2] and is_indirect(i))


def out_of_line(mod, sec, entry, hot_addrs):
    """Walk the armed path from @entry until it joins the hot path:
    (instructions, direct calls of a trampoline, indirect calls, in it or
    in the module's functions it calls, the functions it calls)."""
    todo, seen = [entry], set()
    insns = []
    while todo:
        addr = todo.pop()
        while (sec, addr) in mod.insns and addr not in seen and addr not in hot_addrs:
            insn = mod.insn(sec, addr)
            seen.add(addr)
            insns.append(insn)
            if is_return(insn) or insn.mnem in ('ud2', 'int3'):
                break
            target = branch_target(insn)
            if insn.mnem == 'jmp':
                if target is None:
                    break
                addr = target
                continue
            if insn.mnem.startswith('j') and target is not None:
                todo.append(target)
            addr = insn.end
    tramp = sum(1 for i in insns if i.mnem == 'call' and any(
        s.startswith(('.static_call.text', '__marker_tramp')) for s in i.reloc_syms()))
    indirect = sum(1 for i in insns if is_indirect(i))
    indirect += sum(callee_indirect(mod, i) for i in insns
                    if i.mnem == 'call' and not is_indirect(i))
    calls = {re.split(r'[+-]', s)[0] for i in insns if i.mnem == 'call'
             for s in i.reloc_syms()}
    for i in insns:
        f = (mod.func_of(sec, branch_target(i))
             if i.mnem == 'call' and branch_target(i) is not None else None)
        if f:
            calls.add(f[0])
    return len(insns), tramp, indirect, calls


def where(mod, sec, addr, func):
    f = mod.func_of(sec, addr)
    if f and f[0] == func:
        return '%s+%#x, same function, after its return' % (func, addr - f[1])
    if f:
        return '%s+%#x (%s)' % (f[0], addr - f[1], sec)
    return '%s+%#x' % (sec, addr)


def loads(path):
    return sum(1 for i in path if reads_memory(i))


def analyse(on_path, off_path):
    on, off = Module(on_path), Module(off_path)
    rows = []
    for sec, start, end, name in on.funcs:
        if name.startswith('__marker'):
            continue
        nops = [(code, target, key) for code, target, key in on.jump_entries
                if code and code[0] == sec and start <= code[1] < end and
                key.startswith('__marker_key_')]
        path = hot_path(on, sec, start, end)
        ports = portable_sites(on, path)
        if not nops and not ports:
            continue
        hot_addrs = {i.addr for i in path}
        site_insns, names, ool, kinds = [], [], [], []
        for code, target, key in nops:
            insn = on.insn(*code)
            site_insns.append([insn])
            names.append(key[len('__marker_key_'):])
            kinds.append('nop %s' % insn.raw)
            ool.append((target, out_of_line(on, target[0], target[1], hot_addrs)))
        for first, jcc, insns in ports:
            site_insns.append(insns)
            names.append(site_name(on, first))
            kinds.append('; '.join(i.text() for i in insns))
            target = (sec, branch_target(jcc))
            ool.append((target, out_of_line(on, sec, target[1], hot_addrs)))
        off_f = off.func(name)
        off_path_ = hot_path(off, *off_f) if off_f else None
        n_site = sum(len(s) for s in site_insns)
        b_site = sum(i.size for s in site_insns for i in s)
        row = {
            'module': on_path.rsplit('/', 1)[-1],
            'mode': ('near-zero' if not ports else
                     'portable' if not nops else 'mixed'),
            'function': name,
            'sites': ' '.join(sorted(set(names))),
            'nsites': len(site_insns),
            'site_code': ' | '.join(kinds),
            'site_insns': n_site,
            'site_bytes': b_site,
            'site_loads': sum(1 for s in site_insns for i in s if reads_memory(i)),
            'hot_insns': len(path),
            'hot_bytes': sum(i.size for i in path),
            'off_insns': len(off_path_) if off_path_ else '',
            'off_bytes': sum(i.size for i in off_path_) if off_path_ else '',
            'hot_indirect': sum(1 for i in path if is_indirect(i)),
            'out_of_line': '; '.join(where(on, t[0], t[1], name) for t, _ in ool),
            'ool_insns': sum(o[0] for _, o in ool),
            'ool_tramp_calls': sum(o[1] for _, o in ool),
            'ool_indirect_calls': sum(o[2] for _, o in ool),
            'ool_calls': ' '.join(sorted(set().union(*(o[3] for _, o in ool)))),
        }
        if off_path_ is not None:
            row['added_insns'] = row['hot_insns'] - row['off_insns']
            row['added_bytes'] = row['hot_bytes'] - row['off_bytes']
            row['extra_insns'] = row['added_insns'] - n_site
            row['added_loads'] = loads(path) - loads(off_path_)
            row['extra'] = extra_insns(path, off_path_, site_insns)
        rows.append(row)
    return rows


def extra_insns(path, off_path, site_insns):
    """The hot-path instructions of ON that OFF lacks, besides the sites',
    by mnemonic: a multiset difference, enough to name them."""
    have = {}
    for i in off_path:
        have[i.mnem] = have.get(i.mnem, 0) + 1
    site = {id(i) for s in site_insns for i in s}
    extra = []
    for i in path:
        if id(i) in site:
            continue
        if have.get(i.mnem, 0):
            have[i.mnem] -= 1
        else:
            extra.append(i.mnem)
    return ' '.join(extra)


def reference(ko, fn, base):
    mod = Module(ko)
    f, b = mod.func(fn), mod.func(base)
    path, bpath = hot_path(mod, *f), hot_path(mod, *b)
    return {
        'module': ko.rsplit('/', 1)[-1], 'mode': 'reference', 'function': fn,
        'sites': '(%s vs %s)' % (fn, base), 'nsites': '',
        'site_code': '', 'site_insns': '', 'site_bytes': '', 'site_loads': '',
        'hot_insns': len(path), 'hot_bytes': sum(i.size for i in path),
        'off_insns': len(bpath), 'off_bytes': sum(i.size for i in bpath),
        'added_insns': len(path) - len(bpath),
        'added_bytes': sum(i.size for i in path) - sum(i.size for i in bpath),
        'extra_insns': '', 'added_loads': loads(path) - loads(bpath),
        'hot_indirect': sum(1 for i in path if is_indirect(i)),
        'out_of_line': '', 'ool_insns': '', 'ool_tramp_calls': '',
        'ool_indirect_calls': '', 'ool_calls': '',
        'extra': extra_insns(path, bpath, []),
    }


FIELDS = ['module', 'mode', 'function', 'sites', 'nsites', 'site_code',
          'site_insns', 'site_bytes', 'site_loads', 'hot_insns', 'hot_bytes',
          'off_insns', 'off_bytes', 'added_insns', 'added_bytes', 'extra_insns',
          'added_loads', 'extra', 'hot_indirect', 'out_of_line', 'ool_insns',
          'ool_tramp_calls', 'ool_indirect_calls', 'ool_calls']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--csv', required=True)
    ap.add_argument('--md', required=True)
    ap.add_argument('specs', nargs='+')
    args = ap.parse_args()
    rows = []
    for spec in args.specs:
        kind, a, b, *rest = spec.split(':')
        if kind == 'ref':
            rows.append(reference(a, b, rest[0]))
        else:
            rows += analyse(a, b)	# the mode is read from the code
    with open(args.csv, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, extrasaction='ignore')
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, '') for k in FIELDS})
    with open(args.md, 'w') as f:
        f.write('| module | mode | function | site(s) | the site | hot path '
                '(insns/bytes) | without markers | added insns (bytes) | '
                'of which extra | loads added | indirect on hot path | '
                'out-of-line part | out of line: insns, trampoline calls, '
                'indirect calls |\n')
        f.write('|' + '---|' * 13 + '\n')
        for r in rows:
            f.write('| %s | %s | %s | %s | `%s` | %s/%s | %s/%s | %s (%s) | '
                    '%s%s | %s | %s | %s | %s |\n' % (
                        r['module'], r['mode'], r['function'], r['sites'],
                        r['site_code'] or '-', r['hot_insns'], r['hot_bytes'],
                        r['off_insns'], r['off_bytes'], r.get('added_insns', '-'),
                        r.get('added_bytes', '-'), r.get('extra_insns', '-'),
                        ': ' + r['extra'] if r.get('extra') else '',
                        r.get('added_loads', '-'), r['hot_indirect'],
                        r['out_of_line'] or '-',
                        '%s, %s, %s' % (r['ool_insns'], r['ool_tramp_calls'],
                                        r['ool_indirect_calls'])
                        if r['ool_insns'] != '' else '-'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
