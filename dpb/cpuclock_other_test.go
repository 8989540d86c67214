//go:build !linux

package dpb

import "time"

// cpuClock reports nothing off Linux (no per-thread CPU time here).
type cpuClock struct{}

func startCPUClock() cpuClock           { return cpuClock{} }
func (cpuClock) elapsed() time.Duration { return 0 }
