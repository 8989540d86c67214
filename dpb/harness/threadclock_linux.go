//go:build linux

package harness

import (
	"syscall"
	"unsafe"
)

// ThreadCPUNanos returns the CPU time of the calling OS thread in ns
// (clock_gettime(CLOCK_THREAD_CPUTIME_ID), exact to the scheduler's
// accounting, unlike getrusage's ticks), or -1 when it cannot be read.
func ThreadCPUNanos() int64 {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return -1
	}
	return ts.Nano()
}
