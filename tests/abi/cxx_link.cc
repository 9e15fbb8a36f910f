// SPDX-License-Identifier: LGPL-2.1-or-later
// tests/abi/cxx_link.cc - every installed header (through <fhint/fhint.h>)
// compiled as C++ and linked with libfhint.so: the declarations have C
// linkage.  Exit 0 or 1.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <fhint/fhint.h>

int main()
{
	uint8_t b[4];

	fhint_put_be32(b, 0x01020304u);
	if (fhint_get_be32(b) != 0x01020304u)
		return 1;
	if (std::strcmp(fhint_version(), FHINT_VERSION_STRING) != 0) {
		std::fprintf(stderr, "C++: fhint_version() %s, header %s\n",
			     fhint_version(), FHINT_VERSION_STRING);
		return 1;
	}
	std::printf("C++: libfhint %s, %s\n", fhint_version(),
		    fhint_discard_method_name(FHINT_DISCARD_SCSI_UNMAP));
	return 0;
}
