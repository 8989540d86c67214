package check

import (
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/internal/simd"
)

// TestCheckKernelsSameBits runs the check at (5, 25) and (16, 256) (with
// its K mod 4 = 1 and 0 tails) and requires every verdict to pass with a
// comparison on CPUs with more than one kernel, the kernel in use restored,
// and bad sizes rejected. Deterministic.
func TestCheckKernelsSameBits(t *testing.T) {
	before := simd.Kernel()
	for _, c := range []KernelConfig{{D: 5, K: 25, Rounds: 300, Seed: 3}, {D: 16, K: 256, Rounds: 60, Seed: 4}} {
		vs, err := KernelsSameBits(c)
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) != 3 || !vs.OK() {
			t.Fatalf("%+v: %d verdicts, ok %v:\n%s", c, len(vs), vs.OK(), vs.Markdown())
		}
		for _, v := range vs {
			if n := len(simd.Kernels()); n > 1 && v.Trials != (n-1)*c.Rounds {
				t.Fatalf("%s: %d trials with %d kernels", v.Name, v.Trials, n)
			}
			if !strings.Contains(v.Note, "rounds differ") && len(simd.Kernels()) > 1 {
				t.Fatalf("%s: note %q", v.Name, v.Note)
			}
		}
	}
	if simd.Kernel() != before {
		t.Fatalf("kernel in use %s, was %s", simd.Kernel(), before)
	}
	for _, c := range []KernelConfig{{D: 1, K: 5, Rounds: 10}, {D: 5, K: 0, Rounds: 10}, {D: 5, K: 5}} {
		if _, err := KernelsSameBits(c); err == nil {
			t.Fatalf("%+v accepted", c)
		}
	}
}
