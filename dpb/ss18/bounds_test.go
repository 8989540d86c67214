package ss18

import (
	"math"
	"strings"
	"testing"
)

// paperSetting is SS18 Appendix D.2: d = 5, n = 5·10⁷, ε = 1, δ = 0.1,
// L̃² = L² + B̃² = 2, α = 1/n.
var paperSetting = Setting{D: 5, N: 50_000_000, Epsilon: 1, Delta: 0.1, Lt2: 2}

// The expected values below were computed by hand with python3 from the
// printed formulas, independently of the Go code:
//
//	from math import *
//	d,n,eps,de,Lt2 = 5,5e7,1.0,0.1,2.0; al = 1/n
//	m = 1+ceil(log2(n))                                        # 27
//	k = d+1+ceil(224*m/eps**2*log(8*m/de)*log(2/de))           # 139115
//	df = de/(m+1); e0 = eps/sqrt(8*m*log(1/df)); d0 = (de-df)/m
//	ka = d+1+floor(28*log(4/d0)/e0**2)                         # 239278
//	smk = sqrt(m*k); a = sqrt(d)+sqrt(2*log(8*n/al)); b = sqrt(d)+sqrt(2*log(2*n/al))
//	c = Lt2*(smk-a)**2 - 4*Lt2*smk*a                           # 7258941.313422963
//	rmin, rmax, g = Lt2*(smk-a)**2, Lt2*(smk+a)**2, sqrt(Lt2)*b
//	srmin, srmax, sg = 4*Lt2*smk*a, 8*Lt2*smk*a, sqrt(Lt2)*sqrt(smk*b)
//	g20 = g*sqrt(rmin/(rmin-c))
//	sig = sqrt(16*m*Lt2**2*log(4/de)**2/eps**2)
//	U  = sig*sqrt(2*m)*(4*sqrt(d)+2*log(2*n/al))
//	Uc = sig*sqrt(2*m)*(4*sqrt(d)+sqrt(2*log(2*n/al)))
//	gg = sig*sqrt(m/U)*b
//	bb = lambda rmin,rmax,g,t: sqrt(2*log(2/al)+d*log(rmax/rmin+t/(d*rmin)))+sqrt(rmax)+g  # σ=S=L=1
func TestSS18PaperSetting(t *testing.T) {
	s := paperSetting
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := s.AlphaOrDefault(); got != 2e-8 {
		t.Errorf("alpha = %v, want 2e-8", got)
	}
	if got := s.Levels(); got != 27 {
		t.Errorf("m = %d, want 27", got)
	}
	if got := s.WishartK(); got != 139115 {
		t.Errorf("k = %d, want 139115", got)
	}
	if got := s.WishartKAuthors(); got != 239278 {
		t.Errorf("k (authors) = %d, want 239278", got)
	}
	k := s.WishartK()
	u, sh := s.WishartBounds(k)
	cp := ConfidenceParams{D: 5, Sigma: 1, S: 1, L: 1, Alpha: s.AlphaOrDefault()}
	g := s.GaussianBounds()
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-11*math.Abs(want) {
			t.Errorf("%s = %.17g, want %.17g", name, got, want)
		}
	}
	near("c", s.WishartShift(k), 7258941.313422963)
	near("shift", sh.Shift, 7258941.313422963)
	near("rho_min", u.RhoMin, 7427945.526696855)
	near("rho_max", u.RhoMax, 7596949.739970748)
	near("gamma", u.Gamma, 15.186954671605283)
	if u.Shift != 0 {
		t.Errorf("unshifted Shift = %v, want 0", u.Shift)
	}
	near("rho_min'", sh.RhoMin, 169004.21327389177)
	near("rho_max'", sh.RhoMax, 338008.42654778354)
	near("gamma'", sh.Gamma, 204.02213048248024)
	c20 := s.WishartBoundsShift(k, sh.Shift)
	near("rho_min' (Claim 20)", c20.RhoMin, 169004.21327389177)
	near("rho_max' (Claim 20)", c20.RhoMax, 338008.42654778354)
	near("gamma' (Claim 20)", c20.Gamma, 100.68303208905492)
	near("sigma_noise", s.GaussianSigma(), 153.34383930053477)
	near("Upsilon", s.Upsilon(), 91545.47281826376)
	near("Upsilon corrected", s.UpsilonCorrected(), 19660.0237182087)
	near("gauss rho_min", g.RhoMin, 91545.47281826376)
	near("gauss rho_max", g.RhoMax, 3*91545.47281826376)
	near("gauss shift", g.Shift, 2*91545.47281826376)
	near("gauss gamma", g.Gamma, 28.280395417848226)
	near("beta_bar_n wishart shifted", BetaBar(cp, sh, s.N), 792.9839676251383)
	near("beta_bar_n wishart unshifted", BetaBar(cp, u, s.N), 2777.8585450690334)
	near("beta_bar_n gaussian", BetaBar(cp, g, s.N), 560.1126399389942)
	near("beta_bar_n wishart Claim 20", BetaBar(cp, c20, s.N), 689.644869231713)
	gc := s.GaussianBoundsShift(s.UpsilonCorrected(), 2*s.UpsilonCorrected())
	near("beta_bar_n gaussian corrected", BetaBar(cp, gc, s.N), 312.13170833194715)
	// zCDP accounting of the Gaussian calibration: ρ = 1/(32 ln(40)²),
	// ε = ρ + 2√(ρ ln 10).
	near("zCDP rho", s.GaussianZCDPRho(), 0.0022964716831175487)
	near("zCDP epsilon", s.GaussianEpsilonZCDP(), 0.14773128820281362)
	// Theorems 5 and 6 (B = 1, Δ = 0.1) for the Gaussian variant:
	//	bb(U,3U,gg,n)*sqrt(8*d*n*log(1+n/(d*U)))          = 54320054.47535055
	//	8/0.1*bb(U,3U,gg,n)**2*d*log(1+n/(d*U))           = 590133663.6410103
	near("Theorem 5 (Gaussian)", Theorem5Bound(cp, g, s.N, 1), 54320054.47535055)
	near("Theorem 6 (Gaussian, gap 0.1)", Theorem6Bound(cp, g, s.N, 1, 0.1), 590133663.6410103)
}

func TestSS18Identities(t *testing.T) {
	s := Setting{D: 3, N: 1000, Epsilon: 0.5, Delta: 0.01, Lt2: 1.5, Alpha: 0.05}
	k := s.WishartK()
	u, sh := s.WishartBounds(k)
	// Eq. (4) is chosen so that ρ′_min = ρ_min − c = ρ_max − ρ_min and ρ′_max = ρ_max − c.
	if r := u.RhoMin - sh.Shift; math.Abs(r-sh.RhoMin) > 1e-9*sh.RhoMin {
		t.Errorf("ρ_min − c = %v, want ρ′_min = %v", r, sh.RhoMin)
	}
	if r := u.RhoMax - sh.Shift; math.Abs(r-sh.RhoMax) > 1e-9*sh.RhoMax {
		t.Errorf("ρ_max − c = %v, want ρ′_max = %v", r, sh.RhoMax)
	}
	// The printed γ′ bounds the Claim 20 value from above (proof of Prop. 9).
	if c20 := s.WishartBoundsShift(k, sh.Shift); c20.Gamma > sh.Gamma {
		t.Errorf("Claim 20 γ′ = %v exceeds printed γ′ = %v", c20.Gamma, sh.Gamma)
	}
	// A zero shift is the unshifted bound; too big a shift is flagged.
	if z := s.WishartBoundsShift(k, 0); z != u {
		t.Errorf("shift 0: %+v, want %+v", z, u)
	}
	if bad := s.WishartBoundsShift(k, u.RhoMin); bad.RhoMin > 0 || !math.IsInf(bad.Gamma, 1) {
		t.Errorf("shift = ρ_min: %+v, want RhoMin <= 0 and Gamma = +Inf", bad)
	}
	if bad := s.GaussianBoundsShift(s.Upsilon(), s.Upsilon()); bad.RhoMin > 0 || !math.IsInf(bad.Gamma, 1) {
		t.Errorf("gaussian shift = Υ: %+v, want RhoMin <= 0 and Gamma = +Inf", bad)
	}
	// m = 1: the authors' k uses (ε, δ) directly: d + 1 + ⌊28 ln(4/δ)/ε²⌋.
	one := Setting{D: 2, N: 1, Epsilon: 2, Delta: 0.1, Lt2: 1, Alpha: 0.1}
	// 3 + floor(28*log(40)/4) = 3 + floor(25.822...) = 28
	if got := one.WishartKAuthors(); got != 28 {
		t.Errorf("m = 1: k (authors) = %d, want 28", got)
	}
	// 3 + ceil(224*log(80)*log(20)/4) = 3 + ceil(735.16...) = 739
	if got := one.WishartK(); got != 739 {
		t.Errorf("m = 1: k = %d, want 739", got)
	}
	// Non-private ridge: log det V = d ln λ at t = 1 (V = λI) gives β = σ√(2 ln(2/α)) + S√λ.
	p := ConfidenceParams{D: 3, Sigma: 0.5, S: 2, L: 1, Alpha: 0.01}
	nb := NonPrivateBounds(4)
	want := 0.5*math.Sqrt(2*math.Log(200)) + 2*2
	if got := BetaLogDet(p, nb, 3*math.Log(4)); math.Abs(got-want) > 1e-12 {
		t.Errorf("BetaLogDet ridge = %v, want %v", got, want)
	}
	// β̄_0 = σ√(2 ln(2/α) + d ln 1) + S√λ for ρ_min = ρ_max.
	if got := BetaBar(p, nb, 0); math.Abs(got-want) > 1e-12 {
		t.Errorf("BetaBar(t=0) = %v, want %v", got, want)
	}
	// β̄_t bounds β_t when det V_t = (ρ_max + tL²/d)^d, the largest det allowed.
	bt := BetaLogDet(p, nb, 3*math.Log(4+10.0/3))
	if bb := BetaBar(p, nb, 10); math.Abs(bb-bt) > 1e-12 {
		t.Errorf("BetaBar(10) = %v, want BetaLogDet at the max det %v", bb, bt)
	}
}

func TestSS18Validate(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*Setting)
		want string
	}{
		{"eps 0", func(s *Setting) { s.Epsilon = 0 }, "epsilon"},
		{"eps <0", func(s *Setting) { s.Epsilon = -1 }, "epsilon"},
		{"eps inf", func(s *Setting) { s.Epsilon = math.Inf(1) }, "epsilon"},
		{"eps nan", func(s *Setting) { s.Epsilon = math.NaN() }, "epsilon"},
		{"delta 0", func(s *Setting) { s.Delta = 0 }, "delta"},
		{"delta 1", func(s *Setting) { s.Delta = 1 }, "delta"},
		{"delta nan", func(s *Setting) { s.Delta = math.NaN() }, "delta"},
		{"d 0", func(s *Setting) { s.D = 0 }, "dimension"},
		{"n 0", func(s *Setting) { s.N = 0 }, "horizon"},
		{"Lt2 0", func(s *Setting) { s.Lt2 = 0 }, "Lt2"},
		{"Lt2 nan", func(s *Setting) { s.Lt2 = math.NaN() }, "Lt2"},
		{"alpha <0", func(s *Setting) { s.Alpha = -0.1 }, "alpha"},
		{"alpha 1", func(s *Setting) { s.Alpha = 1 }, "alpha"},
		{"alpha nan", func(s *Setting) { s.Alpha = math.NaN() }, "alpha"},
		{"alpha default, n 1", func(s *Setting) { s.N = 1 }, "alpha"},
	} {
		s := paperSetting
		tc.mod(&s)
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate() = %v, want an error about %s", tc.name, err, tc.want)
		}
	}
	ok := paperSetting
	ok.N, ok.Alpha = 1, 0.5
	if err := ok.Validate(); err != nil {
		t.Errorf("n = 1 with alpha set: %v", err)
	}
	if err := (ConfidenceParams{D: 5, Sigma: 1, S: 1, L: 1, Alpha: 0.01}).Validate(); err != nil {
		t.Errorf("ConfidenceParams: %v", err)
	}
	if err := (ConfidenceParams{D: 5, Sigma: 1, S: 1, L: 1, Alpha: 0}).Validate(); err == nil {
		t.Error("ConfidenceParams with alpha 0 accepted")
	}
}
