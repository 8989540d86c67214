//go:build amd64 && !purego

package dpb

import (
	"fmt"
	"math"
	"testing"
)

// TestZigFastSameBits compares each assembly ziggurat kernel (scalar;
// AVX-512, whether or not the CPU selects it) with the Go loop it replaces:
// from 20000 states of a fixed stream and every length 0…40 (whole passes,
// tails, slow draws in every lane), each kernel with normSlow finishing the
// draws it hands back (the assembly kernels finish most wedge draws
// themselves, and must: at least half)
// must give the Go loop's draws and state; then normalsTo over 10⁶ draws in
// runs of varied length, with the kernel and without. Deterministic: no
// false failures. A kernel the CPU lacks is skipped.
func TestZigFastSameBits(t *testing.T) {
	for _, k := range zigKernels() {
		t.Run(k.name, func(t *testing.T) {
			if !k.ok {
				t.Skipf("no %s on this CPU", k.name)
			}
			testZigKernel(t, k)
		})
	}
}

// zigKernel is one setting of zigFast's switches, with the kernel it selects
// for runs of 16 draws or more.
type zigKernel struct {
	name           string
	ok             bool // the CPU has it
	scalar, avx512 bool
	fn             func([]float64, uint64) (int, uint64, uint64)
}

func zigKernels() []zigKernel {
	avx512 := hasAVX2FMA() && hasAVX512() && hasBMI12()
	return []zigKernel{
		{"go", true, false, false, zigFastGo},
		{"scalar", hasAVX2FMA() && hasBMI12(), true, false, zigFastScalar},
		{"avx512", avx512, true, true, zigFastAVX512},
	}
}

// use sets zigFast's switches to k's and returns a function that restores them.
func (k zigKernel) use() (restore func()) {
	s, a := zigScalar, zigAVX512
	zigScalar, zigAVX512 = k.scalar, k.avx512
	return func() { zigScalar, zigAVX512 = s, a }
}

func testZigKernel(t *testing.T, k zigKernel) {
	f := newFastRand(Stream(1, 503))
	a, b := make([]float64, 41), make([]float64, 41)
	slow, own := 0, 0
	for rep := 0; rep < 20000; rep++ {
		s := f.uint64()
		for n := 0; n <= 40; n++ {
			for i := range a {
				a[i], b[i] = -1, -1
			}
			na, nexta := zigFill(k.fn, a[:n], s)
			nb, nextb := zigFill(zigFastGo, b[:n], s)
			if nexta != nextb {
				t.Fatalf("state %x, len %d: %s ends at state %x, Go at %x", s, n, k.name, nexta, nextb)
			}
			if i := firstDiff(a, b); i >= 0 {
				t.Fatalf("state %x, len %d: draw %d is %v (%s), %v (Go)", s, n, i, a[i], k.name, b[i])
			}
			slow += nb
			own += nb - na // slow draws the kernel finished itself
		}
	}
	if slow < 1000 {
		t.Fatalf("only %d slow draws: the comparison did not exercise the slow lanes", slow)
	}
	t.Logf("%s: %d of %d slow draws finished in the kernel", k.name, own, slow)
	if k.name != "go" && own < slow/2 {
		t.Fatalf("the %s kernel finished %d of %d slow draws itself: the wedge squeeze did not run", k.name, own, slow)
	}
	goLoop := zigKernels()[0]
	fa, fb := newFastRand(Stream(2, 503)), newFastRand(Stream(2, 503))
	da, db := make([]float64, 1000), make([]float64, 1000)
	for rep := 0; rep < 2000; rep++ {
		n := 1 + rep%997
		restore := k.use()
		fa.normalsTo(da[:n])
		restore()
		restore = goLoop.use()
		fb.normalsTo(db[:n])
		restore()
		if fa != fb {
			t.Fatalf("run %d: states %x (%s) and %x (Go)", rep, fa.s, k.name, fb.s)
		}
		if i := firstDiff(da[:n], db[:n]); i >= 0 {
			t.Fatalf("run %d: draw %d is %v (%s), %v (Go)", rep, i, da[i], k.name, db[i])
		}
	}
}

// TestNormalsToIsNorm pins normalsTo, with the AVX-512 kernel and without,
// to norm called once per draw (zig, then normSlow for every word off the
// fast path: the definition of the stream), over runs of every length
// 1…100, then 1…1500, 10⁶ draws each (slow draws that take two words or
// more among them). Deterministic: no false failures.
func TestNormalsToIsNorm(t *testing.T) {
	for _, k := range zigKernels() {
		if !k.ok {
			continue
		}
		restore := k.use()
		fa, fb := newFastRand(Stream(5, 503)), newFastRand(Stream(5, 503))
		buf := make([]float64, 1500)
		multi := 0
		for done, rep := 0, 0; done < 2000000; rep++ {
			n := 1 + rep%100
			if done >= 1000000 {
				n = 1 + rep%1500
			}
			fa.normalsTo(buf[:n])
			for i := range n {
				before := fb.s
				want := fb.norm()
				if fb.s-before != 0xa0761d6478bd642f {
					multi++ // a slow draw that took more words
				}
				if math.Float64bits(buf[i]) != math.Float64bits(want) {
					t.Fatalf("kernel %s, run %d: draw %d is %v, norm gives %v", k.name, rep, i, buf[i], want)
				}
			}
			if fa.s != fb.s {
				t.Fatalf("kernel %s, run %d: state %x, norm's %x", k.name, rep, fa.s, fb.s)
			}
			done += n
		}
		restore()
		if multi < 1000 {
			t.Fatalf("kernel %s: only %d draws took more than one word", k.name, multi)
		}
	}
}

// zigFill fills dst from the wyrand state s with the kernel fn, finishing
// each draw it hands back with normSlow, as normalsTo does. It returns how
// many draws normSlow finished (with the Go loop: every draw whose first
// word is off the fast path) and the final state.
func zigFill(fn func([]float64, uint64) (int, uint64, uint64), dst []float64, s uint64) (slow int, next uint64) {
	f := fastRand{s: s}
	for {
		n, st, u := fn(dst, f.s)
		f.s = st
		if n == len(dst) {
			return slow, f.s
		}
		dst[n] = f.normSlow(u)
		slow++
		dst = dst[n+1:]
	}
}

// BenchmarkZigKernel times normalsTo (slow draws included) with each kernel
// the CPU has, for runs of 5, 21 (a node noise at d = 5), 125 (a (5, 25)
// decision set) and 1000 draws.
func BenchmarkZigKernel(b *testing.B) {
	for _, n := range []int{5, 21, 125, 1000} {
		for _, k := range zigKernels() {
			if !k.ok {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/%s", n, k.name), func(b *testing.B) {
				defer k.use()()
				f := newFastRand(Stream(1, 1))
				dst := make([]float64, n)
				b.ReportAllocs()
				for b.Loop() {
					f.normalsTo(dst)
				}
			})
		}
	}
}
