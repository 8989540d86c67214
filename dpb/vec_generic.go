//go:build !amd64 || purego

package dpb

func vecAddTo(dst, a, b []float64)     { vecAddGo(dst, a, b) }
func vecAdd3To(dst, a, b, c []float64) { vecAdd3Go(dst, a, b, c) }
func vecMulTo(dst, a, b []float64)     { vecMulGo(dst, a, b) }
