/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "ua.h"

int main(int argc, char **argv) { return ua_main(argc, argv); }
