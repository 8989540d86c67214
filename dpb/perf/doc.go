// Package perf measures this machine for the performance notes: the
// fused-multiply-add peak and the normal-sampling rate ([MeasurePeak],
// [FMAMeter]), the CPU model, and the choice of LinUCB scoring kernel
// ([Kernel], [SetKernel]) that `dpb bench` and the performance notebook time.
// Every kernel computes the same bits, so nothing here changes a result.
package perf
