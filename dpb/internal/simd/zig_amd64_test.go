//go:build amd64 && !purego

package simd_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TestZigFastSameBits compares each assembly ziggurat kernel (scalar;
// AVX-512, whether or not the CPU selects it) with the Go loop it replaces:
// from 20000 states of a fixed stream and every length 0…40 (whole passes,
// tails, slow draws in every lane), each kernel with NormSlow finishing the
// draws it hands back (the assembly kernels finish most wedge draws
// themselves, and must: at least half)
// must give the Go loop's draws and state; then NormalsTo over 10⁶ draws in
// runs of varied length, with the kernel and without. Deterministic: no
// false failures. A kernel the CPU lacks is skipped.
func TestZigFastSameBits(t *testing.T) {
	for _, k := range testutil.ZigKernels() {
		t.Run(k.Name, func(t *testing.T) {
			if !k.Ok {
				t.Skipf("no %s on this CPU", k.Name)
			}
			testZigKernel(t, k)
		})
	}
}

func testZigKernel(t *testing.T, k testutil.ZigKernel) {
	f := noise.NewFastRand(bandit.Stream(1, 503))
	a, b := make([]float64, 41), make([]float64, 41)
	slow, own := 0, 0
	for rep := 0; rep < 20000; rep++ {
		s := f.Uint64()
		for n := 0; n <= 40; n++ {
			for i := range a {
				a[i], b[i] = -1, -1
			}
			na, nexta := testutil.ZigFill(k.Fn, a[:n], s)
			nb, nextb := testutil.ZigFill(simd.ZigFastGo, b[:n], s)
			if nexta != nextb {
				t.Fatalf("state %x, len %d: %s ends at state %x, Go at %x", s, n, k.Name, nexta, nextb)
			}
			if i := testkit.FirstDiff(a, b); i >= 0 {
				t.Fatalf("state %x, len %d: draw %d is %v (%s), %v (Go)", s, n, i, a[i], k.Name, b[i])
			}
			slow += nb
			own += nb - na // slow draws the kernel finished itself
		}
	}
	if slow < 1000 {
		t.Fatalf("only %d slow draws: the comparison did not exercise the slow lanes", slow)
	}
	t.Logf("%s: %d of %d slow draws finished in the kernel", k.Name, own, slow)
	if k.Name != "go" && own < slow/2 {
		t.Fatalf("the %s kernel finished %d of %d slow draws itself: the wedge squeeze did not run", k.Name, own, slow)
	}
	goLoop := testutil.ZigKernels()[0]
	fa, fb := noise.NewFastRand(bandit.Stream(2, 503)), noise.NewFastRand(bandit.Stream(2, 503))
	da, db := make([]float64, 1000), make([]float64, 1000)
	for rep := 0; rep < 2000; rep++ {
		n := 1 + rep%997
		restore := k.Use()
		fa.NormalsTo(da[:n])
		restore()
		restore = goLoop.Use()
		fb.NormalsTo(db[:n])
		restore()
		if fa != fb {
			t.Fatalf("run %d: states %x (%s) and %x (Go)", rep, fa.S, k.Name, fb.S)
		}
		if i := testkit.FirstDiff(da[:n], db[:n]); i >= 0 {
			t.Fatalf("run %d: draw %d is %v (%s), %v (Go)", rep, i, da[i], k.Name, db[i])
		}
	}
}

// TestNormalsToIsNorm pins NormalsTo, with the AVX-512 kernel and without,
// to norm called once per draw (zig, then NormSlow for every word off the
// fast path: the definition of the stream), over runs of every length
// 1…100, then 1…1500, 10⁶ draws each (slow draws that take two words or
// more among them). Deterministic: no false failures.
func TestNormalsToIsNorm(t *testing.T) {
	for _, k := range testutil.ZigKernels() {
		if !k.Ok {
			continue
		}
		restore := k.Use()
		fa, fb := noise.NewFastRand(bandit.Stream(5, 503)), noise.NewFastRand(bandit.Stream(5, 503))
		buf := make([]float64, 1500)
		multi := 0
		for done, rep := 0, 0; done < 2000000; rep++ {
			n := 1 + rep%100
			if done >= 1000000 {
				n = 1 + rep%1500
			}
			fa.NormalsTo(buf[:n])
			for i := range n {
				before := fb.S
				want := fb.Norm()
				if fb.S-before != 0xa0761d6478bd642f {
					multi++ // a slow draw that took more words
				}
				if math.Float64bits(buf[i]) != math.Float64bits(want) {
					t.Fatalf("kernel %s, run %d: draw %d is %v, norm gives %v", k.Name, rep, i, buf[i], want)
				}
			}
			if fa.S != fb.S {
				t.Fatalf("kernel %s, run %d: state %x, norm's %x", k.Name, rep, fa.S, fb.S)
			}
			done += n
		}
		restore()
		if multi < 1000 {
			t.Fatalf("kernel %s: only %d draws took more than one word", k.Name, multi)
		}
	}
}

// BenchmarkZigKernel times NormalsTo (slow draws included) with each kernel
// the CPU has, for runs of 5, 21 (a node noise at d = 5), 125 (a (5, 25)
// decision set) and 1000 draws.
func BenchmarkZigKernel(b *testing.B) {
	for _, n := range []int{5, 21, 125, 1000} {
		for _, k := range testutil.ZigKernels() {
			if !k.Ok {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/%s", n, k.Name), func(b *testing.B) {
				defer k.Use()()
				f := noise.NewFastRand(bandit.Stream(1, 1))
				dst := make([]float64, n)
				b.ReportAllocs()
				for b.Loop() {
					f.NormalsTo(dst)
				}
			})
		}
	}
}
