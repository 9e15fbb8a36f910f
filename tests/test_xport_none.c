/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A build without the NVMe or iSCSI transport (configure --without-libnvme,
 * --without-libiscsi): their targets are refused with -ENOTSUP and one line
 * that names the missing library (fhint/xport.h), never sent down another
 * transport; the tools exit 4 (sgtools/cli.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "cli.h"
#include "fhint/xport.h"

static void want_refused(int ret, const struct fhint_dev *dev,
			 const char *err, const char *lib)
{
	CU_ASSERT_EQUAL(ret, -ENOTSUP);
	CU_ASSERT_PTR_NULL(dev);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not built in"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, lib));
	CU_ASSERT_PTR_NULL(strchr(err, '\n'));
}

static void test_nvme_absent(void)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";
	int ret;

	if (FHINT_XPORT_BUILT_NVME) {
		fhint_test_skip("the NVMe transport is built");
		return;
	}
	/* an NVMe name, even one that does not exist: not SG_IO's -ENOENT */
	ret = fhint_dev_open("/dev/nvme127n9", 0, &dev, err, sizeof(err));
	want_refused(ret, dev, err, "libnvme");
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "/dev/nvme127n9"));
	err[0] = '\0';
	ret = fhint_dev_open_nvme_fd(0, 1, 0, &dev, err, sizeof(err));
	want_refused(ret, dev, err, "libnvme");
	CU_ASSERT_EQUAL(cli_open_exit(-ENOTSUP), CLI_EXIT_UNSUPPORTED);
}

static void test_iscsi_absent(void)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";
	int ret;

	if (FHINT_XPORT_BUILT_ISCSI) {
		fhint_test_skip("the iSCSI transport is built");
		return;
	}
	ret = fhint_dev_open("iscsi://127.0.0.1:1/iqn.2026-12.org.fhint:x/0",
			     0, &dev, err, sizeof(err));
	want_refused(ret, dev, err, "libiscsi");
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "iscsi://127.0.0.1:1/"));
}

static CU_TestInfo tests[] = {
	{ "without libnvme: NVMe paths and descriptors -ENOTSUP, one line",
	  test_nvme_absent },
	{ "without libiscsi: iscsi:// -ENOTSUP, one line", test_iscsi_absent },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("xport_none", tests);
