//go:build unix

package main

import (
	"math"
	"syscall"
)

// addressSpaceLimit returns the process's address-space limit (ulimit -v),
// if it has one.
func addressSpaceLimit() (int64, bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur >= math.MaxInt64 { // RLIM_INFINITY: ^0 on Linux, MaxInt64 on some BSDs
		return 0, false
	}
	return int64(rl.Cur), true
}
