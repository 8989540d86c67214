//go:build linux && amd64 && !purego

package ss18

import (
	"fmt"
	"math"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// guardedFloats returns n float64s that end exactly where an inaccessible
// page begins, so that a kernel reading one float past them faults, and a
// function that unmaps them.
func guardedFloats(t testing.TB, n int) ([]float64, func()) {
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
	rng := bandit.Stream(1, 7)
	for d := 4; d <= 70; d++ {
		dp := simd.PadDim(d)
		_, _, mt, zp := testutil.RandomKernel(rng, d, dp)
		for _, nblk := range []int{8, 16, 24} {
			x, free := guardedFloats(t, 4*nblk*d)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			want := make([]float64, 4*nblk)
			simd.ScoreBlocksGo(mt, dp, zp, d, x, nblk, 1.3, want)
			for _, k := range simd.KernelsRunnable() {
				got := make([]float64, 4*nblk)
				simd.ScoreBlocksWith(k, mt, dp, zp, d, x, nblk, 1.3, got)
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

// TestNormaliseStaysInside runs NormaliseBlocks on decision sets, a θ and
// means that each end at an inaccessible page, K from 1 to three 32-vector
// passes plus a tail (at d ≤ 8 every tail of the eight-vector passes, left
// to the Go loop), and checks the bits against NormaliseBlocksGo.
func TestNormaliseStaysInside(t *testing.T) {
	g := noise.NewFastRand(bandit.Stream(1, 8))
	for d := 1; d <= 70; d++ {
		theta, freeTheta := guardedFloats(t, d)
		g.NormalsTo(theta)
		for _, k := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 25, 31, 32, 64, 96, 101} {
			a, free := guardedFloats(t, k*d)
			g.NormalsTo(a)
			b := append([]float64(nil), a...)
			ma, freeMeans := guardedFloats(t, k)
			mb := make([]float64, k)
			simd.NormaliseBlocks(a, theta, ma, d)
			simd.NormaliseBlocksGo(b, theta, mb, d)
			if i := testkit.FirstDiff(a, b); i >= 0 {
				t.Fatalf("d %d, K %d: component %d is %v, normaliseBlocksGo gives %v", d, k, i, a[i], b[i])
			}
			if i := testkit.FirstDiff(ma, mb); i >= 0 {
				t.Fatalf("d %d, K %d: mean %d is %v, normaliseBlocksGo gives %v", d, k, i, ma[i], mb[i])
			}
			free()
			freeMeans()
		}
		freeTheta()
	}
}

// gramPlusI returns B Bᵀ + I for a d×d B of normal draws from g: a
// positive definite V (d×d row-major, both triangles).
func gramPlusI(g *noise.FastRand, d int) []float64 {
	bm := make([]float64, d*d)
	g.NormalsTo(bm)
	v := make([]float64, d*d)
	for i := range d {
		for j := range d {
			var s float64
			for k := range d {
				s += float64(bm[i*d+k] * bm[j*d+k])
			}
			v[i*d+j] = s
		}
		v[i*d+i]++
	}
	return v
}

// guardedCopy returns a copy of x in guardedFloats.
func guardedCopy(t testing.TB, x []float64) ([]float64, func()) {
	g, free := guardedFloats(t, len(x))
	copy(g, x)
	return g, free
}

// TestSmallKernelsStayInside runs the ziggurat kernels with their output
// ending at an inaccessible page, on the sizes around their vector widths,
// and checks their draws and final state against the Go loop's.
func TestSmallKernelsStayInside(t *testing.T) {
	for _, k := range testutil.ZigKernels() {
		if !k.Ok {
			continue
		}
		for n := 1; n <= 100; n++ {
			for rep := range 20 {
				s := uint64(100*n+rep) * 0x9e3779b97f4a7c15
				want := make([]float64, n)
				_, wnext := testutil.ZigFill(simd.ZigFastGo, want, s)
				dst, free := guardedFloats(t, n)
				_, gnext := testutil.ZigFill(k.Fn, dst, s)
				if gnext != wnext || testkit.FirstDiff(dst, want) >= 0 {
					t.Fatalf("ziggurat %s, %d draws, state %#x: ends at state %#x, the Go loop at %#x; first difference at %d",
						k.Name, n, s, gnext, wnext, testkit.FirstDiff(dst, want))
				}
				free()
			}
		}
	}
}

// TestCholInv4StaysInside runs the four-policy factorisation (CholInv4AVX2)
// with each of its seventeen slices in turn ending at an inaccessible page,
// for d = 1…prep4MaxDim, and checks the factors, M and z of the four lanes
// against cholesky and InverseFactorTo.
func TestCholInv4StaysInside(t *testing.T) {
	if !simd.Prep4AVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	g := noise.NewFastRand(bandit.Stream(1, 10))
	for d := 1; d <= prep4MaxDim; d++ {
		dp := simd.PadDim(d)
		var v, u [4][]float64
		for b := range 4 {
			v[b] = gramPlusI(&g, d)
			u[b] = make([]float64, d)
			g.NormalsTo(u[b])
		}
		var wantV, wantMT, wantZP [4][]float64
		for b := range 4 {
			wantV[b] = append([]float64(nil), v[b]...)
			wantMT[b], wantZP[b] = make([]float64, (d-1)*dp+d), make([]float64, d)
			if !simd.Cholesky(wantV[b], make([]float64, d), d) {
				t.Fatalf("d %d: test matrix not positive definite", d)
			}
			simd.InverseFactorTo(wantMT[b], wantZP[b], wantV[b], u[b], nil, d, dp)
		}
		for arg := range 17 {
			bufs, lanes, s, free := guardedLanes(t, &v, &u, (d-1)*dp+d, d, 2*d*d*4+2*d*4, arg)
			if bad := simd.CholInv4AVX2(&lanes, s, d, dp); bad != 0 {
				t.Fatalf("d %d, argument %d guarded: lanes %b flagged not positive definite", d, arg, bad)
			}
			for b := range 4 {
				for _, c := range []struct {
					name      string
					got, want []float64
				}{{"factor", bufs[b], wantV[b]}, {"M", bufs[8+b], wantMT[b]}, {"z", bufs[12+b], wantZP[b]}} {
					if i := testkit.FirstDiff(c.got, c.want); i >= 0 {
						t.Fatalf("d %d, argument %d guarded, lane %d: %s entry %d is %v, want %v", d, arg, b, c.name, i, c.got[i], c.want[i])
					}
				}
			}
			free()
		}
	}
}

// TestChooseLockstepStaysInside scores decision sets that end at an
// inaccessible page for four ridge policies at once through
// chooseLockstep, each policy's M, z and score buffer also ending at one
// (the score buffer exactly as long as chooseLockstep may write, 4⌊K/4⌋ + 8),
// and checks the actions and scores against each policy's Choose.
func TestChooseLockstepStaysInside(t *testing.T) {
	if !simd.LockAVX512 || simd.Kernel() != "avx512" {
		t.Skip("no AVX-512 lockstep scoring on this CPU")
	}
	g, rng := noise.NewFastRand(bandit.Stream(1, 9)), bandit.Stream(1, 10)
	for d := 2; d <= simd.LockMaxDim; d++ {
		for _, k := range []int{4, 5, 7, 8, 12, 13, 16, 24, 25, 31, 32} {
			pols := make([]bandit.Policy, 4)
			var frees []func()
			for i := range pols {
				p := ridgeLinUCB(t, d, 100, 5+3*i, rng)
				p.ensure()
				var f1, f2, f3 func()
				p.f.mt, f1 = guardedCopy(t, p.f.mt)
				p.f.zp, f2 = guardedCopy(t, p.f.zp)
				p.f.scores, f3 = guardedFloats(t, 4*(k/4)+8)
				frees = append(frees, f1, f2, f3)
				pols[i] = p
			}
			acts, free := guardedFloats(t, k*d)
			g.NormalsTo(acts)
			r := &bandit.Round{T: 1, Dim: d, K: k, Actions: acts}
			arms := make([]int, 4)
			chooseLockstep(pols, r, arms)
			got := make([][]float64, 4)
			for i, pol := range pols {
				got[i] = append([]float64(nil), pol.(*LinUCB).f.scores[:k]...)
			}
			for i, pol := range pols {
				if a := pol.Choose(r); a != arms[i] {
					t.Fatalf("d %d, K %d, policy %d: action %d (lockstep), %d (Choose)", d, k, i, arms[i], a)
				}
				if j := testkit.FirstDiff(got[i], pol.(*LinUCB).f.scores[:k]); j >= 0 {
					t.Fatalf("d %d, K %d, policy %d: score %d is %v (lockstep), %v (Choose)", d, k, i, j, got[i][j], pol.(*LinUCB).f.scores[j])
				}
			}
			free()
			for _, f := range frees {
				f()
			}
		}
	}
}

// TestCholInv5x4StaysInside runs CholInv5x4AVX2 with each of its seventeen
// arrays in turn ending at an inaccessible page (V, ũ, mt, z of each lane,
// then the scratch) and checks every lane against PrepareFactors5.
func TestCholInv5x4StaysInside(t *testing.T) {
	if !simd.Prep4AVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	g := noise.NewFastRand(bandit.Stream(1, 19))
	var v, u [4][]float64
	var want [4]testutil.Prep5x4Case
	var wantZ [4][5]float64
	for b := range 4 {
		v[b] = gramPlusI(&g, 5)
		u[b] = make([]float64, 5)
		g.NormalsTo(u[b])
		copy(want[b].V[:], v[b])
		copy(want[b].U[:], u[b])
		if !simd.PrepareFactors5(&want[b].V, &want[b].Mt, &wantZ[b], &want[b].U) {
			t.Fatal("test matrix not positive definite")
		}
	}
	for arg := range 17 {
		bufs, lanes, s, free := guardedLanes(t, &v, &u, 37, 5, simd.Prep5x4Scratch, arg)
		if bad := simd.CholInv5x4AVX2(&lanes, (*[simd.Prep5x4Scratch]float64)(s)); bad != 0 {
			t.Fatalf("argument %d guarded: lanes %b flagged not positive definite", arg, bad)
		}
		for b := range 4 {
			for _, c := range []struct {
				name      string
				got, want []float64
			}{{"factor", bufs[b], want[b].V[:]}, {"mt", bufs[8+b], want[b].Mt[:]}, {"z", bufs[12+b], wantZ[b][:]}} {
				if i := testkit.FirstDiff(c.got, c.want); i >= 0 {
					t.Fatalf("argument %d guarded, lane %d: %s entry %d is %v, want %v", arg, b, c.name, i, c.got[i], c.want[i])
				}
			}
		}
		free()
	}
}

// guardedLanes lays out the four-policy kernels' arguments: copies of v and
// u, zeroed mt (nmt floats) and z (nz) for each lane, zeroed scratch (ns),
// with argument arg (0…15 the lanes' arrays in lanes' order, 16 the
// scratch) ending at an inaccessible page; free releases it.
func guardedLanes(t *testing.T, v, u *[4][]float64, nmt, nz, ns, arg int) (bufs [16][]float64, lanes [16]*float64, s []float64, free func()) {
	for b := range 4 {
		bufs[b] = append([]float64(nil), v[b]...)
		bufs[4+b] = append([]float64(nil), u[b]...)
		bufs[8+b] = make([]float64, nmt)
		bufs[12+b] = make([]float64, nz)
	}
	s = make([]float64, ns)
	if arg < 16 {
		bufs[arg], free = guardedCopy(t, bufs[arg])
	} else {
		s, free = guardedCopy(t, s)
	}
	for i := range lanes {
		lanes[i] = &bufs[i][0]
	}
	return bufs, lanes, s, free
}

// The page-end benchmarks time the kernels on decision sets that end where
// an inaccessible page begins against the same data in ordinary memory
// (guarded/plain). A masked vector load that reaches past the last action or
// vector into such a page faults nothing but takes a microcode assist every
// time (a page not yet mapped in does the same). On AMD EPYC Zen 5 a d ≤ 8
// normalisation kernel with a masked last pass read 16–29× here, the lanes
// normalisation and the AVX-512 lanes scoring with their last masked tail
// crossing 1.7–1.9× and 1.35–3.2× (d = 9–33); with the routing that leaves
// such a last pass to another kernel (loadPassesEnd in dpb/internal/simd),
// 1.0–1.35×. They only measure: what keeps the routing right in CI is
// TestScoreRoutingPageEnds and TestNormaliseRoutingPageEnds in
// dpb/internal/simd, which check it on every layout without a clock, since
// a comparison of two timings is not a test a loaded host can be trusted
// with. Run them with go test -run '^$' -bench AtPageEnd ./dpb/ss18.

// pageEndRatio runs f b.N times on guarded (data that ends where an
// inaccessible page begins) and b.N times on plain (the same data in
// ordinary memory), in alternating batches of up to 100 calls after one
// call on each (the pages' first touch), and reports the time a call takes
// in the fastest batch of each and their ratio, guarded/plain: a stretch in
// which another tenant slows the core (seconds at 1.5–1.7× on these hosts)
// then slows both alike or neither.
func pageEndRatio(b *testing.B, guarded, plain []float64, f func(a []float64)) {
	perCall := func(a []float64, calls int) float64 {
		start := time.Now()
		for range calls {
			f(a)
		}
		return float64(time.Since(start).Nanoseconds()) / float64(calls)
	}
	f(guarded)
	f(plain)
	tg, tp := math.Inf(1), math.Inf(1)
	b.ResetTimer()
	for left := b.N; left > 0; left -= 100 {
		calls := min(left, 100)
		tg = min(tg, perCall(guarded, calls))
		tp = min(tp, perCall(plain, calls))
	}
	b.ReportMetric(tg, "guarded-ns/call")
	b.ReportMetric(tp, "plain-ns/call")
	b.ReportMetric(tg/tp, "guarded/plain")
}

// BenchmarkNormaliseAtPageEnd times NormaliseBlocks on decision sets that
// end where an inaccessible page begins against copies in ordinary memory
// (pageEndRatio), at sizes where a kernel without the routing loads past
// the last vector: (3, 25), (5, 25), (7, 9) for the eight-vector kernel,
// (12, 64), (20, 64) for the lanes kernel.
func BenchmarkNormaliseAtPageEnd(b *testing.B) {
	g := noise.NewFastRand(bandit.Stream(1, 11))
	for _, dk := range []struct{ d, k int }{{3, 25}, {5, 25}, {7, 9}, {12, 64}, {20, 64}} {
		d, k := dk.d, dk.k
		theta := make([]float64, d)
		g.NormalsTo(theta)
		src := make([]float64, k*d)
		g.NormalsTo(src)
		b.Run(fmt.Sprintf("d=%d/K=%d", d, k), func(b *testing.B) {
			guarded, free := guardedFloats(b, k*d)
			defer free()
			plain := make([]float64, k*d+64)[:k*d]
			means := make([]float64, k)
			pageEndRatio(b, guarded, plain, func(a []float64) {
				copy(a, src)
				simd.NormaliseBlocks(a, theta, means, d)
			})
		})
	}
}

// BenchmarkScoreAtPageEnd times every scoring kernel on decision sets of 32
// actions that end where an inaccessible page begins against copies in
// ordinary memory (pageEndRatio), as BenchmarkNormaliseAtPageEnd does for
// the normalisation.
func BenchmarkScoreAtPageEnd(b *testing.B) {
	rng := bandit.Stream(1, 12)
	for _, d := range []int{5, 9, 12, 20, 33, 64} {
		dp := simd.PadDim(d)
		_, _, mt, zp := testutil.RandomKernel(rng, d, dp)
		const nblk = 8
		x := make([]float64, 4*nblk*d)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		for _, k := range simd.KernelsRunnable() {
			b.Run(fmt.Sprintf("d=%d/kernel=%s", d, k), func(b *testing.B) {
				guarded, free := guardedCopy(b, x)
				defer free()
				plain := append(make([]float64, 0, len(x)+64), x...)
				got := make([]float64, 4*nblk)
				pageEndRatio(b, guarded, plain, func(a []float64) {
					simd.ScoreBlocksWith(k, mt, dp, zp, d, a, nblk, 1.3, got)
				})
			})
		}
	}
}
