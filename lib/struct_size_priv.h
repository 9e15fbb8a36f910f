/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/struct_size_priv.h - public structs that grow.  Their first member
 * is `size_t size`, set by the caller to sizeof() the struct it was built
 * with; the library reads no field past it (a program built against older
 * headers gets 0 for the fields added since) and writes none past it.
 */
#ifndef FHINT_STRUCT_SIZE_PRIV_H
#define FHINT_STRUCT_SIZE_PRIV_H

#include <errno.h>
#include <stddef.h>
#include <string.h>

/* Bytes from the start of @type up to the end of @member: the size of the
 * first version of a struct whose last member then was @member. */
#define FHINT_SIZE_TO(type, member) \
	(offsetof(type, member) + sizeof(((type *)0)->member))

/* The first published size of each: the smallest a caller may pass. */
#define FHINT_DEV_OPTS_SIZE_1_0 \
	FHINT_SIZE_TO(struct fhint_dev_opts, ua_retries)
#define FHINT_DISCARD_OPTS_SIZE_1_0 \
	FHINT_SIZE_TO(struct fhint_discard_opts, nsid)

/*
 * Copy the caller's struct @src (its size in its first member) into the
 * library's @dst of @dst_size bytes, zeroing what the caller's version
 * lacks; dst's size member becomes @dst_size.  Returns 0, or -EINVAL when
 * @src is NULL or its size is below @min_size (the first version).
 */
static inline int fhint_struct_in(void *dst, size_t dst_size,
				  const void *src, size_t min_size)
{
	size_t have;

	if (!src)
		return -EINVAL;
	memcpy(&have, src, sizeof(have));
	if (have < min_size)
		return -EINVAL;
	memset(dst, 0, dst_size);
	memcpy(dst, src, have < dst_size ? have : dst_size);
	memcpy(dst, &dst_size, sizeof(dst_size));
	return 0;
}

/*
 * Copy the library's @src of @src_size bytes into the caller's @dst (its
 * size in its first member), no further than that size; dst's size member
 * is left as the caller set it.  Returns 0 or -EINVAL as above.
 */
static inline int fhint_struct_out(void *dst, const void *src,
				   size_t src_size, size_t min_size)
{
	size_t want;

	if (!dst)
		return -EINVAL;
	memcpy(&want, dst, sizeof(want));
	if (want < min_size)
		return -EINVAL;
	if (want > src_size)
		want = src_size;
	memcpy((char *)dst + sizeof(want), (const char *)src + sizeof(want),
	       want - sizeof(want));
	return 0;
}

#endif /* FHINT_STRUCT_SIZE_PRIV_H */
