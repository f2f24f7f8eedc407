// SPDX-License-Identifier: MIT
/*
 * Content identity with libxxhash's XXH3 128-bit hash (parsers/digest.h).
 * The only file that includes <xxhash.h>: the library's state and errors
 * stop here.
 */
#include "parsers/digest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <xxhash.h>

#include "core/banned.h"

#define BLOCK ((size_t)1 << 20)

static void to_hex(XXH128_hash_t h, char hex[CONTENT_DIGEST_HEX])
{
	XXH128_canonical_t c;
	size_t i;

	XXH128_canonicalFromHash(&c, h);
	for (i = 0; i < sizeof(c.digest); i++)
		snprintf(hex + 2 * i, 3, "%02x", c.digest[i]);
}

void content_digest_bytes(const void *data, size_t n,
			  char hex[CONTENT_DIGEST_HEX])
{
	to_hex(XXH3_128bits(data, n), hex);
}

struct content_digest {
	XXH3_state_t *state;
	bool failed;
};

struct content_digest *content_digest_start(void)
{
	struct content_digest *d = malloc(sizeof(*d));

	if (!d)
		return NULL;
	d->state = XXH3_createState();
	if (!d->state) {
		free(d);
		return NULL;
	}
	d->failed = XXH3_128bits_reset(d->state) != XXH_OK;
	return d;
}

void content_digest_add(struct content_digest *d, const void *p, size_t n)
{
	if (XXH3_128bits_update(d->state, p, n) != XXH_OK)
		d->failed = true;
}

bool content_digest_end(struct content_digest *d, char hex[CONTENT_DIGEST_HEX])
{
	bool ok = !d->failed;

	if (ok)
		to_hex(XXH3_128bits_digest(d->state), hex);
	content_digest_drop(d);
	return ok;
}

void content_digest_drop(struct content_digest *d)
{
	if (!d)
		return;
	XXH3_freeState(d->state);
	free(d);
}

struct oomlens_error *content_digest_file(const char *path,
					  char hex[CONTENT_DIGEST_HEX])
{
	return content_digest_file_each(path, hex, NULL, NULL);
}

struct oomlens_error *
content_digest_file_each(const char *path, char hex[CONTENT_DIGEST_HEX],
			 void (*each)(void *ctx, const char *block, size_t n),
			 void *ctx)
{
	struct oomlens_error *err = NULL;
	XXH3_state_t *state;
	char *buf;
	ssize_t got;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "cannot open '%s'", path);
	state = XXH3_createState();
	buf = malloc(BLOCK);
	if (!state || !buf) {
		err = &oomlens_error_nomem;
		goto out;
	}
	if (XXH3_128bits_reset(state) != XXH_OK) {
		err = oomlens_error_new(OOMLENS_ERR_IO,
					"cannot hash '%s': XXH3_128bits_reset",
					path);
		goto out;
	}
	for (;;) {
		got = read(fd, buf, BLOCK);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (XXH3_128bits_update(state, buf, (size_t)got) != XXH_OK) {
			err = oomlens_error_new(
				OOMLENS_ERR_IO,
				"cannot hash '%s': XXH3_128bits_update", path);
			goto out;
		}
		if (each)
			each(ctx, buf, (size_t)got);
	}
	if (got < 0) {
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot read '%s'", path);
		goto out;
	}
	to_hex(XXH3_128bits_digest(state), hex);
out:
	free(buf);
	XXH3_freeState(state);
	close(fd);
	return err;
}
