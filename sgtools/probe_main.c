/* SPDX-License-Identifier: LGPL-2.1-or-later */
int probe_main(int argc, char **argv);
int main(int argc, char **argv) { return probe_main(argc, argv); }
