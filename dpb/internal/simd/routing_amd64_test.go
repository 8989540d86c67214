//go:build amd64 && !purego

package simd

import (
	"fmt"
	"testing"
)

// The routing tests check lanesScoreBlocks and lanesNormPasses, which decide
// how much of a decision set the one-per-lane AVX-512 kernels take, on every
// layout against a model of the kernels' loads written out here: no clock,
// no memory tricks, no assembly run, so they run on every amd64 CPU.
//
// A masked 64-byte load that reaches past the data into a page the data
// does not reach faults nothing but, where that page is not mapped in, takes
// a microcode assist each time. The model: a pass of the lanes kernels
// loads, for each of its actions (vectors), 64 bytes from the action's start
// and from every eighth float after it below d (the last of them masked when
// 8 ∤ d, but its 64 bytes counted all the same); see lanesScoreBlocks and
// lanesNormPasses for the assembly these come from. A load crosses when its
// last byte lies on a later 4 KiB page than the data's last byte.

// routingPage is the page size the model assumes.
const routingPage = 4096

// routingOrigin is the address of the page the model's layouts start in: any
// page-aligned address would do.
const routingOrigin uintptr = 1 << 32

// routingDims are the d the routing tests take: every d to 70 (every d mod
// 8), then a few to lanesMaxDim = 128 and, for the normalisation, which has
// no largest d, beyond.
var routingDims = func() []int {
	var ds []int
	for d := 1; d <= 70; d++ {
		ds = append(ds, d)
	}
	return append(ds, 71, 72, 73, 95, 100, 119, 127, 128)
}()

// firstCrossing returns the start address of the first load that the lanes
// kernels issue for actions from…to−1 (d floats each, the first at base)
// whose last byte lies on a page after that of last, the data's last byte;
// ok is false when there is none.
func firstCrossing(base uintptr, d, from, to int, last uintptr) (start uintptr, ok bool) {
	for a := from; a < to; a++ {
		for j := 0; j < d; j += 8 {
			start := base + uintptr(8*(a*d+j))
			if (start+63)/routingPage > last/routingPage {
				return start, true
			}
		}
	}
	return 0, false
}

// routingCheck checks one layout's routing: the kernel, whose passes take
// per actions each, was given taken of the passes actions/per offers, on data
// whose last byte is last. No routed pass may have a load that crosses, and
// at most the last pass may be withheld, and only when one of its loads
// would cross. It returns what is wrong, or "".
func routingCheck(base uintptr, d, actions, per, taken int, last uintptr) string {
	whole := actions / per
	if taken < 0 || taken > whole || taken < whole-1 {
		return fmt.Sprintf("%d of %d passes routed", taken, whole)
	}
	if start, ok := firstCrossing(base, d, 0, per*taken, last); ok {
		return fmt.Sprintf("routed pass loads 64 bytes at page offset %#x, past the data's last byte at %#x, into the next page",
			start%routingPage, last%routingPage)
	}
	if taken < whole {
		if _, ok := firstCrossing(base, d, per*taken, per*whole, last); !ok {
			return fmt.Sprintf("pass %d of %d withheld, yet none of its loads leaves the data's pages", taken+1, whole)
		}
	}
	return ""
}

// routingReport collects a test's failures: the first at each of the first
// few d in full, then how many and at which d.
type routingReport struct {
	t                        *testing.T
	layouts, withheld, fails int
	dims                     map[int]int
}

// check records one layout: msg is routingCheck's answer, withheld whether
// the routing withheld a pass.
func (r *routingReport) check(what string, d int, off uintptr, msg string, withheld bool) {
	r.layouts++
	if withheld {
		r.withheld++
	}
	if msg == "" {
		return
	}
	r.fails++
	if r.dims == nil {
		r.dims = map[int]int{}
	}
	r.dims[d]++
	if r.dims[d] == 1 && len(r.dims) <= 12 { // the first wrong layout of each of the first 12 d
		r.t.Errorf("%s, set at page offset %#x: %s", what, off, msg)
	}
}

func (r *routingReport) done() {
	if r.fails == 0 {
		r.t.Logf("%d layouts, every routed pass inside the data's pages; the last pass withheld in %d, each time rightly", r.layouts, r.withheld)
		return
	}
	var ds []int
	for _, d := range routingDims {
		if r.dims[d] > 0 {
			ds = append(ds, d)
		}
	}
	r.t.Errorf("%d of %d layouts wrong, at d = %v", r.fails, r.layouts, ds)
}

// TestScoreRoutingPageEnds checks lanesScoreBlocks, the scoring lanes
// kernel's share of a decision set (passes of four blocks, 16 actions), on
// every layout: the set starting at each of the 512 8-byte-aligned offsets
// of a page; each d of routingDims; nblk blocks of four actions, whole
// passes and not; and x holding those 4·nblk actions only or 1 or 3 actions
// more (K mod 4 ≠ 0, which ScoreBlocks's caller scores itself). The kernel's
// smallest d is 8 (lanesFrom), but the routing is checked for every d.
func TestScoreRoutingPageEnds(t *testing.T) {
	r := routingReport{t: t}
	for _, d := range routingDims {
		for _, nblk := range []int{1, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 32} {
			for _, more := range []int{0, 1, 3} {
				n := (4*nblk + more) * d
				for off := uintptr(0); off < routingPage; off += 8 {
					base := routingOrigin + off
					lanes := lanesScoreBlocks(d, nblk, n, base)
					var msg string
					if lanes%4 != 0 {
						msg = fmt.Sprintf("%d blocks routed, not whole passes", lanes)
					} else {
						msg = routingCheck(base, d, 4*nblk, 16, lanes/4, base+uintptr(8*n)-1)
					}
					r.check(fmt.Sprintf("d %d, nblk %d, K %d", d, nblk, 4*nblk+more), d, off, msg, lanes < nblk&^3)
				}
			}
		}
	}
	r.done()
}

// TestNormaliseRoutingPageEnds checks lanesNormPasses, the normalisation
// lanes kernel's share of k vectors (passes of 32), on every layout: the
// set starting at each of the 512 8-byte-aligned offsets of a page, each d
// of routingDims, k a multiple of 32 and not. The kernel takes d > 8 only
// (NormaliseBlocks), but the routing is checked for every d.
func TestNormaliseRoutingPageEnds(t *testing.T) {
	r := routingReport{t: t}
	for _, d := range routingDims {
		for _, k := range []int{1, 31, 32, 33, 40, 63, 64, 65, 96, 97} {
			for off := uintptr(0); off < routingPage; off += 8 {
				base := routingOrigin + off
				n32 := lanesNormPasses(d, k, base)
				msg := routingCheck(base, d, k, 32, n32, base+uintptr(8*k*d)-1)
				r.check(fmt.Sprintf("d %d, K %d", d, k), d, off, msg, n32 < k/32)
			}
		}
	}
	r.done()
}
