// Package perf measures this machine for the performance notes: the
// fused-multiply-add peak and the normal-sampling rate ([MeasurePeak],
// [FMAMeter]) and the CPU model. `dpb bench` uses it directly; outside the
// module it is reached through harness.MeasurePeak. Nothing here changes
// a result.
package perf
