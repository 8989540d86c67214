//go:build amd64.v3

package dpb

const fusionBuild = "amd64.v3"
