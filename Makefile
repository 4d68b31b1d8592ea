# SPDX-License-Identifier: GPL-2.0-only
#
# Out-of-tree build of marker.ko, the samples and the test modules.
#
#   make [KDIR=...] [MARKERS_MODE=portable]	build the modules
#   make check					install what is missing, build,
#						run every test in a QEMU guest,
#						in both modes
#   make demo					the 2006 scenario, in a guest
#   make style					checkpatch --strict
#   make bench					what a marker costs, in QEMU
#						(build/bench/report.md)
#   make install [DESTDIR=...]			marker.ko and the loader for
#						KDIR's kernel, the header,
#						markerctl if it was built
#
# KDIR defaults to the running kernel's build tree, else the newest Debian
# linux-headers-*-amd64 (what the test rig boots).

KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
		    $(lastword $(sort $(wildcard /usr/src/linux-headers-*-amd64))))
MARKERS_MODE ?= near-zero
export KDIR

ifeq ($(KDIR),)
$(error no kernel build tree: install linux-headers-amd64 or pass KDIR=)
endif

KCONFIG := $(KDIR)/include/config/auto.conf
ifneq ($(wildcard $(KCONFIG)),)
ifneq ($(shell grep -c '^CONFIG_\(JUMP_LABEL\|MODULES\|KALLSYMS_ALL\)=y' $(KCONFIG)),3)
$(error $(KDIR) lacks CONFIG_JUMP_LABEL, CONFIG_MODULES or CONFIG_KALLSYMS_ALL)
endif
endif

all: modules markerctl

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) MARKERS_MODE=$(MARKERS_MODE) modules

markerctl:
	$(MAKE) -C tools/markerctl

# make install: what a machine running KDIR's kernel needs. The modules go
# to /lib/modules/<release>/updates/markers (release as the kernel reports
# it, from KDIR's utsrelease.h); marker.h and Module.symvers go where probe
# modules built elsewhere find them (-I and KBUILD_EXTRA_SYMBOLS, see
# Documentation/markers-intree.rst). For every installed kernel, use DKMS
# (dkms.conf) instead.
KRELEASE = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
		$(KDIR)/include/generated/utsrelease.h)
PREFIX ?= /usr
MODDIR = /lib/modules/$(KRELEASE)/updates/markers
SRCDIR = $(PREFIX)/src/markers
SHIPPED_MODULES = kernel/marker.ko loader/marker_loader.ko

install: modules
	install -d $(DESTDIR)$(MODDIR) $(DESTDIR)$(SRCDIR)/include/linux \
		$(DESTDIR)$(SRCDIR)/$(KRELEASE)
	install -m 0644 $(SHIPPED_MODULES) $(DESTDIR)$(MODDIR)/
	install -m 0644 include/linux/marker.h $(DESTDIR)$(SRCDIR)/include/linux/
	install -m 0644 Module.symvers $(DESTDIR)$(SRCDIR)/$(KRELEASE)/
	if [ -x tools/markerctl/markerctl ]; then \
		install -D -m 0755 tools/markerctl/markerctl \
			$(DESTDIR)$(PREFIX)/sbin/markerctl; \
	fi
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KRELEASE); fi

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tools/markerctl clean
	rm -rf build

check:
	tools/testing/markers/deps.sh
	tools/testing/markers/check.sh
	tools/testing/markers/intree.sh

demo:
	tools/testing/markers/deps.sh
	tools/testing/markers/demo.sh

style:
	tools/testing/markers/style.sh

bench:
	tools/testing/markers/deps.sh
	tools/testing/markers/bench/bench.sh

print-kdir:
	@echo $(KDIR)

.PHONY: all modules markerctl install clean check demo style print-kdir bench
