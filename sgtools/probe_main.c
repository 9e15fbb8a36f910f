/* SPDX-License-Identifier: LGPL-2.1-or-later */
int probe_main(int argc, char **argv);
#include "cli.h"

int main(int argc, char **argv)
{
	cli_log_init("fhint-probe");
	return probe_main(argc, argv);
}
