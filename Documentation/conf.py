# SPDX-License-Identifier: GPL-2.0-only
#
# Sphinx configuration for "make style" (tools/testing/markers/style.sh):
# these pages and their API reference, built as the kernel builds its
# documentation, with its kerneldoc extension and its kernel-doc script,
# both from Debian's linux-source-6.12, extracted into build/style.
# The kernel-doc directives name the files where a kernel tree has them
# (scripts/integrate.sh links these pages into Documentation/trace/markers/,
# where "make htmldocs" builds them): build/docs-src is that layout, of
# links to this tree.

import os
import sys

top = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
kernel = os.path.join(top, 'build', 'style')
sys.path.insert(0, os.path.join(kernel, 'Documentation', 'sphinx'))

project = 'markers'
extensions = ['kerneldoc']
kerneldoc_bin = os.path.join(kernel, 'scripts', 'kernel-doc')
kerneldoc_srctree = os.path.join(top, 'build', 'docs-src')
for link, target in (('include', 'include'), ('kernel/markers', 'kernel')):
    path = os.path.join(kerneldoc_srctree, link)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if not os.path.islink(path):
        os.symlink(os.path.join(top, target), path)

primary_domain = 'c'
highlight_language = 'none'
exclude_patterns = []
html_theme = 'alabaster'
