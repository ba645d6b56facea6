#ifndef VITRINE_CFILEFLAGS_SHIM_H
#define VITRINE_CFILEFLAGS_SHIM_H

// Open flags Swift does not import: O_TMPFILE is a macro of other macros, defined only under _GNU_SOURCE.
#include <fcntl.h>

// An unnamed regular file in the folder opened: linkat gives it a name once it is whole (Linux 3.11, ext4, xfs,
// btrfs, tmpfs). Callers fall back when the file system refuses it.
static inline int vitrine_open_tmpfile_flag(void) {
#ifdef __O_TMPFILE
    return __O_TMPFILE;
#else
    return -1;
#endif
}

#endif
