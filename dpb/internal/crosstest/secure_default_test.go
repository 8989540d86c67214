package crosstest

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb"
	"github.com/dpbandits/dpbandits/dpb/anytime"
	"github.com/dpbandits/dpbandits/dpb/as17"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/mab"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// ownStream builds, for each constructor that takes a Noise, a policy (or
// mechanism) in the given noise mode and returns the guarantee it reports.
// Every such constructor of the own-stream packages must be listed here
// (TestEveryNoiseConstructorIsListed).
var ownStream = map[string]func(m noise.Mode) (bandit.Privacy, error){
	"ss18.NewPolicy": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: svcSetting, Noise: m}, bandit.Stream(1, 1))
		return privacyOf(p, err)
	},
	"ss18.NewRegularizer": func(m noise.Mode) (bandit.Privacy, error) {
		r, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegGaussianTree, Setting: svcSetting, Noise: m}, bandit.Stream(1, 1))
		if err != nil {
			return bandit.Privacy{}, err
		}
		return r.(*ss18.TreeRegularizer).Privacy(), nil
	},
	"mt14.NewDPUCB": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 3, Horizon: 64, Epsilon: 1, Noise: m}, bandit.Stream(1, 1))
		return privacyOf(p, err)
	},
	"mt14.NewContextualUCB": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := mt14.NewContextualUCB(mt14.ContextualUCBConfig{Dim: 2, Arms: 3, Horizon: 64, Epsilon: 1, Mechanism: mt14.ContextEntryTrees, Noise: m}, bandit.Stream(1, 1))
		return privacyOf(p, err)
	},
	"as17.NewFTRL": func(m noise.Mode) (bandit.Privacy, error) {
		f, err := as17.NewFTRL(as17.FTRLConfig{Set: as17.Simplex, Dim: 4, Horizon: 64, Epsilon: 1, Noise: m}, bandit.Stream(1, 1))
		return privacyOf(f, err)
	},
	"as17.NewFTPL": func(m noise.Mode) (bandit.Privacy, error) {
		f, err := as17.NewFTPL(as17.FTPLConfig{Set: as17.Ball, Dim: 4, Horizon: 64, Epsilon: 1, Delta: 1e-3, Noise: m}, bandit.Stream(1, 1))
		return privacyOf(f, err)
	},
	"as17.NewPrivateExp2": func(m noise.Mode) (bandit.Privacy, error) {
		b, err := as17.NewPrivateExp2(as17.Exp2Config{Arms: 4, Horizon: 64, Epsilon: 1, Noise: m}, bandit.Stream(1, 1))
		if err != nil {
			return bandit.Privacy{}, err
		}
		return b.(*as17.PrivateBandit).Privacy(), nil
	},
	"as17.NewPrivateSCRiBLE": func(m noise.Mode) (bandit.Privacy, error) {
		b, err := as17.NewPrivateSCRiBLE(as17.SCRiBLEConfig{Set: as17.Ball, Dim: 3, Horizon: 64, Epsilon: 1, Noise: m}, bandit.Stream(1, 1))
		if err != nil {
			return bandit.Privacy{}, err
		}
		return b.(*as17.PrivateBandit).Privacy(), nil
	},
	"as17.NewPrivateBandit": func(m noise.Mode) (bandit.Privacy, error) {
		e, err := as17.NewExp2(as17.Exp2Config{Arms: 3, Horizon: 64, Epsilon: 1}, bandit.Stream(1, 1))
		if err != nil {
			return bandit.Privacy{}, err
		}
		p, err := as17.NewPrivateBandit(e, as17.PrivateBanditConfig{Dim: 3, Lambda: 2, Bound: 1, Noise: m}, bandit.Stream(1, 1))
		return privacyOf(p, err)
	},
	// Non-private EXP2 and SCRiBLE take the config whose Noise field is
	// their private wrappers' (NewPrivateExp2, NewPrivateSCRiBLE): they draw
	// no privacy noise.
	"as17.NewExp2":    nil,
	"as17.NewSCRiBLE": nil,
	"mab.NewDPSE": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := mab.NewDPSE(mab.DPSEConfig{Arms: 3, Horizon: 64, Epsilon: 1, Noise: m}, bandit.Stream(1, 1))
		return privacyOf(p, err)
	},
	"mab.NewAdaP": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := mab.NewAdaP(mab.AdaPConfig{Arms: 3, Epsilon: 1, Noise: m}, bandit.Stream(1, 1))
		return privacyOf(p, err)
	},
	"mab.NewDPKL": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := mab.NewDPKL(mab.DPKLConfig{Arms: 3, Epsilon: 1, Noise: m}, bandit.Stream(1, 1))
		return privacyOf(p, err)
	},
	"mab.NewLazyDPTS": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := mab.NewLazyDPTS(mab.LazyDPTSConfig{Arms: 3, Epsilon: 1, Noise: m}, bandit.Stream(1, 1))
		return privacyOf(p, err)
	},
	"anytime.NewSS18": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := anytime.NewSS18(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: svcSetting, Noise: m}, bandit.Stream(1, 1))
		return privacyOf(p, err)
	},
	"anytime.NewDPUCB": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := anytime.NewDPUCB(mt14.DPUCBConfig{Arms: 3, Horizon: 64, Epsilon: 1, Noise: m}, bandit.Stream(1, 1))
		return privacyOf(p, err)
	},
	"anytime.NewSS18FromSource": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := anytime.NewSS18FromSource(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: svcSetting, Noise: m}, bandit.StreamSource(1, 1))
		return privacyOf(p, err)
	},
	"anytime.NewDPUCBFromSource": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := anytime.NewDPUCBFromSource(mt14.DPUCBConfig{Arms: 3, Horizon: 64, Epsilon: 1, Noise: m}, bandit.StreamSource(1, 1))
		return privacyOf(p, err)
	},
	"dpb.NewSS18Policy": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := dpb.NewSS18Policy(dpb.SS18Config{Alg: dpb.SS18Gaussian, Setting: svcSetting, Noise: m}, dpb.Stream(1, 1))
		return privacyOf(p, err)
	},
	"dpb.NewDPUCB": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := dpb.NewDPUCB(dpb.DPUCBConfig{Arms: 3, Horizon: 64, Epsilon: 1, Noise: m}, dpb.Stream(1, 1))
		return privacyOf(p, err)
	},
	"dpb.NewAnytimeSS18": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := dpb.NewAnytimeSS18(dpb.SS18Config{Alg: dpb.SS18Gaussian, Setting: svcSetting, Noise: m}, dpb.Stream(1, 1))
		return privacyOf(p, err)
	},
	"dpb.NewAnytimeDPUCB": func(m noise.Mode) (bandit.Privacy, error) {
		p, err := dpb.NewAnytimeDPUCB(dpb.DPUCBConfig{Arms: 3, Horizon: 64, Epsilon: 1, Noise: m}, dpb.Stream(1, 1))
		return privacyOf(p, err)
	},
}

func privacyOf[P interface{ Privacy() bandit.Privacy }](p P, err error) (bandit.Privacy, error) {
	if err != nil {
		return bandit.Privacy{}, err
	}
	return p.Privacy(), nil
}

// releaseGradeSecure returns nil when pr is the report of a private
// mechanism on secure noise from crypto/rand, else what it is instead.
func releaseGradeSecure(pr bandit.Privacy) error {
	if !pr.Private || pr.Noise != noise.Secure.String() || !pr.ReleaseGrade() ||
		strings.Contains(pr.String(), "not a release-grade") {
		return fmt.Errorf("private %v, noise %q, release-grade %v: %s", pr.Private, pr.Noise, pr.ReleaseGrade(), pr)
	}
	return nil
}

// The zero config builds a secure policy: every constructor that takes a
// Noise, left unset, reports a private, release-grade guarantee on secure
// noise (the resolved mode, not "default"). noise.Simulated named still
// gives the seeded simulation. The negative controls are the checks a
// constructor that forgets to resolve the unset mode fails: it either
// builds the simulated sampler (what the zero mode meant before: the
// noise.Simulated row shows that report is refused) or reports the
// unresolved mode (a report naming "default", refused too).
func TestUnsetNoiseIsSecure(t *testing.T) {
	for name, build := range ownStream {
		if build == nil {
			continue
		}
		pr, err := build(noise.Default)
		if err != nil {
			t.Errorf("%s with Noise unset: %v", name, err)
			continue
		}
		if err := releaseGradeSecure(pr); err != nil {
			t.Errorf("%s with Noise unset: %v", name, err)
		}
		// Control: the simulated sampler, named, is built and refused.
		sim, err := build(noise.Simulated)
		if err != nil {
			t.Errorf("%s with noise.Simulated: %v", name, err)
			continue
		}
		if sim.Noise != "simulated" || releaseGradeSecure(sim) == nil {
			t.Errorf("%s with noise.Simulated: report %q passes as secure", name, sim)
		}
		// Control: an unresolved mode in a report is refused.
		unresolved := pr
		unresolved.Noise = noise.Default.String()
		if releaseGradeSecure(unresolved) == nil {
			t.Errorf("%s: a report of the unresolved mode passes as secure", name)
		}
	}
	// The configuration a policy reports is the resolved one.
	p, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: 16, Epsilon: 1}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Config().Noise; got != noise.Secure {
		t.Errorf("DP-UCB's Config().Noise = %v, want secure", got)
	}
	a, err := anytime.NewSS18FromSource(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: svcSetting}, bandit.StreamSource(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if got := a.EpochConfig(0).Noise; got != noise.Secure {
		t.Errorf("anytime SS18's epoch config has Noise %v, want secure", got)
	}
}

// Every exported constructor New…(cfg T, …) of the own-stream packages whose
// config T has a field Noise of type noise.Mode is in ownStream, so that a
// constructor added without resolving the unset mode is tested by
// TestUnsetNoiseIsSecure. Its control: the scan finds the constructors
// already listed (a scan that found nothing would pass vacuously).
func TestEveryNoiseConstructorIsListed(t *testing.T) {
	found := map[string]bool{}
	for _, pkg := range []string{"ss18", "mt14", "as17", "mab", "anytime", "."} {
		dir := filepath.Join("..", "..", pkg)
		fset := token.NewFileSet()
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var files []*ast.File
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		name := pkg
		if pkg == "." {
			name = "dpb"
		}
		withNoise := map[string]bool{} // config types with a Noise noise.Mode field, or aliases of one
		aliases := map[string]string{}
		for _, f := range files {
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.TYPE {
					continue
				}
				for _, s := range g.Specs {
					ts := s.(*ast.TypeSpec)
					if st, ok := ts.Type.(*ast.StructType); ok {
						for _, fl := range st.Fields.List {
							if sel, ok := fl.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Mode" && len(fl.Names) == 1 && fl.Names[0].Name == "Noise" {
								withNoise[ts.Name.Name] = true
							}
						}
					}
					if sel, ok := ts.Type.(*ast.SelectorExpr); ok && ts.Assign.IsValid() {
						aliases[ts.Name.Name] = sel.Sel.Name
					}
				}
			}
		}
		for a, target := range aliases { // the root package's SS18Config = ss18.PolicyConfig
			if slices.Contains([]string{"PolicyConfig", "DPUCBConfig"}, target) {
				withNoise[a] = true
			}
		}
		for _, f := range files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || !fd.Name.IsExported() || !strings.HasPrefix(fd.Name.Name, "New") {
					continue
				}
				for _, p := range fd.Type.Params.List {
					var tn string
					switch x := p.Type.(type) {
					case *ast.Ident:
						tn = x.Name
					case *ast.SelectorExpr:
						if slices.Contains([]string{"PolicyConfig", "DPUCBConfig"}, x.Sel.Name) {
							tn = x.Sel.Name
							withNoise[tn] = true
						}
					}
					if withNoise[tn] {
						found[name+"."+fd.Name.Name] = true
					}
				}
			}
		}
	}
	for name := range found {
		if _, ok := ownStream[name]; !ok {
			t.Errorf("%s takes a config with a Noise field and is not in ownStream: add it, so that its unset Noise is tested", name)
		}
	}
	for _, name := range []string{"ss18.NewPolicy", "mt14.NewDPUCB", "as17.NewFTRL", "mab.NewDPSE", "anytime.NewSS18", "dpb.NewSS18Policy"} {
		if !found[name] {
			t.Errorf("the scan did not find %s: it cannot see an unlisted constructor either", name)
		}
	}
}

// A mechanism without a secure sampler never falls back to simulated noise
// when Noise is unset: it returns an error (wrapping noise.ErrNoSecure) that
// says to name noise.Simulated and that it is not release-grade; named, the
// same configuration builds.
func TestUnsetNoiseWithoutSecureSamplerIsAnError(t *testing.T) {
	cases := []struct {
		name  string
		build func(m noise.Mode) error
	}{
		{"ss18.NewPolicy Wishart", func(m noise.Mode) error {
			_, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.Wishart, Setting: svcSetting, Noise: m}, bandit.Stream(1, 1))
			return err
		}},
		{"ss18.NewPolicy WishartTight", func(m noise.Mode) error {
			_, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.WishartTight, Setting: svcSetting, Noise: m}, bandit.Stream(1, 1))
			return err
		}},
		{"ss18.NewRegularizer RegWishartTree", func(m noise.Mode) error {
			_, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegWishartTree, Setting: svcSetting, Noise: m}, bandit.Stream(1, 1))
			return err
		}},
		{"anytime.NewSS18 Wishart", func(m noise.Mode) error {
			_, err := anytime.NewSS18FromSource(ss18.PolicyConfig{Alg: ss18.Wishart, Setting: svcSetting, Noise: m}, bandit.StreamSource(1, 1))
			return err
		}},
		{"dpb.NewSS18Policy Wishart", func(m noise.Mode) error {
			_, err := dpb.NewSS18Policy(dpb.SS18Config{Alg: dpb.SS18Wishart, Setting: svcSetting, Noise: m}, dpb.Stream(1, 1))
			return err
		}},
	}
	// The square-root and BLT counters: refused while they have no secure
	// sampler; once they have one, the unset mode builds them on it.
	for _, alg := range []ss18.Alg{ss18.GaussianSqrt, ss18.GaussianBLT} {
		cases = append(cases, struct {
			name  string
			build func(m noise.Mode) error
		}{"ss18.NewPolicy " + alg.String(), func(m noise.Mode) error {
			_, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: alg, Setting: svcSetting, Noise: m}, bandit.Stream(1, 1))
			return err
		}})
	}
	for _, kind := range []counter.Kind{counter.Sqrt, counter.BLT} {
		cases = append(cases, struct {
			name  string
			build func(m noise.Mode) error
		}{"as17.NewFTRL " + kind.String(), func(m noise.Mode) error {
			_, err := as17.NewFTRL(as17.FTRLConfig{Set: as17.Ball, Dim: 3, Horizon: 64, Epsilon: 1, Delta: 1e-3, Counter: kind, Noise: m}, bandit.Stream(1, 1))
			return err
		}})
	}
	for _, c := range cases {
		if err := c.build(noise.Simulated); err != nil {
			t.Errorf("%s with noise.Simulated: %v", c.name, err)
			continue
		}
		secureErr := c.build(noise.Secure)
		err := c.build(noise.Default)
		if secureErr == nil {
			if err != nil {
				t.Errorf("%s: noise.Secure builds, the unset mode does not: %v", c.name, err)
			}
			continue // a secure sampler exists: the unset mode resolves to it
		}
		if err == nil {
			t.Errorf("%s with Noise unset built a policy on a mechanism that refuses noise.Secure (%v)", c.name, secureErr)
			continue
		}
		if !errors.Is(err, noise.ErrNoSecure) {
			t.Errorf("%s: error %q does not wrap noise.ErrNoSecure", c.name, err)
		}
		for _, want := range []string{"unset", "noise.Simulated", "not a release-grade"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not say %q", c.name, err, want)
			}
		}
		// Control: the explicit noise.Secure refusal is not dressed as an
		// unset-mode error (the wording above is the unset mode's).
		if strings.Contains(secureErr.Error(), "unset") {
			t.Errorf("%s: noise.Secure's error talks of an unset mode: %v", c.name, secureErr)
		}
	}
}

// Snapshots record the resolved mode, numbered as snapshot formats 3 and 4
// number it: a policy built with Noise unset and one built with noise.Secure
// restore each other's snapshots, and noise.Simulated keeps number 0 (what a
// simulated policy's snapshot written before the unset mode existed holds).
func TestSnapshotNoiseCodes(t *testing.T) {
	for m, want := range map[noise.Mode]int{noise.Simulated: 0, noise.Secure: 1, noise.SecureSeeded: 2, noise.Default: 1} {
		if got := m.SnapshotCode(); got != want {
			t.Errorf("%v.SnapshotCode() = %d, want %d", m, got, want)
		}
	}
	cfg := mt14.DPUCBConfig{Arms: 2, Horizon: 16, Epsilon: 1}
	a, err := anytime.NewDPUCBFromSource(cfg, bandit.StreamSource(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	r := &bandit.Round{K: 2}
	for t0 := 1; t0 <= 20; t0++ {
		r.T = t0
		a.Update(r, a.Choose(r), float64(t0%2))
	}
	snap, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []noise.Mode{noise.Secure, noise.Default} {
		c := cfg
		c.Noise = m
		b, err := anytime.NewDPUCBFromSource(c, bandit.StreamSource(2, 2))
		if err != nil {
			t.Fatal(err)
		}
		if err := b.UnmarshalBinary(snap); err != nil {
			t.Errorf("a snapshot of Noise unset into Noise %v: %v", m, err)
		}
	}
	// Control: the same snapshot into a simulated policy is refused (another
	// configuration), so the restores above compared the noise mode.
	c := cfg
	c.Noise = noise.Simulated
	b, err := anytime.NewDPUCBFromSource(c, bandit.StreamSource(2, 2))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.UnmarshalBinary(snap); err == nil {
		t.Errorf("a secure policy's snapshot restored into a simulated one")
	}
}

// noiseConfigs are the config types whose zero Noise is secure noise, by
// package and name (check.SS18Config, a check suite's, is not dpb.SS18Config).
var noiseConfigs = []string{
	"ss18.PolicyConfig", "dpb.SS18Config", "mt14.DPUCBConfig", "dpb.DPUCBConfig", "mt14.ContextualUCBConfig",
	"as17.FTRLConfig", "as17.FTPLConfig", "mab.DPSEConfig", "mab.AdaPConfig", "mab.DPKLConfig", "mab.LazyDPTSConfig",
}

// unsetNoiseLiterals returns the positions of the composite literals of the
// noiseConfigs types in the Go files of dir (tests too when tests is set)
// that leave Noise unset.
func unsetNoiseLiterals(t *testing.T, dir string, tests bool) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || (!tests && strings.HasSuffix(path, "_test.go")) {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			var name string
			switch x := lit.Type.(type) {
			case *ast.Ident: // a type of the file's own package
				name = strings.TrimSuffix(f.Name.Name, "_test") + "." + x.Name
			case *ast.SelectorExpr:
				if pkg, ok := x.X.(*ast.Ident); ok {
					name = pkg.Name + "." + x.Sel.Name
				}
			}
			if !slices.Contains(noiseConfigs, name) {
				return true
			}
			for _, e := range lit.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Noise" {
						return true
					}
				}
			}
			out = append(out, fset.Position(lit.Pos()).String())
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The experiments, checks, audits and the command line keep their bits: a
// config they build names its noise (noise.Simulated, or a secure mode),
// never leaving it to the zero value, which is crypto/rand noise and would
// make a run irreproducible. The control: the own-stream example's
// configs, which leave Noise unset on purpose, are found by the same scan.
func TestExperimentsNameTheirNoise(t *testing.T) {
	for _, dir := range []string{"harness", "ss18fig", "mt14fig", "as17fig", "mabfig", "check", "audit", "cmd", "nb", "plot"} {
		for _, pos := range unsetNoiseLiterals(t, filepath.Join("..", "..", dir), false) {
			t.Errorf("%s: a config with Noise unset (secure noise from crypto/rand, not reproducible): name noise.Simulated", pos)
		}
	}
	if got := unsetNoiseLiterals(t, filepath.Join("..", "..", "own_stream_example_test.go"), true); len(got) < 2 {
		t.Errorf("the scan found %d unset-Noise configs in the own-stream examples, want at least 2: it would miss them elsewhere too", len(got))
	}
}
