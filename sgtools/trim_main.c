// SPDX-License-Identifier: LGPL-2.1-or-later
#include "trim.h"

#include "cli.h"

int main(int argc, char **argv)
{
	cli_log_init("fhint-trim");
	return trim_main(argc, argv);
}
