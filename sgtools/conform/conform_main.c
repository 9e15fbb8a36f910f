// SPDX-License-Identifier: LGPL-2.1-or-later
int conform_main(int argc, char **argv);

int main(int argc, char **argv)
{
	return conform_main(argc, argv);
}
