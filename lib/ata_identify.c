/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* IDENTIFY DEVICE data (ACS-4 IDENTIFY DEVICE). */
#include <errno.h>
#include <string.h>

#include "fhint/ata_identify.h"
#include "fhint/ata_proto.h"
#include "fhint/endian.h"

static uint16_t w(const uint8_t *buf, unsigned int word)
{
	return fhint_get_le16(buf + 2 * word);
}

static void put_w(uint8_t *buf, unsigned int word, uint16_t v)
{
	fhint_put_le16(buf + 2 * word, v);
}

/* Two-word (DWord) and four-word (QWord) values: least significant word
 * first, i.e. a plain little-endian number. */
static uint32_t w32(const uint8_t *buf, unsigned int word)
{
	return fhint_get_le32(buf + 2 * word);
}

static uint64_t w64(const uint8_t *buf, unsigned int word)
{
	return fhint_get_le64(buf + 2 * word);
}

size_t fhint_ata_string_get(const uint8_t *buf, unsigned int word,
			    unsigned int nwords, char *out)
{
	size_t i, n = 2 * (size_t)nwords;

	for (i = 0; i < nwords; i++) {
		uint16_t v = w(buf, word + (unsigned int)i);

		out[2 * i] = (char)(v >> 8);	/* first char: bits 15:8 */
		out[2 * i + 1] = (char)(v & 0xff);
	}
	out[n] = '\0';
	while (n && (out[n - 1] == ' ' || out[n - 1] == '\0'))
		out[--n] = '\0';
	return strlen(out);
}

int fhint_ata_string_put(uint8_t *buf, unsigned int word, unsigned int nwords,
			 const char *s)
{
	size_t i, n = strnlen(s, 2 * (size_t)nwords + 1);
	uint8_t c[2];

	if (n > 2 * (size_t)nwords)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return -EINVAL;
	for (i = 0; i < nwords; i++) {
		c[0] = 2 * i < n ? (uint8_t)s[2 * i] : ' ';
		c[1] = 2 * i + 1 < n ? (uint8_t)s[2 * i + 1] : ' ';
		put_w(buf, word + (unsigned int)i,
		      (uint16_t)(c[0] << 8 | c[1]));
	}
	return 0;
}

uint8_t fhint_ata_identify_checksum(const uint8_t *buf)
{
	unsigned int i, sum = 0;

	for (i = 0; i < FHINT_ATA_IDENTIFY_LEN - 1; i++)
		sum += buf[i];
	return (uint8_t)(0x100 - (sum & 0xff));
}

static bool valid_word(uint16_t v)
{
	return (v & FHINT_ATA_ID_VALID_MASK) == FHINT_ATA_ID_VALID;
}

int fhint_ata_identify_decode(const uint8_t *buf, size_t len,
			      struct fhint_ata_identify *id)
{
	uint16_t v;

	if (len != FHINT_ATA_IDENTIFY_LEN)
		return -EBADMSG;
	v = w(buf, FHINT_ATA_ID_INTEGRITY);
	if ((v & 0xff) == FHINT_ATA_IDENTIFY_SIGNATURE &&
	    fhint_ata_identify_checksum(buf) != (v >> 8))
		return -EBADMSG;

	memset(id, 0, sizeof(*id));
	id->checksum_present = (v & 0xff) == FHINT_ATA_IDENTIFY_SIGNATURE;
	id->general_config = w(buf, 0);
	fhint_ata_string_get(buf, FHINT_ATA_ID_SERIAL, 10, id->serial);
	fhint_ata_string_get(buf, FHINT_ATA_ID_FIRMWARE, 4, id->firmware);
	fhint_ata_string_get(buf, FHINT_ATA_ID_MODEL, 20, id->model);

	v = w(buf, FHINT_ATA_ID_CAPABILITIES);
	id->lba = v & FHINT_ATA_ID49_LBA;
	id->dma = v & FHINT_ATA_ID49_DMA;
	id->lba28_sectors = w32(buf, FHINT_ATA_ID_LBA28_SECTORS);

	v = w(buf, FHINT_ATA_ID_ADDITIONAL);
	id->drat = v & FHINT_ATA_ID69_DRAT;
	id->rzat = v & FHINT_ATA_ID69_RZAT;
	id->ext_sectors_valid = v & FHINT_ATA_ID69_EXT_SECTORS;

	v = w(buf, FHINT_ATA_ID_SATA_CAP);
	/* word 76: 0000h / FFFFh mean "not a SATA device" */
	if (v != 0xffff) {
		id->ncq = v & FHINT_ATA_ID76_NCQ;
		id->ncq_prio = v & FHINT_ATA_ID76_NCQ_PRIO;
		v = w(buf, FHINT_ATA_ID_SATA_CAP2);
		if (v != 0xffff) {
			id->ncq_non_data = v & FHINT_ATA_ID77_NCQ_NON_DATA;
			id->send_recv_queued =
				v & FHINT_ATA_ID77_SEND_RECV_QUEUED;
		}
	}
	if (id->ncq)
		id->queue_depth = (w(buf, FHINT_ATA_ID_QUEUE_DEPTH) & 0x1f) + 1;

	id->major_version = w(buf, FHINT_ATA_ID_MAJOR_VERSION);
	v = w(buf, FHINT_ATA_ID_CMD_SET_2);
	if (valid_word(v)) {
		id->lba48 = v & FHINT_ATA_ID83_LBA48;
		id->flush_cache_ext = v & FHINT_ATA_ID83_FLUSH_CACHE_EXT;
	}
	id->lba48_enabled = w(buf, FHINT_ATA_ID_CMD_ENABLED_2) &
			    FHINT_ATA_ID83_LBA48;
	id->lba48_sectors = w64(buf, FHINT_ATA_ID_LBA48_SECTORS);
	id->dsm_max_blocks = w(buf, FHINT_ATA_ID_DSM_MAX_BLOCKS);

	v = w(buf, FHINT_ATA_ID_SECTOR_SIZE);
	id->sector_size_valid = valid_word(v);
	if (id->sector_size_valid) {
		id->multiple_logical = v & FHINT_ATA_ID106_MULTIPLE;
		id->long_logical = v & FHINT_ATA_ID106_LONG_LOGICAL;
		id->logical_per_physical_exp = v & FHINT_ATA_ID106_EXP_MASK;
	}
	id->logical_sector_words = w32(buf, FHINT_ATA_ID_LOGICAL_WORDS);
	id->trim = w(buf, FHINT_ATA_ID_DSM) & FHINT_ATA_ID169_TRIM;
	v = w(buf, FHINT_ATA_ID_ALIGNMENT);
	id->alignment_valid = valid_word(v);
	if (id->alignment_valid)
		id->alignment = v & FHINT_ATA_ID209_OFFSET_MASK;
	id->rotation_rate = w(buf, FHINT_ATA_ID_ROTATION_RATE);
	id->ext_sectors = w64(buf, FHINT_ATA_ID_EXT_SECTORS);

	/* Derived values */
	id->logical_sector_size = 512;
	if (id->long_logical && id->logical_sector_words >= 256 &&
	    id->logical_sector_words <= 0x7fffffff)
		id->logical_sector_size = 2 * id->logical_sector_words;
	id->physical_sector_size = id->logical_sector_size;
	if (id->multiple_logical && id->logical_per_physical_exp < 16)
		id->physical_sector_size <<= id->logical_per_physical_exp;
	if (id->ext_sectors_valid)
		id->capacity = id->ext_sectors;
	else if (id->lba48)
		id->capacity = id->lba48_sectors;
	else
		id->capacity = id->lba28_sectors;
	return 0;
}

int fhint_ata_identify_encode(uint8_t *buf, size_t len,
			      const struct fhint_ata_identify *id)
{
	uint16_t v;

	if (len < FHINT_ATA_IDENTIFY_LEN)
		return -EMSGSIZE;
	if (id->queue_depth > 32 || id->logical_per_physical_exp > 15 ||
	    id->alignment > FHINT_ATA_ID209_OFFSET_MASK ||
	    (id->logical_sector_words && !id->long_logical) ||
	    id->lba48_sectors >> 48 || id->ext_sectors >> 48)
		return -EINVAL;
	memset(buf, 0, FHINT_ATA_IDENTIFY_LEN);
	if (fhint_ata_string_put(buf, FHINT_ATA_ID_SERIAL, 10, id->serial) ||
	    fhint_ata_string_put(buf, FHINT_ATA_ID_FIRMWARE, 4,
				 id->firmware) ||
	    fhint_ata_string_put(buf, FHINT_ATA_ID_MODEL, 20, id->model)) {
		memset(buf, 0, FHINT_ATA_IDENTIFY_LEN);
		return -EINVAL;
	}
	put_w(buf, 0, id->general_config);
	put_w(buf, FHINT_ATA_ID_CAPABILITIES,
	      (id->lba ? FHINT_ATA_ID49_LBA : 0) |
	      (id->dma ? FHINT_ATA_ID49_DMA : 0));
	fhint_put_le32(buf + 2 * FHINT_ATA_ID_LBA28_SECTORS,
		       id->lba28_sectors);
	put_w(buf, FHINT_ATA_ID_ADDITIONAL,
	      (id->drat ? FHINT_ATA_ID69_DRAT : 0) |
	      (id->rzat ? FHINT_ATA_ID69_RZAT : 0) |
	      (id->ext_sectors_valid ? FHINT_ATA_ID69_EXT_SECTORS : 0));
	if (id->queue_depth)
		put_w(buf, FHINT_ATA_ID_QUEUE_DEPTH,
		      (uint16_t)(id->queue_depth - 1));
	put_w(buf, FHINT_ATA_ID_SATA_CAP,
	      (id->ncq ? FHINT_ATA_ID76_NCQ : 0) |
	      (id->ncq_prio ? FHINT_ATA_ID76_NCQ_PRIO : 0));
	put_w(buf, FHINT_ATA_ID_SATA_CAP2,
	      (id->ncq_non_data ? FHINT_ATA_ID77_NCQ_NON_DATA : 0) |
	      (id->send_recv_queued ? FHINT_ATA_ID77_SEND_RECV_QUEUED : 0));
	put_w(buf, FHINT_ATA_ID_MAJOR_VERSION, id->major_version);
	v = FHINT_ATA_ID_VALID;
	if (id->lba48)
		v |= FHINT_ATA_ID83_LBA48;
	if (id->flush_cache_ext)
		v |= FHINT_ATA_ID83_FLUSH_CACHE_EXT;
	put_w(buf, FHINT_ATA_ID_CMD_SET_2, v);
	put_w(buf, FHINT_ATA_ID_CMD_SET_EXT, FHINT_ATA_ID_VALID);
	v = 0;
	if (id->lba48_enabled)
		v |= FHINT_ATA_ID83_LBA48;
	if (id->flush_cache_ext)
		v |= FHINT_ATA_ID83_FLUSH_CACHE_EXT;
	put_w(buf, FHINT_ATA_ID_CMD_ENABLED_2, v);
	put_w(buf, FHINT_ATA_ID_CMD_ENABLED_EXT, FHINT_ATA_ID_VALID);
	fhint_put_le64(buf + 2 * FHINT_ATA_ID_LBA48_SECTORS,
		       id->lba48_sectors);
	put_w(buf, FHINT_ATA_ID_DSM_MAX_BLOCKS, id->dsm_max_blocks);
	put_w(buf, FHINT_ATA_ID_SECTOR_SIZE,
	      FHINT_ATA_ID_VALID |
	      (id->multiple_logical ? FHINT_ATA_ID106_MULTIPLE : 0) |
	      (id->long_logical ? FHINT_ATA_ID106_LONG_LOGICAL : 0) |
	      id->logical_per_physical_exp);
	fhint_put_le32(buf + 2 * FHINT_ATA_ID_LOGICAL_WORDS,
		       id->logical_sector_words);
	put_w(buf, FHINT_ATA_ID_DSM, id->trim ? FHINT_ATA_ID169_TRIM : 0);
	put_w(buf, FHINT_ATA_ID_ALIGNMENT, FHINT_ATA_ID_VALID | id->alignment);
	put_w(buf, FHINT_ATA_ID_ROTATION_RATE, id->rotation_rate);
	fhint_put_le64(buf + 2 * FHINT_ATA_ID_EXT_SECTORS, id->ext_sectors);
	buf[510] = FHINT_ATA_IDENTIFY_SIGNATURE;
	buf[511] = fhint_ata_identify_checksum(buf);
	return FHINT_ATA_IDENTIFY_LEN;
}

int fhint_ata_identify_set_geometry(struct fhint_ata_identify *id,
				    uint64_t sectors, uint32_t logical,
				    uint32_t physical, uint16_t lowest_aligned)
{
	uint32_t per_phys;
	uint8_t exp = 0;

	if (logical < 512 || logical % 512 || physical < logical ||
	    physical % logical || sectors >> 48)
		return -EINVAL;
	per_phys = physical / logical;
	while ((1u << exp) < per_phys)
		exp++;
	if ((1u << exp) != per_phys || exp > 15 || lowest_aligned >= per_phys)
		return -EINVAL;

	id->lba28_sectors = sectors > FHINT_ATA_LBA28_MAX_SECTORS ?
			    FHINT_ATA_LBA28_MAX_SECTORS : (uint32_t)sectors;
	id->lba48_sectors = sectors;
	id->ext_sectors = sectors;
	id->ext_sectors_valid = true;
	id->sector_size_valid = true;
	id->multiple_logical = exp > 0;
	id->logical_per_physical_exp = exp;
	id->long_logical = logical > 512;
	id->logical_sector_words = logical > 512 ? logical / 2 : 0;
	/* Word 209: offset of LBA 0 within its physical sector */
	id->alignment_valid = true;
	id->alignment = (uint16_t)((per_phys - lowest_aligned) % per_phys);
	return 0;
}

int fhint_ata_ncq_sr_log_decode(const uint8_t *buf, size_t len,
				struct fhint_ata_ncq_sr_log *log)
{
	if (len != FHINT_ATA_IDENTIFY_LEN)
		return -EBADMSG;
	memset(log, 0, sizeof(*log));
	log->commands = fhint_get_le32(buf + FHINT_ATA_NCQ_SR_LOG_CMDS);
	log->dsm = fhint_get_le32(buf + FHINT_ATA_NCQ_SR_LOG_DSM);
	log->dsm_supported = log->commands & FHINT_ATA_NCQ_SR_LOG_CMDS_DSM;
	log->trim_supported = log->dsm_supported &&
			      (log->dsm & FHINT_ATA_NCQ_SR_LOG_DSM_TRIM);
	return 0;
}

int fhint_ata_ncq_sr_log_encode(uint8_t *buf, size_t len,
				const struct fhint_ata_ncq_sr_log *log)
{
	uint32_t cmds = log->commands, dsm = log->dsm;

	if (len < FHINT_ATA_IDENTIFY_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_ATA_IDENTIFY_LEN);
	if (log->dsm_supported)
		cmds |= FHINT_ATA_NCQ_SR_LOG_CMDS_DSM;
	if (log->trim_supported)
		dsm |= FHINT_ATA_NCQ_SR_LOG_DSM_TRIM;
	fhint_put_le32(buf + FHINT_ATA_NCQ_SR_LOG_CMDS, cmds);
	fhint_put_le32(buf + FHINT_ATA_NCQ_SR_LOG_DSM, dsm);
	return FHINT_ATA_IDENTIFY_LEN;
}
