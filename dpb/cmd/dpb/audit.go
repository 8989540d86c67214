package main

import (
	"fmt"
	"io"
	"os"

	"github.com/dpbandits/dpbandits/dpb/audit"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

func init() {
	register("audit", "audit every mechanism's privacy empirically and print the table (dpb audit [-short] [-json] [NAME...])", func(args []string) error {
		return runAudit(os.Stdout, args)
	})
}

func runAudit(w io.Writer, args []string) error {
	fs := newFlags("audit", "[NAME...] [flags]", "Audits every mechanism's privacy empirically (or the NAMEs given; -list shows them) and prints the table; exits 1 on a violation.")
	asJSON := fs.Bool("json", false, "print the table as JSON")
	short := fs.Bool("short", false, "small, quick run (a few seconds)")
	seed := new(uint64)
	seedVar(fs, seed, "seed", 1, "random seed, an exact integer (the secure rows too, unless -crypto)")
	crypto := fs.Bool("crypto", false, "the secure rows draw their bits from crypto/rand (the library's default for releases; those rows then vary from run to run) instead of the seeded stream")
	trials, workers := new(int), new(int)
	defaultOrVar(fs, trials, "trials", 0, 2, maxAuditTrials, "runs on each input, 0: each audit's own (half select, half evaluate)")
	countVar(fs, workers, "workers", 0, 0, maxWorkers, "worker goroutines, 0: GOMAXPROCS")
	list := fs.Bool("list", false, "list the audits and exit")
	progress := new(bool)
	progressVar(fs, progress)
	names, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if *list {
		return listAudits(w, names)
	}
	if names, err = auditNames(names); err != nil {
		return err
	}
	if err := ready(auditMemory(names, *trials, *short, *workers)); err != nil {
		return err
	}
	opt := audit.Options{Trials: *trials, Short: *short, Seed: *seed, Workers: *workers, CryptoBits: *crypto}
	table, err := runAudits(names, opt, *progress)
	if err != nil {
		return err
	}
	if *asJSON {
		err = writeAuditJSON(w, table, opt)
	} else {
		err = table.WriteText(w)
	}
	if err != nil {
		return err
	}
	if f := table.Failed(); len(f) > 0 {
		return fmt.Errorf("%d audits show a privacy violation (first: %s, ε lower bound %.3f > claimed %g)", len(f), f[0].Name, f[0].Lower, f[0].Epsilon)
	}
	return nil
}

// listAudits is "dpb audit -list".
func listAudits(w io.Writer, names []string) error {
	if len(names) > 0 {
		return usagef("audit: -list takes no names (got %q)", names[0])
	}
	for _, n := range audit.Names() {
		fmt.Fprintln(w, n)
	}
	return nil
}

// auditNames checks the audits named: unknown names are usage errors; a
// name given twice runs once.
func auditNames(names []string) ([]string, error) {
	seen := map[string]bool{}
	uniq := names[:0:0]
	for _, n := range names {
		if _, err := audit.Lookup(n); err != nil {
			return nil, usageError{fmt.Errorf("audit: %w (dpb audit -list)", err)}
		}
		if !seen[n] {
			seen[n] = true
			uniq = append(uniq, n)
		}
	}
	return uniq, nil
}

// runAudits runs the audits named (all without names) one at a time, so
// that the progress line names the running one (each audit's result does
// not depend on the others run).
func runAudits(names []string, opt audit.Options, progress bool) (audit.Results, error) {
	run := names
	if len(run) == 0 {
		run = audit.Names()
	}
	var bw io.Writer
	if progress {
		bw = progressOut
	}
	bar := newStageBar(bw, "audits", len(run), progressEvery)
	var rs []audit.Result
	for i, n := range run {
		bar.begin(i, n)
		r, err := audit.RunNamed([]string{n}, opt)
		if err != nil {
			bar.end(i)
			return nil, err
		}
		rs = append(rs, r...)
	}
	bar.end(len(run))
	return audit.Results(rs), nil
}

// writeAuditJSON writes the audit table as sealed JSON.
func writeAuditJSON(w io.Writer, table audit.Results, opt audit.Options) error {
	return writeSealedJSON(w, struct {
		provenanceJSON
		StreamVersion int           `json:"stream_version"`
		Seed          uint64        `json:"seed"`
		Short         bool          `json:"short"`
		CryptoBits    bool          `json:"crypto_bits"`
		Noise         []string      `json:"noise"`
		Confidence    float64       `json:"confidence"`
		Summary       audit.Summary `json:"summary"`
		Results       audit.Results `json:"results"`
	}{provenance(), snap.StreamVersion, opt.Seed, opt.Short, opt.CryptoBits, noiseNames(opt.NoiseModes()...), audit.Confidence, table.Summary(), table})
}
