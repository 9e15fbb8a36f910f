/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "write.h"

#include "cli.h"

int main(int argc, char **argv)
{
	cli_log_init("fhint-write");
	return write_main(argc, argv);
}
