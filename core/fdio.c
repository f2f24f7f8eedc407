// SPDX-License-Identifier: MIT
/* Whole transfers on a file descriptor (core/fdio.h). */
#include "core/fdio.h"

#include <errno.h>
#include <unistd.h>

#include "core/banned.h"

bool fd_io_all(int fd, void *buf, size_t len, bool write_it)
{
	char *p = buf;

	while (len) {
		ssize_t n = write_it ? write(fd, p, len) : read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}
