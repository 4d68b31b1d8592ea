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

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tools/markerctl clean
	rm -rf build

check:
	tools/testing/markers/deps.sh
	tools/testing/markers/check.sh

demo:
	tools/testing/markers/deps.sh
	tools/testing/markers/demo.sh

style:
	tools/testing/markers/style.sh

bench:
	tools/testing/markers/deps.sh
	tools/testing/markers/bench/bench.sh

.PHONY: all modules markerctl clean check demo style bench
