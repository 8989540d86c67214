// Package xmath computes e^x, ln x and x^y with the same bits on every CPU
// and architecture.
//
// Go's math.Exp and math.Log are assembly on amd64, and math.Exp there takes
// one of two paths at run time: with fused multiply–adds on CPUs that have
// FMA, without on the others, and the two differ in the last bit for about one
// argument in eleven. Other architectures have other code (and the compiler
// fuses a·b + c in pure Go code on arm64). A random stream whose tables or
// draws go through them (dpb's ziggurat tables, its tail and wedge tests, the
// gamma draws) would then give other bits on an x86 CPU without FMA, the
// very CPU that runs dpb's portable Go kernels, and a job store could not
// merge results from it.
//
// Exp and Log here are those routines written out in Go, operation for
// operation (and Pow is math.Pow's algorithm on them), so on an amd64 CPU
// with FMA they return exactly math.Exp, math.Log and math.Pow (tested bit
// for bit), and on every other CPU and architecture they
// return the same: every product that feeds a sum is rounded on its own
// (Float64 conversions stop the compiler fusing it), and the fused steps are
// math.FMA, which is exact everywhere (in software where the CPU has no FMA).
package xmath

import (
	"math"
	"runtime"
)

// Exp returns e^x with the bits of math/exp_amd64.s's FMA path: on an amd64
// CPU whose math.Exp takes that path it is math.Exp (faster than this
// package's Go version: 8.2 against 9.8 ns), elsewhere exp.
func Exp(x float64) float64 {
	if mathExpFMA {
		return math.Exp(x)
	}
	return exp(x)
}

// mathExpFMA reports that math.Exp takes its FMA path: amd64's math.Exp has
// two paths, and e^3.33 is 0x403bf037296fdfad on the FMA one,
// 0x403bf037296fdfae on the other (TestExpProbe).
var mathExpFMA = runtime.GOARCH == "amd64" && math.Float64bits(math.Exp(3.33)) == 0x403bf037296fdfad

// exp is math/exp_amd64.s's FMA path in Go (Naoki Shibata's SLEEF method:
// x = k·ln 2 + r, e^(r/16) by a degree-8 Taylor polynomial, squared four
// times), including its special cases and its scaling of subnormal results.
func exp(x float64) float64 {
	const (
		ln2U     = 0.69314718055966295651160180568695068359375
		ln2L     = 0.28235290563031577122588448175013436025525412068e-12
		log2e    = 1.4426950408889634073599246810018920
		overflow = 7.09782712893384e+02
	)
	b := math.Float64bits(x)
	if b&^(1<<63) >= 0x7ff0000000000000 { // ±Inf or NaN
		if b == 0xfff0000000000000 {
			return 0
		}
		return x
	}
	if x > overflow {
		return math.Inf(1)
	}
	// CVTSD2SL: round to nearest even; out of int32 range gives MinInt32
	// (x is finite and at most 709.78, so only very negative x get there).
	k := int32(math.MinInt32)
	if t := math.RoundToEven(float64(log2e * x)); t >= math.MinInt32 {
		k = int32(t)
	}
	fk := float64(k)
	x = math.FMA(-fk, ln2U, x)
	x = math.FMA(-fk, ln2L, x)
	x *= 0.0625
	p := 2.4801587301587301587e-5
	p = math.FMA(x, p, 1.9841269841269841270e-4)
	p = math.FMA(x, p, 1.3888888888888888889e-3)
	p = math.FMA(x, p, 8.3333333333333333333e-3)
	p = math.FMA(x, p, 4.1666666666666666667e-2)
	p = math.FMA(x, p, 1.6666666666666666667e-1)
	p = math.FMA(x, p, 0.5)
	p = math.FMA(x, p, 1)
	x *= p
	for range 3 {
		x *= x + 2
	}
	x = math.FMA(x+2, x, 1)
	// Scale by 2^k, as the assembly's ldexp: a subnormal result in two
	// multiplications.
	e := k + 0x3ff
	switch {
	case e >= 0x7ff:
		return math.Inf(1)
	case e > 0:
		return x * math.Float64frombits(uint64(e)<<52)
	case e < -52:
		return 0
	}
	x *= math.Float64frombits(uint64(e+0x3fe) << 52)
	return x * math.Float64frombits(1<<52)
}

// Log returns ln x: math/log_amd64.s (FreeBSD's e_log.c: x = 2^k·f₁ with
// f₁ ∈ [√2/2, √2), s = f/(2+f), a degree-14 polynomial in s), including its
// special cases; like the assembly it reads a subnormal x's exponent field
// as it is rather than normalising it first.
func Log(x float64) float64 {
	const (
		hSqrt2 = 7.07106781186547524401e-01
		ln2Hi  = 6.93147180369123816490e-01
		ln2Lo  = 1.90821492927058770002e-10
		l1     = 6.666666666666735130e-01
		l2     = 3.999999999940941908e-01
		l3     = 2.857142874366239149e-01
		l4     = 2.222219843214978396e-01
		l5     = 1.818357216161805012e-01
		l6     = 1.531383769920937332e-01
		l7     = 1.479819860511658591e-01
	)
	b := math.Float64bits(x)
	switch {
	case b&^(1<<63) == 0:
		return math.Inf(-1)
	case int64(b) < 0:
		return math.Float64frombits(0x7ff8000000000001)
	case b >= 0x7ff0000000000000:
		return x
	}
	f1 := math.Float64frombits(b&(1<<52-1) | 0x3fe0000000000000)
	k := float64(int32(b>>52&0x7ff) - 0x3fe)
	if !(f1 >= hSqrt2) { // CMPSD not-less-than, as the assembly
		k--
		f1 *= 2
	}
	f := f1 - 1
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * float64(l1+float64(s4*float64(l3+float64(s4*float64(l5+float64(s4*l7)))))))
	t2 := float64(s4 * float64(l2+float64(s4*float64(l4+float64(s4*l6)))))
	r := t1 + t2
	hfsq := float64(float64(0.5*f) * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}

// Pow returns x**y: Go's math.Pow (math/pow.go, the same on every
// architecture: the special cases of IEEE 754-2008 §9.2.1, then x^yf by
// e^(yf·ln x) for the fraction of y and repeated squaring for its integer
// part), with this package's Exp and Log, so that it too has the bits of an
// amd64 CPU with FMA everywhere.
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case y == 1:
		return x
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	case x == 0:
		switch {
		case y < 0:
			if math.Signbit(x) && isOddInt(y) {
				return math.Inf(-1)
			}
			return math.Inf(1)
		case y > 0:
			if math.Signbit(x) && isOddInt(y) {
				return x
			}
			return 0
		}
	case math.IsInf(y, 0):
		switch {
		case x == -1:
			return 1
		case (math.Abs(x) < 1) == math.IsInf(y, 1):
			return 0
		default:
			return math.Inf(1)
		}
	case math.IsInf(x, 0):
		if math.IsInf(x, -1) {
			return Pow(1/x, -y) // Pow(-0, -y)
		}
		switch {
		case y < 0:
			return 0
		case y > 0:
			return math.Inf(1)
		}
	case y == 0.5:
		return math.Sqrt(x)
	case y == -0.5:
		return 1 / math.Sqrt(x)
	}
	yi, yf := math.Modf(math.Abs(y))
	if yf != 0 && x < 0 {
		return math.NaN()
	}
	if yi >= 1<<63 {
		// A huge even integer: overflow or underflow unless x = −1.
		switch {
		case x == -1:
			return 1
		case (math.Abs(x) < 1) == (y > 0):
			return 0
		default:
			return math.Inf(1)
		}
	}
	a1, ae := 1.0, 0 // the result is a1·2^ae
	if yf != 0 {
		if yf > 0.5 {
			yf--
			yi++
		}
		a1 = Exp(float64(yf * Log(x)))
	}
	x1, xe := math.Frexp(x)
	for i := int64(yi); i != 0; i >>= 1 {
		if xe < -1<<12 || 1<<12 < xe {
			// xe would overflow the shift below; the result under- or
			// overflows anyway.
			ae += xe
			break
		}
		if i&1 == 1 {
			a1 *= x1
			ae += xe
		}
		x1 = float64(x1 * x1) // rounded before the doubling below
		xe <<= 1
		if x1 < .5 {
			x1 += x1
			xe--
		}
	}
	if y < 0 {
		a1 = 1 / a1
		ae = -ae
	}
	return math.Ldexp(a1, ae)
}

// isOddInt reports whether x is an odd integer.
func isOddInt(x float64) bool {
	if math.Abs(x) >= 1<<53 {
		return false // every Float64 this large is an even integer
	}
	xi, xf := math.Modf(x)
	return xf == 0 && int64(xi)&1 == 1
}
