/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "write.h"

int main(int argc, char **argv) { return write_main(argc, argv); }
