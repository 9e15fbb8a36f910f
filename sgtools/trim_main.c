// SPDX-License-Identifier: LGPL-2.1-or-later
#include "trim.h"

int main(int argc, char **argv) { return trim_main(argc, argv); }
