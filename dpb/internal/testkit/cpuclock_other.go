//go:build !linux

package testkit

import "time"

// cpuClock reports nothing off Linux (no per-thread CPU time here).
type cpuClock struct{}

func StartCPUClock() cpuClock           { return cpuClock{} }
func (cpuClock) elapsed() time.Duration { return 0 }
