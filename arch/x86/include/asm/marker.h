/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the markers need to know about x86_64: the bytes of a site's
 * static-call trampoline, and how to read the instruction the static-key
 * API leaves at a near-zero site. <linux/marker.h> includes this header;
 * nothing else in the markers writes an opcode.
 */
#ifndef _ASM_X86_MARKER_H
#define _ASM_X86_MARKER_H

#include <linux/objtool.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/nops.h>

#ifdef CONFIG_HAVE_STATIC_CALL
/*
 * ARCH_MARKER_TRAMP(tsym) - a static-call trampoline of a site's own
 *
 * In the layout x86's arch_static_call_transform() validates: a 5-byte
 * JMP (to the return thunk: "no probe"), then the 0f b9 cc signature.
 * Retargeting it is the 2006 "call target" update, done by
 * text_poke_bp(). The trampoline is exempted from stack validation because
 * of the signature.
 *
 * __ARCH_DEFINE_STATIC_CALL_TRAMP() writes the same bytes, but not for a
 * site: it names the trampoline __SCT__<name>, global, once per kernel.
 * A site's is local to its file, emitted once however often the compiler
 * copies the site (.ifndef), and not __SCT__-prefixed, so that objtool
 * leaves the calls to it alone (it would list them in .static_call_sites,
 * for the kernel's own static calls to patch).
 *
 * It is only ever called directly, never through a pointer: the site
 * descriptor keeps its address for the registry to retarget it, so, as
 * the kernel's own static-call trampolines, it has no ENDBR and says so
 * to objtool (IBT kernels: "data relocation to !ENDBR" otherwise). The
 * kernel's ANNOTATE_NOENDBR writes the .discard.noendbr entry in the
 * format its objtool reads (6.1: .quad, 6.12: .long), so this header,
 * installed alone, needs no wrapper for it.
 */
#define ARCH_MARKER_TRAMP(tsym)						\
	asm(".pushsection .static_call.text, \"ax\"\n"			\
	    ".ifndef " tsym "\n"					\
	    ".align 4\n"						\
	    tsym ":\n"							\
	    ANNOTATE_NOENDBR						\
	    ".byte 0xe9; .long __x86_return_thunk - (. + 4)\n"		\
	    ".byte 0x0f, 0xb9, 0xcc\n"					\
	    ".type " tsym ", @function\n"				\
	    ".size " tsym ", . - " tsym "\n"				\
	    ".pushsection .discard.func_stack_frame_non_standard, \"aw\"\n" \
	    ".quad " tsym "\n"						\
	    ".popsection\n"						\
	    ".endif\n"							\
	    ".popsection\n")
#endif /* CONFIG_HAVE_STATIC_CALL */

/**
 * arch_marker_insn() - decode the instruction at a near-zero site
 * @p: the code of a jump-table entry
 * @nop: set to whether it is the NOP of a disarmed site
 *
 * The static-key API leaves a 2- or 5-byte NOP at a disarmed site, a JMP
 * of the same length at an armed one.
 *
 * Return: the instruction's length in bytes; 1 for anything else, so that
 * a listing shows its first byte.
 */
static inline int arch_marker_insn(const u8 *p, bool *nop)
{
	static const u8 nop2[] = { BYTES_NOP2 }, nop5[] = { BYTES_NOP5 };

	*nop = true;
	if (!memcmp(p, nop2, sizeof(nop2)))
		return sizeof(nop2);
	if (!memcmp(p, nop5, sizeof(nop5)))
		return sizeof(nop5);
	*nop = false;
	switch (p[0]) {
	case 0xeb:			/* JMP rel8 */
		return 2;
	case 0xe9:			/* JMP rel32 */
		return 5;
	}
	return 1;
}

#endif /* _ASM_X86_MARKER_H */
