// SPDX-License-Identifier: GPL-2.0-only
/*
 * hot-paths-load - a whole-system workload through the hot paths that
 * scripts/graft/hot-paths/ marks, run in the QEMU guest (static, for the
 * rig's busybox initramfs):
 *
 *	hot-paths-load ROUNDS REPS FILE BLOCKDEV
 *
 * Five phases of ROUNDS operations each, every one through the marked
 * path once, the five run REPS times over:
 *
 *	open	open() and close() of FILE             fs_open
 *	bio	a 4 KiB O_DIRECT pwrite() to BLOCKDEV  block_submit_bio
 *	xmit	a UDP datagram to 127.0.0.1, read back net_dev_xmit (on lo)
 *	switch	a byte sent to a child through a pipe
 *		and back (two context switches)        sched_switch
 *	page	a page of an anonymous mapping touched
 *		and unmapped                           mm_page_alloc
 *
 * For each phase, and for all of them, one line:
 *
 *	hot-paths-load: PHASE ROUNDS ns NS max MAX
 *
 * NS is the least of the REPS advances of CLOCK_MONOTONIC over the phase,
 * MAX the greatest; for "all", the sums. Under QEMU's "-icount shift=0" on
 * one vCPU they are the instructions the guest executed (the workload, the
 * kernel on its behalf, interrupts), the figure make bench compares
 * between two kernels. Every phase keeps the CPU busy (the pipe's partner
 * is always runnable), so no idle time enters the count; what else the
 * kernel does meanwhile (its threads, timers) does, and the least of
 * several runs leaves most of it out.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long rounds;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void phase_open(const char *file)
{
	for (long i = 0; i < rounds; i++) {
		int fd = open(file, O_RDONLY);

		if (fd < 0)
			die(file);
		close(fd);
	}
}

static void phase_bio(const char *dev)
{
	void *buf;
	int fd = open(dev, O_WRONLY | O_DIRECT);

	if (fd < 0)
		die(dev);
	if (posix_memalign(&buf, 4096, 4096))
		die("posix_memalign");
	memset(buf, 0x5a, 4096);
	for (long i = 0; i < rounds; i++)
		if (pwrite(fd, buf, 4096, (i % 256) * 4096) != 4096)
			die("pwrite");
	free(buf);
	close(fd);
}

static void phase_xmit(void)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	struct ifreq ifr = { .ifr_name = "lo" };
	socklen_t len = sizeof(to);
	char byte = 0;
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	int r = socket(AF_INET, SOCK_DGRAM, 0);

	if (s < 0 || r < 0)
		die("socket");
	/* lo up, if nobody has brought it up */
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		die("SIOCGIFFLAGS lo");
	if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
			die("SIOCSIFFLAGS lo");
	}
	/*
	 * A receiver on a port of its own, each datagram read back: one
	 * transmit a round (to a port nobody listens on, each would bring
	 * an ICMP port unreachable, a second transmit, rate-limited)
	 */
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(r, (struct sockaddr *)&to, sizeof(to)) < 0 ||
	    getsockname(r, (struct sockaddr *)&to, &len) < 0)
		die("bind");
	for (long i = 0; i < rounds; i++)
		if (sendto(s, &byte, 1, 0, (struct sockaddr *)&to,
			   sizeof(to)) != 1 || recv(r, &byte, 1, 0) != 1)
			die("sendto, recv");
	close(r);
	close(s);
}

static void phase_switch(void)
{
	int down[2], up[2];
	char c = 0;
	pid_t child;

	if (pipe(down) || pipe(up))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		close(down[1]);
		close(up[0]);
		while (read(down[0], &c, 1) == 1)
			if (write(up[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(down[0]);
	close(up[1]);
	for (long i = 0; i < rounds; i++)
		if (write(down[1], &c, 1) != 1 || read(up[0], &c, 1) != 1)
			die("pipe round trip");
	close(down[1]);		/* the child's read() returns 0: it exits */
	waitpid(child, NULL, 0);
	close(up[0]);
}

static void phase_page(void)
{
	for (long i = 0; i < rounds; i++) {
		char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			die("mmap");
		p[0] = 1;
		munmap(p, 4096);
	}
}

enum { OPEN, BIO, XMIT, SWITCH, PAGE, PHASES };

static const char * const names[PHASES] = {
	"open", "bio", "xmit", "switch", "page"
};

int main(int argc, char **argv)
{
	unsigned long long lo[PHASES], hi[PHASES], sum_lo = 0, sum_hi = 0;
	long reps;

	if (argc != 5) {
		fprintf(stderr, "usage: hot-paths-load ROUNDS REPS FILE BLOCKDEV\n");
		return 2;
	}
	rounds = atol(argv[1]);
	reps = atol(argv[2]);
	if (rounds < 1 || reps < 1) {
		fprintf(stderr, "hot-paths-load: ROUNDS and REPS must be positive\n");
		return 2;
	}

	for (long r = 0; r < reps; r++) {
		for (int p = 0; p < PHASES; p++) {
			unsigned long long t0 = now_ns(), ns;

			switch (p) {
			case OPEN:
				phase_open(argv[3]);
				break;
			case BIO:
				phase_bio(argv[4]);
				break;
			case XMIT:
				phase_xmit();
				break;
			case SWITCH:
				phase_switch();
				break;
			case PAGE:
				phase_page();
				break;
			}
			ns = now_ns() - t0;
			if (!r || ns < lo[p])
				lo[p] = ns;
			if (!r || ns > hi[p])
				hi[p] = ns;
		}
	}
	for (int p = 0; p < PHASES; p++) {
		printf("hot-paths-load: %s %ld ns %llu max %llu\n", names[p],
		       rounds, lo[p], hi[p]);
		sum_lo += lo[p];
		sum_hi += hi[p];
	}
	printf("hot-paths-load: all %ld ns %llu max %llu\n", rounds, sum_lo,
	       sum_hi);
	return 0;
}
