//go:build linux

package testkit

import (
	"runtime"
	"syscall"
	"time"
)

// cpuClock measures the CPU time of the benchmark's OS thread (locked to it
// from StartCPUClock to elapsed): on a shared host it counts the time the
// code ran, not the time other processes held the core.
type cpuClock struct{ start time.Duration }

func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func StartCPUClock() cpuClock {
	runtime.LockOSThread()
	return cpuClock{start: threadCPU()}
}

// elapsed returns the thread's CPU time since StartCPUClock and unlocks the
// thread.
func (c cpuClock) elapsed() time.Duration {
	d := threadCPU() - c.start
	runtime.UnlockOSThread()
	return d
}
