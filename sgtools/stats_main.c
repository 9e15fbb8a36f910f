/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "stats.h"

#include "cli.h"

int main(int argc, char **argv)
{
	cli_log_init("fhint-stats");
	return stats_main(argc, argv);
}
