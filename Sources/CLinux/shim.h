#ifndef VITRINE_CLINUX_SHIM_H
#define VITRINE_CLINUX_SHIM_H

// Linux constants Swift does not import: macros of other macros, or defined only under _GNU_SOURCE.
#include <fcntl.h>
#include <sched.h>

// SCHED_IDLE is defined under _GNU_SOURCE only; its number is Linux's on every architecture (linux/sched.h).
#ifdef SCHED_IDLE
#define VITRINE_SCHED_IDLE SCHED_IDLE
#else
#define VITRINE_SCHED_IDLE 5
#endif

// An unnamed regular file in the folder opened: linkat gives it a name once it is whole (Linux 3.11; ext4, xfs,
// btrfs, tmpfs). Callers fall back when the file system refuses it. -1 where the C library does not know it.
static inline int vitrine_open_tmpfile_flag(void) {
#ifdef __O_TMPFILE
    return __O_TMPFILE;
#else
    return -1;
#endif
}

// Puts the calling thread in the idle scheduling class: it runs only on a processor nothing else wants. Returns 0,
// or -1 (errno set) where the kernel refuses it.
static inline int vitrine_schedule_calling_thread_when_idle(void) {
    struct sched_param parameter = { .sched_priority = 0 };
    return sched_setscheduler(0, VITRINE_SCHED_IDLE, &parameter);
}

// The idle scheduling class's number.
static inline int vitrine_idle_scheduling_policy(void) { return VITRINE_SCHED_IDLE; }

#endif
