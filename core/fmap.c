// SPDX-License-Identifier: MIT
/*
 * Files mapped once (core/fmap.h). The fault of a mapping whose file
 * shrank is SIGBUS, synchronous, raised by the very load that touched the
 * page: one process-wide handler, installed with the first mapping, jumps
 * back to the fmap_run() of the thread that faulted when the address is in
 * the mapping it guards; any other SIGBUS goes to the handler that was
 * there before (a sanitizer's), or kills as it would have.
 */
#include "core/fmap.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/banned.h"

/* the guarded run of this thread: its mapping and where to jump back */
static __thread const struct fmap *volatile guarded;
static __thread sigjmp_buf *volatile guard_jump;

static struct sigaction previous;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;

static void on_sigbus(int sig, siginfo_t *info, void *uc)
{
	const struct fmap *m = guarded;
	const char *at = info ? (const char *)info->si_addr : NULL;

	if (m && guard_jump && at >= m->data && at < m->data + m->size)
		siglongjmp(*guard_jump, 1);
	if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
		previous.sa_sigaction(sig, info, uc);
		return;
	}
	if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN &&
	    previous.sa_handler) {
		previous.sa_handler(sig);
		return;
	}
	/* not ours: the default again, and the load faults again, fatally */
	signal(sig, SIG_DFL);
}

static void install_handler(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &previous);
}

bool fmap_open(struct fmap *m, const char *path)
{
	struct stat st;
	void *p;
	int fd;

	m->data = NULL;
	m->size = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		errno = 0;
		return false;
	}
	pthread_once(&handler_once, install_handler);
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd); /* the mapping holds the file */
	if (p == MAP_FAILED)
		return false;
	/* read ahead of the passes, which go through it in order */
	madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
	m->data = p;
	m->size = (uint64_t)st.st_size;
	return true;
}

void fmap_close(struct fmap *m)
{
	if (m->data)
		munmap((void *)m->data, (size_t)m->size);
	m->data = NULL;
	m->size = 0;
}

bool fmap_run(const struct fmap *m, void (*fn)(void *ctx), void *ctx)
{
	sigjmp_buf jump;

	/* no mask to restore: the handler runs with SIGBUS not blocked */
	if (sigsetjmp(jump, 0)) {
		guarded = NULL;
		guard_jump = NULL;
		return false;
	}
	guard_jump = &jump;
	guarded = m;
	fn(ctx);
	guarded = NULL;
	guard_jump = NULL;
	return true;
}

struct copy_args {
	void *dst;
	const void *src;
	size_t n;
};

static void copy_guarded(void *ctx)
{
	struct copy_args *a = ctx;

	memcpy(a->dst, a->src, a->n);
}

bool fmap_copy(const struct fmap *m, void *dst, uint64_t off, size_t n)
{
	struct copy_args a = {dst, m->data + off, n};

	if (!m->data || off > m->size || n > m->size - off)
		return false;
	return fmap_run(m, copy_guarded, &a);
}
