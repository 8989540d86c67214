//go:build !linux

package experiment

// threadCPUNanos reports that this system's thread CPU clock is not read
// (LoopTiming.ChunkCPUMicros stays nil).
func threadCPUNanos() int64 { return -1 }
