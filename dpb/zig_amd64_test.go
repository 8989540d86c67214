//go:build amd64 && !purego

package dpb

import (
	"math"
	"testing"
)

// TestZigFastSameBits compares the AVX-512 ziggurat kernel with the Go loop
// it replaces: from 20000 states of a fixed stream and every length 0…40
// (whole passes, tails, slow draws in every lane), the same count, state,
// failing word and draws; then normalsTo over 10⁶ draws in runs of varied
// length, with the kernel and without. Deterministic: no false failures.
// Skipped on CPUs without AVX-512.
func TestZigFastSameBits(t *testing.T) {
	if !hasAVX2FMA() || !hasAVX512() {
		t.Skip("no AVX-512 on this CPU")
	}
	f := newFastRand(Stream(1, 503))
	a, b := make([]float64, 41), make([]float64, 41)
	slow := 0
	for rep := 0; rep < 20000; rep++ {
		s := f.uint64()
		for n := 0; n <= 40; n++ {
			for i := range a {
				a[i], b[i] = -1, -1
			}
			na, nexta, ua := zigFastAVX512(a[:n], s)
			nb, nextb, ub := zigFastGo(b[:n], s)
			if na != nb || nexta != nextb || ua != ub {
				t.Fatalf("state %x, len %d: AVX-512 (%d, %x, %x), Go (%d, %x, %x)", s, n, na, nexta, ua, nb, nextb, ub)
			}
			if na < n {
				slow++
			}
			for i := range a {
				if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
					t.Fatalf("state %x, len %d: draw %d is %v (AVX-512), %v (Go)", s, n, i, a[i], b[i])
				}
			}
		}
	}
	if slow < 1000 {
		t.Fatalf("only %d calls met a slow draw: the comparison did not exercise the slow lanes", slow)
	}
	defer func(v bool) { zigAVX512 = v }(zigAVX512)
	fa, fb := newFastRand(Stream(2, 503)), newFastRand(Stream(2, 503))
	da, db := make([]float64, 1000), make([]float64, 1000)
	for rep := 0; rep < 2000; rep++ {
		n := 1 + rep%997
		zigAVX512 = true
		fa.normalsTo(da[:n])
		zigAVX512 = false
		fb.normalsTo(db[:n])
		if fa != fb {
			t.Fatalf("run %d: states %x (AVX-512) and %x (Go)", rep, fa.s, fb.s)
		}
		for i := range n {
			if math.Float64bits(da[i]) != math.Float64bits(db[i]) {
				t.Fatalf("run %d: draw %d is %v (AVX-512), %v (Go)", rep, i, da[i], db[i])
			}
		}
	}
}

// TestNormalsToIsNorm pins normalsTo, with the AVX-512 kernel and without,
// to norm called once per draw (zig, then normSlow for every word off the
// fast path: the definition of the stream), over runs of every length
// 1…100, then 1…1500, 10⁶ draws each (slow draws that take two words or
// more among them). Deterministic: no false failures.
func TestNormalsToIsNorm(t *testing.T) {
	defer func(v bool) { zigAVX512 = v }(zigAVX512)
	for _, kernel := range []bool{false, true} {
		if kernel && !(hasAVX2FMA() && hasAVX512()) {
			continue
		}
		zigAVX512 = kernel
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
					t.Fatalf("kernel %v, run %d: draw %d is %v, norm gives %v", kernel, rep, i, buf[i], want)
				}
			}
			if fa.s != fb.s {
				t.Fatalf("kernel %v, run %d: state %x, norm's %x", kernel, rep, fa.s, fb.s)
			}
			done += n
		}
		if multi < 1000 {
			t.Fatalf("kernel %v: only %d draws took more than one word", kernel, multi)
		}
	}
}
