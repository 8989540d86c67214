//go:build !linux

package harness

// ThreadCPUNanos reports that this system's thread CPU clock is not read
// (LoopTiming.ChunkCPUMicros stays nil).
func ThreadCPUNanos() int64 { return -1 }
