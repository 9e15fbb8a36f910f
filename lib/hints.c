// SPDX-License-Identifier: LGPL-2.1-or-later
/* The five Linux write-lifetime hints and their device mappings. */
#include <errno.h>
#include <stddef.h>
#include <strings.h>

#include "fhint/hints.h"

static const struct fhint_hint_info fhint_hint_table[FHINT_HINT_COUNT] = {
	{ FHINT_HINT_NOT_SET, "not-set", "RWH_WRITE_LIFE_NOT_SET", 0, 0, 0, -1 },
	{ FHINT_HINT_NONE,    "none",    "RWH_WRITE_LIFE_NONE",    1, 1, 0, -1 },
	{ FHINT_HINT_SHORT,   "short",   "RWH_WRITE_LIFE_SHORT",   2, 2, 1, 0 },
	{ FHINT_HINT_MEDIUM,  "medium",  "RWH_WRITE_LIFE_MEDIUM",  3, 3, 2, 1 },
	{ FHINT_HINT_LONG,    "long",    "RWH_WRITE_LIFE_LONG",    4, 4, 3, 2 },
	{ FHINT_HINT_EXTREME, "extreme", "RWH_WRITE_LIFE_EXTREME", 5, 5, 4, 3 },
};

const struct fhint_hint_info *fhint_hint_info(int hint)
{
	if (hint < 0 || hint >= FHINT_HINT_COUNT)
		return NULL;
	return &fhint_hint_table[hint];
}

int fhint_hint_from_name(const char *name)
{
	int i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < FHINT_HINT_COUNT; i++)
		if (!strcasecmp(name, fhint_hint_table[i].name) ||
		    !strcasecmp(name, fhint_hint_table[i].linux_name))
			return i;
	if (name[0] >= '0' && name[0] < '0' + FHINT_HINT_COUNT && !name[1])
		return name[0] - '0';
	return -EINVAL;
}

const char *fhint_hint_name(int hint)
{
	const struct fhint_hint_info *hi = fhint_hint_info(hint);

	return hi ? hi->name : NULL;
}

int fhint_hint_to_group(int hint, unsigned int perm_stream_count)
{
	const struct fhint_hint_info *hi = fhint_hint_info(hint);
	unsigned int g;

	if (!hi)
		return -EINVAL;
	/* sd_group_number(): min3(write_hint, permanent_stream_count, 0x3f) */
	g = hi->io_advice_index;
	if (g > perm_stream_count)
		g = perm_stream_count;
	if (g > FHINT_GROUP_NUMBER_MAX)
		g = FHINT_GROUP_NUMBER_MAX;
	return (int)g;
}

int fhint_hint_from_group(unsigned int group, unsigned int perm_stream_count)
{
	if (group > FHINT_GROUP_NUMBER_MAX)
		return -EINVAL;
	if (group == 0)
		return FHINT_HINT_NOT_SET;
	if (group > perm_stream_count)
		return -ERANGE;
	if (group > FHINT_HINT_EXTREME)
		return -ENOENT;
	return (int)group;
}

int fhint_hint_to_nvme_stream(int hint)
{
	const struct fhint_hint_info *hi = fhint_hint_info(hint);

	return hi ? hi->nvme_stream : -EINVAL;
}

int fhint_hint_to_placement(int hint, unsigned int nr_placement_ids)
{
	const struct fhint_hint_info *hi = fhint_hint_info(hint);

	if (!hi)
		return -EINVAL;
	if (hi->placement_index < 0)
		return -ENOENT;
	if ((unsigned int)hi->placement_index >= nr_placement_ids)
		return -ERANGE;
	return hi->placement_index;
}

int fhint_hint_to_fcntl(int hint, uint64_t *arg)
{
	const struct fhint_hint_info *hi = fhint_hint_info(hint);

	if (!hi || !arg)
		return -EINVAL;
	*arg = hi->rwh_value;
	return FHINT_F_SET_RW_HINT;
}
