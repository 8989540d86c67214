//go:build !amd64 || purego

package dpb

import "runtime"

const (
	fmaPeak256Flops = 0
	fmaPeak512Flops = 0
)

func fmaPeak256(int)  {}
func fmaPeak512(int)  {}
func hasFMA256() bool { return false }
func hasFMA512() bool { return false }

// cpuModel returns GOARCH: this build reads no CPU identification.
func cpuModel() string { return runtime.GOARCH }
