package simd

// FusionBuild names the builds whose results may differ in the last bits from
// the default amd64 build's, and is "" for the default (amd64 at GOAMD64=v1
// or v2). Go's compiler fuses a*b + c into one fused multiply-add on arm64,
// ppc64, s390x, riscv64, loong64 and on amd64 from GOAMD64=v3 on. This
// module's own code rounds every product explicitly (no fusion: checked by
// .ci/fma-check), but the standard library's special functions and gonum's
// eigen solvers are compiled with fusion there, so a few results (the proof
// checks' slack values) can differ. The job store adds FusionBuild to its key,
// so results of such a build never mix with the default build's in a merge.
func FusionBuild() string { return fusionBuild }
