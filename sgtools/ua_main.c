/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "ua.h"

#include "cli.h"

int main(int argc, char **argv)
{
	cli_log_init("fhint-ua");
	return ua_main(argc, argv);
}
