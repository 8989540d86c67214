package accounting

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// PLD is a discretised privacy-loss distribution (Meiser & Mohammadi 2018;
// Sommer, Meiser & Mohammadi 2019; Koskela, Jälkö & Honkela 2020): the law
// of the privacy loss L = ln(p(o)/q(o)) for o drawn from the mechanism on
// one input (p), against its neighbour (q), on the grid L = (Offset + i)·H.
// Mass[i] is the probability of grid point i; Inf is the mass of L = +∞
// (outputs q cannot produce). The hockey-stick divergence, the δ at ε, is
//
//	δ(ε) = Inf + Σ_i Mass[i] · max(0, 1 − e^{ε − L_i}).
//
// A pessimistic PLD rounds every loss up to the grid (its δ(ε) is an upper
// bound on the true one); an optimistic one rounds down (a lower bound).
// Composition of independent mechanisms convolves PLDs; rounding errors add,
// so m compositions shift ε by at most m·H.
type PLD struct {
	H      float64
	Offset int
	Mass   []float64
	Inf    float64
}

// LaplacePLD returns the privacy-loss distribution of the scalar Laplace
// mechanism with ε₀ = Δ₁/b (Laplace scale b, sensitivity Δ₁) on the grid
// of step h, rounded up (pessimistic) or down. By symmetry of the Laplace
// density both orders of the neighbouring pair have this law. Under p =
// Lap(0, b) against q = Lap(Δ₁, b), L = (|o − Δ₁| − |o|)/b is ε₀ for o ≤ 0
// (mass 1/2), −ε₀ for o ≥ Δ₁ (mass e^{−ε₀}/2), and ε₀ − 2o/b in between,
// where P(L ≤ ε₀ − 2u) = ... is computed exactly per grid cell from the
// Laplace CDF.
func LaplacePLD(eps0, h float64, pessimistic bool) (*PLD, error) {
	if err := checkPositive("eps0", eps0); err != nil {
		return nil, err
	}
	if err := checkPositive("grid step h", h); err != nil {
		return nil, err
	}
	lo := int(math.Floor(-eps0 / h))
	hi := int(math.Ceil(eps0 / h))
	p := &PLD{H: h, Offset: lo, Mass: make([]float64, hi-lo+1)}
	put := func(l, mass float64) {
		var i int
		if pessimistic {
			i = int(math.Ceil(l/h - 1e-9))
		} else {
			i = int(math.Floor(l/h + 1e-9))
		}
		p.Mass[i-lo] += mass
	}
	put(eps0, 0.5)
	put(-eps0, 0.5*xmath.Exp(-eps0))
	// Continuous part: o ∈ (0, Δ₁), in units of b: u = o/b ∈ (0, ε₀),
	// L = ε₀ − 2u, density e^{−u}/2. The loss interval (a, a+h] maps to
	// u ∈ [(ε₀−a−h)/2, (ε₀−a)/2), mass (e^{−u₁} − e^{−u₂})/2.
	for i := lo; i < hi; i++ {
		a, b := float64(i)*h, float64(i+1)*h // loss cell [a, b]
		a, b = math.Max(a, -eps0), math.Min(b, eps0)
		if !(b > a) {
			continue
		}
		u1, u2 := (eps0-b)/2, (eps0-a)/2
		mass := float64((xmath.Exp(-u1) - xmath.Exp(-u2)) / 2)
		if pessimistic {
			p.Mass[i+1-lo] += mass
		} else {
			p.Mass[i-lo] += mass
		}
	}
	return p, nil
}

// Delta returns δ(ε), the hockey-stick divergence of the PLD.
func (p *PLD) Delta(eps float64) float64 {
	s := p.Inf
	for i, m := range p.Mass {
		l := float64(p.Offset+i) * p.H
		if l > eps && m > 0 {
			s += float64(m * -math.Expm1(eps-l))
		}
	}
	return math.Min(s, 1)
}

// Epsilon returns the smallest ε ≥ 0 with δ(ε) ≤ delta (0 if δ(0) ≤ delta;
// +Inf if Inf > delta).
func (p *PLD) Epsilon(delta float64) float64 {
	if p.Inf > delta {
		return math.Inf(1)
	}
	if p.Delta(0) <= delta {
		return 0
	}
	hi := float64(p.Offset+len(p.Mass)) * p.H
	return math.Nextafter(bisect(0, hi, func(e float64) bool { return p.Delta(e) > delta }), math.Inf(1))
}

// SelfCompose returns the PLD of m independent copies of p, by FFT: the
// m-th power of p's transform (Koskela, Jälkö & Honkela 2020). Mass below
// 1e-300 from round-off is set to 0 and negative round-off is clipped.
func (p *PLD) SelfCompose(m int) (*PLD, error) {
	if err := checkCount("compositions m", m); err != nil {
		return nil, err
	}
	n := (len(p.Mass)-1)*m + 1
	size := 1
	for size < n {
		size <<= 1
	}
	x := make([]complex128, size)
	for i, v := range p.Mass {
		x[i] = complex(v, 0)
	}
	fft(x, false)
	for i := range x {
		x[i] = cmplx.Pow(x[i], complex(float64(m), 0))
	}
	fft(x, true)
	q := &PLD{H: p.H, Offset: p.Offset * m, Mass: make([]float64, n)}
	for i := range q.Mass {
		v := real(x[i]) / float64(size)
		if v > 1e-300 {
			q.Mass[i] = v
		}
	}
	q.Inf = 1 - xmath.Pow(1-p.Inf, float64(m))
	return q, nil
}

// fft is an in-place iterative radix-2 Cooley–Tukey transform of len(x)
// (a power of 2); inverse uses e^{+2πi/n} and does not divide by n.
func fft(x []complex128, inverse bool) {
	n := len(x)
	for i, j := 1, 0; i < n; i++ {
		bit := n >> 1
		for ; j&bit != 0; bit >>= 1 {
			j ^= bit
		}
		j ^= bit
		if i < j {
			x[i], x[j] = x[j], x[i]
		}
	}
	sign := -1.0
	if inverse {
		sign = 1
	}
	for l := 2; l <= n; l <<= 1 {
		ang := sign * 2 * math.Pi / float64(l)
		for i := 0; i < n; i += l {
			for k := 0; k < l/2; k++ {
				w := cmplx.Rect(1, ang*float64(k))
				a, b := x[i+k], cmul(w, x[i+k+l/2])
				x[i+k], x[i+k+l/2] = a+b, a-b
			}
		}
	}
}

// cmul returns w·z with each product rounded before the add or subtract, as
// Go's complex multiplication (re = wr·zr − wi·zi, im = wr·zi + wi·zr) rounds
// them on amd64 v1: the explicit conversions keep a GOAMD64=v3 build from
// fusing them into FMA instructions, so every build gets the same bits.
func cmul(w, z complex128) complex128 {
	wr, wi, zr, zi := real(w), imag(w), real(z), imag(z)
	return complex(float64(wr*zr)-float64(wi*zi), float64(wr*zi)+float64(wi*zr))
}

// LaplaceComposedEpsilon returns an upper bound on the ε at δ of m
// composed scalar Laplace mechanisms with ε₀ = Δ₁/b each (a record entering
// m tree nodes): the pessimistic PLD on a grid of step h.
func LaplaceComposedEpsilon(m int, eps0, delta, h float64) (float64, error) {
	if err := checkDelta("delta", delta); err != nil {
		return 0, err
	}
	p, err := LaplacePLD(eps0, h, true)
	if err != nil {
		return 0, err
	}
	q, err := p.SelfCompose(m)
	if err != nil {
		return 0, err
	}
	return q.Epsilon(delta), nil
}

// LaplaceEps0 returns the largest per-node ε₀ (Laplace scale b = Δ₁/ε₀)
// such that m composed scalar Laplace mechanisms are (ε, δ)-DP by the
// pessimistic PLD of step h (an upper bound, so the result is certified);
// with delta = 0 it is pure DP, ε₀ = ε/m (basic composition is tight for
// pure DP at δ = 0). The result is never below ε/m.
func LaplaceEps0(m int, eps, delta, h float64) (float64, error) {
	if err := checkCount("nodes per record m", m); err != nil {
		return 0, err
	}
	if err := checkPositive("epsilon", eps); err != nil {
		return 0, err
	}
	if delta == 0 {
		return eps / float64(m), nil
	}
	if err := checkDelta("delta", delta); err != nil {
		return 0, err
	}
	if err := checkPositive("grid step h", h); err != nil {
		return 0, err
	}
	ok := func(e0 float64) bool {
		e, err := LaplaceComposedEpsilon(m, e0, delta, h)
		return err == nil && e <= eps
	}
	lo := eps / float64(m)
	hi := eps
	if ok(hi) {
		return hi, nil
	}
	if !ok(lo) {
		return 0, fmt.Errorf("accounting: internal: pessimistic PLD exceeds basic composition at ε₀=ε/m")
	}
	// 40 halvings: the PLD's own grid error dominates beyond that.
	for range 40 {
		mid := (lo + hi) / 2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}
