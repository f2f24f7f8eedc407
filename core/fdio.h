/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CORE_FDIO_H
#define OOMLENS_CORE_FDIO_H

/*
 * Whole transfers on a file descriptor: a pipe between a process and the
 * child that reads a library's input for it (dumps/vmcore_isolate.c,
 * parsers/journalfile.c).
 */

#include <stdbool.h>
#include <stddef.h>

/*
 * Write (write_it) or read all of len bytes of buf, through EINTR and
 * short transfers. False at an error, or at the end of input before len
 * bytes were read.
 */
bool fd_io_all(int fd, void *buf, size_t len, bool write_it);

#endif
