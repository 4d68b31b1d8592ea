# SPDX-License-Identifier: GPL-2.0-only
#
# Sphinx configuration for "make style" (tools/testing/markers/style.sh):
# these pages and their API reference, built as the kernel builds its
# documentation, with its kerneldoc extension and its kernel-doc script,
# both from Debian's linux-source-6.12, extracted into build/style.
# The kernel-doc directives name files from the top of this tree.

import os
import sys

top = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
kernel = os.path.join(top, 'build', 'style')
sys.path.insert(0, os.path.join(kernel, 'Documentation', 'sphinx'))

project = 'markers'
extensions = ['kerneldoc']
kerneldoc_bin = os.path.join(kernel, 'scripts', 'kernel-doc')
kerneldoc_srctree = top

primary_domain = 'c'
highlight_language = 'none'
exclude_patterns = []
html_theme = 'alabaster'
