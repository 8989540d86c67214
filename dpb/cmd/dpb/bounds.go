package main

import (
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

func init() {
	register("bounds", "print SS18's constants and bounds for a setting", func(args []string) error {
		return runBounds(os.Stdout, args)
	})
}

// boundsJSON is the --json output of "dpb bounds": the numbers of the printed
// formulas (SS18 Section 4), with β̄_n at σ = S = L = 1.
type boundsJSON struct {
	M        int                `json:"m"`
	Wishart  wishartBoundsJSON  `json:"wishart"`
	Gaussian gaussianBoundsJSON `json:"gaussian"`
	// Calibrated holds the exactly calibrated alternatives (exact σ for
	// each continual counter, see ss18.GaussianCounterCalibration).
	Calibrated calibratedJSON `json:"calibrated"`
}

// calibratedJSON is the exact calibration: the smallest Wishart k by
// Theorem 8 and optimal composition, and σ and the Prop. 11 bounds of the
// Gaussian regularizer on each continual counter.
type calibratedJSON struct {
	WishartK int                  `json:"wishart_k"`
	Gaussian []calibratedGaussian `json:"gaussian"`
}

type calibratedGaussian struct {
	ss18.GaussianCounterCal
	BetaBarN float64 `json:"beta_bar_n"`
}

type wishartBoundsJSON struct {
	K             int     `json:"k"`
	Shift         float64 `json:"shift"`
	RhoMin        float64 `json:"rho_min"`
	RhoMax        float64 `json:"rho_max"`
	Gamma         float64 `json:"gamma"`
	RhoMinShifted float64 `json:"rho_min_shifted"`
	RhoMaxShifted float64 `json:"rho_max_shifted"`
	GammaShifted  float64 `json:"gamma_shifted"`
	BetaBarN      float64 `json:"beta_bar_n"` // with the shifted bounds
}

type gaussianBoundsJSON struct {
	SigmaNoise float64 `json:"sigma_noise"`
	Upsilon    float64 `json:"upsilon"`
	RhoMin     float64 `json:"rho_min"`
	RhoMax     float64 `json:"rho_max"`
	Gamma      float64 `json:"gamma"`
	Shift      float64 `json:"shift"`
	BetaBarN   float64 `json:"beta_bar_n"`
}

// runBounds is "dpb bounds": it parses args and writes the SS18 constants of
// the setting to w, as JSON (--json) or as a table that also shows the
// alternative readings (the authors' k, Υ corrected, γ′ via Claim 20).
func runBounds(w io.Writer, args []string) error {
	s, asJSON, err := boundsSetting(args)
	if err != nil {
		return err
	}
	if err := ready(nil); err != nil {
		return err
	}
	out, err := computeBounds(s)
	if err != nil {
		return err
	}
	if asJSON {
		return writeSnakeJSON(w, out)
	}
	return writeBoundsText(w, s, out)
}

// boundsSetting parses the flags of "dpb bounds" into a validated setting.
func boundsSetting(args []string) (ss18.Setting, bool, error) {
	fs := newFlags("bounds", "[flags]", "Prints SS18's constants (m, k, shifts, ρ_min, ρ_max, γ, σ_noise, Υ, β̄_n) for a setting, with the alternative readings beside the printed ones.")
	d, n := new(int), new(int)
	countVar(fs, d, "d", 5, 1, maxBoundsDim, "dimension d")
	countVar(fs, n, "n", 5e7, 1, maxBoundsN, "horizon n (5e7 accepted: an exact integer; the counters' exact calibration costs O(n), about 2.6 s at 1e8)")
	eps := floatVar(fs, "eps", 1, "privacy parameter ε")
	delta := floatVar(fs, "delta", 0.1, "privacy parameter δ")
	lt2 := floatVar(fs, "Lt2", 2, "L̃², bound on ‖x‖² + y²")
	alpha := floatVar(fs, "alpha", 0, "failure probability α (default 1/n)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFigure(fs, args); err != nil {
		return ss18.Setting{}, false, err
	}
	s := ss18.Setting{D: *d, N: *n, Epsilon: *eps, Delta: *delta, Lt2: *lt2, Alpha: *alpha}
	if err := s.Validate(); err != nil {
		return s, false, usageError{fmt.Errorf("bounds: %w", err)}
	}
	if *eps > maxEpsilon {
		// Beyond it the Wishart accounting's δ is NaN (a run-time error).
		return s, false, usagef("bounds: -eps %g is above %g", *eps, float64(maxEpsilon))
	}
	return s, *asJSON, nil
}

// boundsParams are the confidence parameters the bounds use: σ = S = L = 1.
func boundsParams(s ss18.Setting) ss18.ConfidenceParams {
	return ss18.ConfidenceParams{D: s.D, Sigma: 1, S: 1, L: 1, Alpha: s.AlphaOrDefault()}
}

// computeBounds computes the printed constants of the setting and the exact
// calibrations.
func computeBounds(s ss18.Setting) (boundsJSON, error) {
	cp := boundsParams(s)
	k := s.WishartK()
	wu, ws := s.WishartBounds(k)
	gb := s.GaussianBounds()
	out := boundsJSON{
		M: s.Levels(),
		Wishart: wishartBoundsJSON{
			K: k, Shift: ws.Shift,
			RhoMin: wu.RhoMin, RhoMax: wu.RhoMax, Gamma: wu.Gamma,
			RhoMinShifted: ws.RhoMin, RhoMaxShifted: ws.RhoMax, GammaShifted: ws.Gamma,
			BetaBarN: ss18.BetaBar(cp, ws, s.N),
		},
		Gaussian: gaussianBoundsJSON{
			SigmaNoise: s.GaussianSigma(), Upsilon: s.Upsilon(),
			RhoMin: gb.RhoMin, RhoMax: gb.RhoMax, Gamma: gb.Gamma, Shift: gb.Shift,
			BetaBarN: ss18.BetaBar(cp, gb, s.N),
		},
	}
	kt, err := s.WishartKTight()
	if err != nil {
		return out, err
	}
	out.Calibrated.WishartK = kt
	for _, kind := range counter.Kinds {
		if kind == counter.Sqrt && s.N > counter.MaxSqrtHorizon {
			continue // the BLT stands in for it
		}
		cal, err := ss18.GaussianCounterCalibration(s, kind)
		if err != nil {
			return out, err
		}
		out.Calibrated.Gaussian = append(out.Calibrated.Gaussian, calibratedGaussian{cal, ss18.BetaBar(cp, cal.Bounds, s.N)})
	}
	return out, nil
}

// boundsTable is the text table of "dpb bounds": a row is a quantity, its
// printed value and an alternative reading.
type boundsTable struct{ tw *tabwriter.Writer }

func (t boundsTable) row(name string, printed, alt float64, altName string) {
	if altName == "" {
		fmt.Fprintf(t.tw, "%s\t%.6g\t\t\n", name, printed)
		return
	}
	fmt.Fprintf(t.tw, "%s\t%.6g\t%.6g\t%s\n", name, printed, alt, altName)
}

// writeBoundsText writes the table of the printed values with the
// alternatives beside them.
func writeBoundsText(w io.Writer, s ss18.Setting, out boundsJSON) error {
	fmt.Fprintf(w, "SS18 bounds: d=%d n=%d ε=%g δ=%g L̃²=%g α=%g   (βbar_n = β̄_n and Thm 5 with σ = S = L = B = 1)\n\n",
		s.D, s.N, s.Epsilon, s.Delta, s.Lt2, s.AlphaOrDefault())
	t := boundsTable{tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
	fmt.Fprintf(t.tw, "quantity\tprinted\talternative\twhich alternative\n")
	fmt.Fprintf(t.tw, "m = 1+⌈log₂ n⌉\t%d\t\t\n", s.Levels())
	fmt.Fprintf(t.tw, "\t\t\t\n")
	t.wishartRows(s, out)
	fmt.Fprintf(t.tw, "\t\t\t\n")
	t.gaussianRows(s, out)
	fmt.Fprintf(t.tw, "\t\t\t\n")
	fmt.Fprintf(t.tw, "Exact calibration (dpb/accounting)\tprinted\tcalibrated\thow\n")
	fmt.Fprintf(t.tw, "Wishart k\t%d\t%d\tThm 8 + optimal composition (Kairouz–Oh–Viswanath)\n", out.Wishart.K, out.Calibrated.WishartK)
	for _, c := range out.Calibrated.Gaussian {
		fmt.Fprintf(t.tw, "Gaussian on %v: σ / Υ / βbar_n\t%.4g / %.4g / %.4g\t%.4g / %.4g / %.4g\texact GDP, cost %.3g, max var %.3g\n",
			c.Kind, out.Gaussian.SigmaNoise, out.Gaussian.Upsilon, out.Gaussian.BetaBarN, c.Sigma, c.Upsilon, c.BetaBarN, c.Cost.L2Sq, c.MaxVar)
	}
	if err := t.tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n(the trivial regret bound is n = %d)\n", s.N)
	return err
}

// wishartRows are the Wishart mechanism's rows (SS18 §4.1, Prop. 9), beside
// the authors' k and Claim 20's γ′.
func (t boundsTable) wishartRows(s ss18.Setting, out boundsJSON) {
	cp := boundsParams(s)
	k := s.WishartK()
	wu, ws := s.WishartBounds(k)
	ka := s.WishartKAuthors()
	w20 := s.WishartBoundsShift(k, ws.Shift)
	kaU, kaS := s.WishartBounds(ka)
	fmt.Fprintf(t.tw, "Wishart (§4.1, Prop. 9)\t\t\t\n")
	fmt.Fprintf(t.tw, "k\t%d\t%d\tauthors' (ε,δ) split (PrivateBandits.jl)\n", k, ka)
	t.row("c (Eq. 4)", ws.Shift, kaS.Shift, "with authors' k")
	t.row("ρ_min unshifted", wu.RhoMin, kaU.RhoMin, "with authors' k")
	t.row("ρ_max unshifted", wu.RhoMax, kaU.RhoMax, "with authors' k")
	t.row("γ unshifted", wu.Gamma, kaU.Gamma, "with authors' k")
	t.row("ρ′_min shifted", ws.RhoMin, kaS.RhoMin, "with authors' k")
	t.row("ρ′_max shifted", ws.RhoMax, kaS.RhoMax, "with authors' k")
	t.row("γ′ shifted", ws.Gamma, w20.Gamma, "Claim 20: γ√(ρ_min/ρ′_min)")
	t.row("βbar_n unshifted", ss18.BetaBar(cp, wu, s.N), ss18.BetaBar(cp, kaU, s.N), "with authors' k")
	t.row("βbar_n shifted", out.Wishart.BetaBarN, ss18.BetaBar(cp, w20, s.N), "with Claim 20 γ′")
	t.row("Thm 5 bound, shifted", ss18.Theorem5Bound(cp, ws, s.N, 1), ss18.Theorem5Bound(cp, w20, s.N, 1), "with Claim 20 γ′")
}

// gaussianRows are the Gaussian mechanism's rows (SS18 §4.2, Prop. 11),
// beside Υ corrected.
func (t boundsTable) gaussianRows(s ss18.Setting, out boundsJSON) {
	cp := boundsParams(s)
	gb := s.GaussianBounds()
	uc := s.UpsilonCorrected()
	gc := s.GaussianBoundsShift(uc, 2*uc)
	fmt.Fprintf(t.tw, "Gaussian (§4.2, Prop. 11)\t\t\t\n")
	t.row("σ_noise", out.Gaussian.SigmaNoise, 0, "")
	t.row("ε actually spent", s.Epsilon, s.GaussianEpsilonZCDP(), "zCDP accounting, replacement of one round")
	t.row("Υ", out.Gaussian.Upsilon, uc, "corrected: √(2 ln(2n/α)) for 2 ln(2n/α)")
	t.row("shift 2Υ", gb.Shift, gc.Shift, "with Υ corrected")
	t.row("ρ_min = Υ", gb.RhoMin, gc.RhoMin, "with Υ corrected")
	t.row("ρ_max = 3Υ", gb.RhoMax, gc.RhoMax, "with Υ corrected")
	t.row("γ", gb.Gamma, gc.Gamma, "with Υ corrected")
	t.row("βbar_n", out.Gaussian.BetaBarN, ss18.BetaBar(cp, gc, s.N), "with Υ corrected")
	t.row("Thm 5 bound", ss18.Theorem5Bound(cp, gb, s.N, 1), ss18.Theorem5Bound(cp, gc, s.N, 1), "with Υ corrected")
}
