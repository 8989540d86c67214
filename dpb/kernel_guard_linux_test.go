//go:build linux && amd64 && !purego

package dpb

import (
	"math"
	"syscall"
	"testing"
	"unsafe"
)

// guardedFloats returns n float64s that end exactly where an inaccessible
// page begins, so that a kernel reading one float past them faults, and a
// function that unmaps them.
func guardedFloats(t *testing.T, n int) ([]float64, func()) {
	page := syscall.Getpagesize()
	size := (8*n + page - 1) / page * page
	mem, err := syscall.Mmap(-1, 0, size+page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	if err := syscall.Mprotect(mem[size:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	x := unsafe.Slice((*float64)(unsafe.Pointer(&mem[size-8*n])), n)
	return x, func() { syscall.Munmap(mem) }
}

// TestKernelsStayInside scores decision sets that end at an inaccessible
// page with every kernel: a kernel that reads past the last action (a lanes
// kernel loading eight coordinates unmasked when 8 ∤ d, say) faults. It also
// checks the bits against the Go loop.
func TestKernelsStayInside(t *testing.T) {
	rng := Stream(1, 7)
	for d := 4; d <= 70; d++ {
		dp := padDim(d)
		_, _, mt, zp := randomKernel(rng, d, dp)
		for _, nblk := range []int{8, 16, 24} {
			x, free := guardedFloats(t, 4*nblk*d)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			want := make([]float64, 4*nblk)
			scoreBlocksGo(mt, dp, zp, d, x, nblk, 1.3, want)
			for _, k := range kernelsRunnable() {
				got := make([]float64, 4*nblk)
				scoreBlocksWith(k, mt, dp, zp, d, x, nblk, 1.3, got)
				for i := range want {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("d=%d nblk=%d action %d: kernel %s gives %v, the Go loop %v", d, nblk, i, k, got[i], want[i])
					}
				}
			}
			free()
		}
	}
}

// TestNormaliseStaysInside runs normaliseBlocks on decision sets and a θ
// that each end at an inaccessible page, K up to three 32-vector passes
// plus a tail, and checks the bits against normaliseBlocksGo.
func TestNormaliseStaysInside(t *testing.T) {
	g := newFastRand(Stream(1, 8))
	for d := 1; d <= 70; d++ {
		theta, freeTheta := guardedFloats(t, d)
		g.normalsTo(theta)
		for _, k := range []int{8, 31, 32, 64, 96, 101} {
			a, free := guardedFloats(t, k*d)
			g.normalsTo(a)
			b := append([]float64(nil), a...)
			ma, mb := make([]float64, k), make([]float64, k)
			normaliseBlocks(a, theta, ma, d)
			normaliseBlocksGo(b, theta, mb, d)
			if i := firstDiff(a, b); i >= 0 {
				t.Fatalf("d %d, K %d: component %d is %v, normaliseBlocksGo gives %v", d, k, i, a[i], b[i])
			}
			if i := firstDiff(ma, mb); i >= 0 {
				t.Fatalf("d %d, K %d: mean %d is %v, normaliseBlocksGo gives %v", d, k, i, ma[i], mb[i])
			}
			free()
		}
		freeTheta()
	}
}
