// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the vmcore readers: dumps/kcore.c,
 * dumps/kdwarf.c, dumps/vmcore.c and dumps/vmcore_log.c.
 *
 * One binary, four targets, picked by $FUZZ_MODE:
 *
 *   unflatten  the input is a flattened dump: kcore_unflatten() from a
 *              memfd into another memfd (the default mode)
 *   vmcore     the input is a dump: vmcore_read() of it with a fixed
 *              vmlinux ($FUZZ_VMLINUX, default
 *              build-fz/fixtures/vmcore/x86_64-2.6.32-rfc.vmlinux)
 *   kdwarf     the input is a vmlinux: kdwarf_open() and a few lookups
 *   vmlinux    the input is a vmlinux: vmcore_read() of a fixed dump
 *              ($FUZZ_DUMP, default build-fz/fixtures/vmcore/
 *              x86_64-2.6.32-rfc.kdump) with it
 *
 * Inputs are handed over as /proc/self/fd/N of a memfd, so the readers
 * open a path as they do for the command. vmcore_read() runs with --force
 * so that a mutated build id or release does not stop it early.
 *
 * Build and run: see bench/fuzz/README.md.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/error.h"
#include "model/dump.h"
#include "dumps/kcore.h"
#include "dumps/kdwarf.h"
#include "dumps/vmcore.h"

enum mode { M_UNFLATTEN, M_VMCORE, M_KDWARF, M_VMLINUX };

static enum mode mode;
static const char *vmlinux_path =
	"build-fz/fixtures/vmcore/x86_64-2.6.32-rfc.vmlinux";
static const char *dump_path =
	"build-fz/fixtures/vmcore/x86_64-2.6.32-rfc.kdump";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *m = getenv("FUZZ_MODE");

	(void)argc;
	(void)argv;
	if (!m || !*m || strcmp(m, "unflatten") == 0)
		mode = M_UNFLATTEN;
	else if (strcmp(m, "vmcore") == 0)
		mode = M_VMCORE;
	else if (strcmp(m, "kdwarf") == 0)
		mode = M_KDWARF;
	else if (strcmp(m, "vmlinux") == 0)
		mode = M_VMLINUX;
	else {
		fprintf(stderr,
			"FUZZ_MODE: unflatten, vmcore, kdwarf or vmlinux\n");
		exit(2);
	}
	if (getenv("FUZZ_VMLINUX"))
		vmlinux_path = getenv("FUZZ_VMLINUX");
	if (getenv("FUZZ_DUMP"))
		dump_path = getenv("FUZZ_DUMP");
	if ((mode == M_VMCORE && access(vmlinux_path, R_OK) != 0) ||
	    (mode == M_VMLINUX && access(dump_path, R_OK) != 0)) {
		fprintf(stderr, "fuzz_vmcore: cannot read %s (see README.md)\n",
			mode == M_VMCORE ? vmlinux_path : dump_path);
		exit(2);
	}
	return 0;
}

/* A memfd holding data; -1 on failure. */
static int memfd_with(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-in", MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		abort();
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	return fd;
}

static void run_unflatten(int fd, size_t size)
{
	int out = memfd_create("fuzz-out", MFD_CLOEXEC);

	if (out < 0)
		abort();
	oomlens_error_free(kcore_unflatten(fd, size, out, "fuzz.flat"));
	close(out);
}

static void run_vmcore(const char *dump, const char *vmlinux)
{
	struct vmcore_options opt = {.force = true};
	struct dump_state d;
	struct oomlens_error *err = vmcore_read(dump, vmlinux, &opt, &d);

	if (err)
		oomlens_error_free(err);
	else
		dump_state_release(&d);
}

static void run_kdwarf(const char *path)
{
	static const char *const types[] = {"task_struct", "mm_struct",
					    "list_head", "printk_log"};
	struct kdwarf *dw = NULL;
	struct oomlens_error *err = kdwarf_open(path, &dw);
	struct kfield f;
	const uint8_t *id;
	uint64_t a;
	int64_t e;

	if (err) {
		oomlens_error_free(err);
		return;
	}
	(void)kdwarf_osrelease(dw);
	(void)kdwarf_build_id(dw, &id);
	(void)kdwarf_symbol(dw, "init_task", &a);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		(void)kdwarf_struct_size(dw, types[i]);
	(void)kdwarf_member(dw, "task_struct", "tasks.next", &f);
	(void)kdwarf_member(dw, "task_struct", "comm", &f);
	(void)kdwarf_member(dw, "mm_struct", "rss_stat.count", &f);
	(void)kdwarf_variable(dw, "jiffies", &f);
	(void)kdwarf_enumerator(dw, "MM_SWAPENTS", &e);
	kdwarf_close(dw);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_with(data, size);
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	switch (mode) {
	case M_UNFLATTEN:
		run_unflatten(fd, size);
		break;
	case M_VMCORE:
		run_vmcore(path, vmlinux_path);
		break;
	case M_KDWARF:
		run_kdwarf(path);
		break;
	case M_VMLINUX:
		run_vmcore(dump_path, path);
		break;
	}
	close(fd);
	return 0;
}
