# SPDX-License-Identifier: GPL-2.0-only
#
# Out-of-tree build of marker.ko, the samples and the test modules.
#
#   make [KDIR=...] [MARKERS_MODE=portable]	build the modules
#   make check					install what is missing, build,
#						run every test in a QEMU guest,
#						in both modes
#   make check-intree [KERNEL=6.12]		the in-tree stages (KUnit...)
#						on linux-source-6.1 or 6.12
#   make demo					the 2006 scenario, in a guest
#   make style					checkpatch --strict,
#						kernel-doc -Wall, shellcheck,
#						the docs (build/docs)
#   make bench					what a marker costs, in QEMU
#						(build/bench/report.md)
#   make check-debug				the whole suite on the debug
#						kernel (make check leaves out
#						the user-space tools' tests)
#   make stress [STRESS_CYCLES=N]		the stress test on the debug
#						kernel (test.d/stress/)
#   make faults					every fault injection test on
#						the debug kernel (test.d/faults/)
#   make install [DESTDIR=...]			marker.ko and the loader for
#						KDIR's kernel, the header,
#						markerctl if it was built
#
# KDIR: what the command line or the environment gives, always. Otherwise
# the tree of Debian's linux-headers-amd64 metapackage, the package it
# depends on (/usr/src/linux-headers-6.1.0-NN-amd64): the kernel of
# linux-image-amd64, which the test rig boots; other installed headers
# (rt, 6.12, ...) are never picked. Without the metapackage, the running
# kernel's build tree. It is looked up each time a recipe uses it, never
# while make reads this file: make check, demo and bench install the
# headers first (deps.sh), then run their scripts with KDIR exported.
# The targets that build against KDIR check it (and CONFIG_JUMP_LABEL,
# CONFIG_MODULES, CONFIG_KALLSYMS_ALL) when they run.

DEBIAN_KDIR = $(shell \
	h=$$(dpkg-query -W -f='$${db:Status-Abbrev}$${Depends}' \
		linux-headers-amd64 2>/dev/null | \
		sed -n 's/^ii *\(linux-headers-[^ ,]*\).*/\1/p'); \
	r=/lib/modules/$$(uname -r)/build; \
	if [ -n "$$h" ] && [ -d "/usr/src/$$h" ]; then echo "/usr/src/$$h"; \
	elif [ -d "$$r" ]; then echo "$$r"; fi)

ifneq ($(filter undefined environment,$(origin KDIR)),)
ifeq ($(KDIR),)
KDIR = $(DEBIAN_KDIR)
endif
endif
MARKERS_MODE ?= near-zero
export KDIR

all: modules markerctl

kdir:
	@kdir='$(KDIR)'; conf=$$kdir/include/config/auto.conf; \
	if [ -z "$$kdir" ] || [ ! -f "$$kdir/Makefile" ]; then \
		echo "no kernel build tree$${kdir:+ in $$kdir}: install linux-headers-amd64 or pass KDIR=" >&2; \
		exit 1; \
	fi; \
	for c in JUMP_LABEL MODULES KALLSYMS_ALL; do \
		[ ! -f "$$conf" ] || grep -q "^CONFIG_$$c=y" "$$conf" || \
			no="$${no:-}$${no:+, }CONFIG_$$c"; \
	done; \
	if [ -n "$${no:-}" ]; then echo "$$kdir lacks $$no" >&2; exit 1; fi

modules: kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) MARKERS_MODE=$(MARKERS_MODE) modules

markerctl:
	$(MAKE) -C tools/markerctl

# make install: what a machine running KDIR's kernel needs. The modules go
# to /lib/modules/<release>/updates/markers (release as the kernel reports
# it, from KDIR's utsrelease.h); the headers and Module.symvers go where probe
# modules built elsewhere find them (-I and KBUILD_EXTRA_SYMBOLS, see
# Documentation/markers-intree.rst). For every installed kernel, use DKMS
# (dkms.conf) instead.
KRELEASE = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
		$(KDIR)/include/generated/utsrelease.h)
PREFIX ?= /usr
MODDIR = /lib/modules/$(KRELEASE)/updates/markers
SRCDIR = $(PREFIX)/src/markers
SHIPPED_MODULES = kernel/marker.ko loader/marker_loader.ko
PUBLIC_HEADERS = include/linux/marker.h include/linux/marker-defs.h
ARCH_INCLUDE = arch/x86/include

install: modules
	install -d $(DESTDIR)$(MODDIR) $(DESTDIR)$(SRCDIR)/include/linux \
		$(DESTDIR)$(SRCDIR)/$(ARCH_INCLUDE)/asm $(DESTDIR)$(SRCDIR)/$(KRELEASE)
	install -m 0644 $(SHIPPED_MODULES) $(DESTDIR)$(MODDIR)/
	install -m 0644 $(PUBLIC_HEADERS) $(DESTDIR)$(SRCDIR)/include/linux/
	install -m 0644 $(ARCH_INCLUDE)/asm/marker.h $(DESTDIR)$(SRCDIR)/$(ARCH_INCLUDE)/asm/
	install -m 0644 Module.symvers $(DESTDIR)$(SRCDIR)/$(KRELEASE)/
	install -m 0644 scripts/markers.kbuild $(DESTDIR)$(SRCDIR)/
	if [ -x tools/markerctl/markerctl ]; then \
		install -D -m 0755 tools/markerctl/markerctl \
			$(DESTDIR)$(PREFIX)/sbin/markerctl; \
	fi
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KRELEASE); fi

clean: kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tools/markerctl clean
	rm -rf build

# deps-<target> runs first, as a prerequisite: make builds a recipe's
# environment (the exported KDIR) when the recipe starts, so the scripts
# see the headers deps.sh has just installed.
# Every stage runs, whatever failed before it; 6.1's in-tree stages last,
# so that their closing count is the last line.
check: deps-check
	rc=0; \
	tools/testing/markers/style.sh || rc=1; \
	tools/testing/markers/check.sh || rc=1; \
	KERNEL=6.12 tools/testing/markers/intree.sh || rc=1; \
	tools/testing/markers/intree.sh || rc=1; \
	exit $$rc

# The in-tree stages alone; KERNEL=6.12 for linux-source-6.12 (KUnit and the
# built-in kernel).
check-intree: deps-check
	tools/testing/markers/intree.sh

demo: deps-demo
	tools/testing/markers/demo.sh

style: deps-style
	tools/testing/markers/style.sh

bench: deps-bench
	tools/testing/markers/bench/bench.sh

# The whole suite on the debug kernel, the tests of markerctl, perf,
# bpftrace and trace-cmd included (make check runs them on Debian's kernels).
check-debug: deps-check
	STAGES=debug MARKERS_DEBUG_SKIP= tools/testing/markers/intree.sh

# The stress test alone, long, on the debug kernel (lockdep, KASAN,
# kmemleak); make check runs it short on every kernel.
STRESS_CYCLES ?= 1000
stress: deps-check
	STAGES=debug MARKERS_STRESS_CYCLES=$(STRESS_CYCLES) \
		tools/testing/markers/intree.sh

# Every fault injection test, each allocation of each module load failing
# in turn, on the debug kernel; make check runs the control file's.
# FAULTS="faults_arrival ...": only those (tools/testing/markers/test.d/faults/).
FAULTS ?= 1
faults: deps-check
	STAGES=debug MARKERS_FAULTS="$(FAULTS)" tools/testing/markers/intree.sh

deps-check deps-demo deps-bench deps-style:
	tools/testing/markers/deps.sh $(@:deps-%=%)

print-kdir: kdir
	@echo $(KDIR)

.PHONY: all kdir modules markerctl install clean check check-intree check-debug demo style print-kdir \
	bench stress faults deps-check deps-demo deps-bench
