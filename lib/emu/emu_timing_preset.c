/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_timing_preset.c - the named timing presets (timing=NAME).
 * Each is a set of defaults for the timing keys; every key overrides its
 * part.  Where each figure comes from: spec-notes/emulator-timing.md.
 */
#include <stddef.h>
#include <string.h>

#include "emu_timing.h"

static const struct emu_timing_preset presets[] = {
	{
		/* NVMeVirt's SAMSUNG_970PRO (2-bit MLC V-NAND): 8 channels
		 * x 2 dies, tR 36.0 us, tPROG 185 us, 800 MB/s channels,
		 * PCIe 3360 MB/s, 4 us of write-buffer firmware, a buffer
		 * of two pages per die (32 KiB pages); erase from MQSim's
		 * MLC configuration (3.8 ms), NVMeVirt models none */
		.name = "mlc", .models = "an MLC SSD (Samsung 970 PRO class)",
		.channels = 8, .dies = 2, .planes = 1,
		.t_read_us = 36.0, .t_prog_us = 185.0, .t_erase_us = 3800.0,
		.ch_mbps = 800.0, .host_mbps = 3360.0, .cmd_us = 4.0,
		.wbuf = 1u << 20, .gc_bg = 4, .gc_idle_ms = 10.0,
	},
	{
		/* NVMeVirt's WD_ZN540 (TLC): 8 channels x 4 dies, tR 58 us,
		 * tPROG 561 us, 450 MB/s channels, PCIe 3050 MB/s, 5.6 us
		 * of write-buffer firmware; buffer two 96 KiB one-shot pages
		 * per die; erase from MQSim (3.8 ms) */
		.name = "tlc", .models = "a TLC SSD (WD ZN540 class)",
		.channels = 8, .dies = 4, .planes = 1,
		.t_read_us = 58.0, .t_prog_us = 561.0, .t_erase_us = 3800.0,
		.ch_mbps = 450.0, .host_mbps = 3050.0, .cmd_us = 5.6,
		.wbuf = 6u << 20, .gc_bg = 4, .gc_idle_ms = 10.0,
	},
	{
		/* a slow few-die device: the TLC times of NVMeVirt's ZNS
		 * prototype (tR 40.95 us, tPROG 1913.64 us) on one channel
		 * x 2 dies at eMMC HS200's 200 MB/s (JESD84-B51); the
		 * command time and the 256 KiB buffer are assumptions */
		.name = "emmc", .models = "a slow few-die device (eMMC class)",
		.channels = 1, .dies = 2, .planes = 1,
		.t_read_us = 40.95, .t_prog_us = 1913.64, .t_erase_us = 3800.0,
		.ch_mbps = 200.0, .host_mbps = 200.0, .cmd_us = 20.0,
		.wbuf = 256u << 10, .gc_bg = 4, .gc_idle_ms = 10.0,
	},
};

#define NPRESETS	(sizeof(presets) / sizeof(presets[0]))

const struct emu_timing_preset *emu_timing_preset(uint32_t index)
{
	return index && index <= NPRESETS ? &presets[index - 1] : NULL;
}

uint32_t emu_timing_preset_index(const char *name)
{
	uint32_t i;

	for (i = 0; i < NPRESETS; i++)
		if (!strcmp(presets[i].name, name))
			return i + 1;
	return 0;
}
