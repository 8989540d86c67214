//go:build !amd64

package dpb

import "runtime"

const fusionBuild = runtime.GOARCH
