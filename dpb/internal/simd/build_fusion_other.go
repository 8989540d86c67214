//go:build !amd64

package simd

import (
	"runtime"
)

const fusionBuild = runtime.GOARCH
