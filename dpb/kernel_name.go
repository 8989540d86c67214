package dpb

// KernelName names the LinUCB scoring kernel this process uses ("avx2" or
// "go"). The job store records it beside every job so a merge can say which
// machines produced a result; it is not part of the store key because the
// kernels are meant to give bit-identical scores (see kernel_test.go).
func KernelName() string { return kernelName() }
