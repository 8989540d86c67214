//go:build amd64.v3

package simd

const fusionBuild = "amd64.v3"
