package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/dpbandits/dpbandits/dpb/audit"
	"github.com/dpbandits/dpbandits/dpb/check"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/atomicfile"
)

func init() {
	register("verify", "check result JSONs: figure sets belong together, check and audit JSONs follow their rules, no value edited (dpb verify [-seal] FILE.json ...)", func(args []string) error {
		return runVerify(os.Stdout, args)
	})
}

// jsonKind names the three kinds of result JSON, told apart by their
// top-level fields: a check JSON has "verdicts", an audit JSON "results",
// any other is a figure set's JSON.
func jsonKind(raw []byte) (string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return "", err
	}
	_, v := top["verdicts"]
	_, r := top["results"]
	switch {
	case v && r:
		return "", fmt.Errorf("has both verdicts and results: neither a check nor an audit JSON")
	case v:
		return "check", nil
	case r:
		return "audit", nil
	}
	return "figure", nil
}

// verifyJSON checks the result JSON at path by its kind's rule (a figure
// set: harness.VerifyFigureFiles; a check JSON: check.VerifyJSON; an audit
// JSON: audit.VerifyJSON) and, with hash, its content hash
// (harness.VerifyContentHash); it returns the kind.
func verifyJSON(path string, hash bool) (string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	kind, err := jsonKind(raw)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if hash {
		if err := harness.VerifyContentHash(raw); err != nil {
			return kind, fmt.Errorf("%s: %w", path, err)
		}
	}
	switch kind {
	case "check":
		err = check.VerifyJSON(raw)
	case "audit":
		err = audit.VerifyJSON(raw)
	default:
		return kind, harness.VerifyFigureFiles(path, raw) // names path
	}
	if err != nil {
		return kind, fmt.Errorf("%s: %w", path, err)
	}
	return kind, nil
}

// runVerify checks each result JSON by its kind's rule and its content
// hash; with -seal it writes the content hash into each JSON that passes
// its kind's rule instead (for JSONs written before the hash existed, and
// after a provenance mark is added by hand).
func runVerify(w io.Writer, args []string) error {
	fs := newFlags("verify", "[-seal] FILE.json ...", "Checks result JSONs by their kind. A figure set's JSON: every file it lists (CSV, SVG, PNG, …) is in its folder (no \"..\", no absolute path, no symbolic link out of the folder) with the SHA-256 it records, so that the set is one run's (or, marked recorded-at-commit, the committed one). A check JSON (dpb check -json): no verdict failed, statuses and summary consistent. An audit JSON (dpb audit -json): every row's ε lower bound, control and verdict follow from its counts, no violation. Every JSON must record the SHA-256 of its canonical content (content_sha256): an edited value is caught. Exit status 1 when any JSON fails.")
	seal := fs.Bool("seal", false, "write each JSON's content hash (content_sha256) into it, after checking its kind's rule; for JSONs written before the hash existed and after a provenance mark is added by hand")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("verify: want one or more result JSON files")
	}
	if err := ready(nil); err != nil {
		return err
	}
	bad := 0
	for _, p := range pos {
		kind, err := verifyJSON(p, !*seal)
		if err == nil && *seal {
			err = sealFile(p)
		}
		if err != nil {
			bad++
			fmt.Fprintf(w, "FAILED %v\n", err)
			continue
		}
		verb := "ok    "
		if *seal {
			verb = "sealed"
		}
		fmt.Fprintf(w, "%s %s (%s)\n", verb, p, kind)
	}
	if bad > 0 {
		return fmt.Errorf("verify: %d of %d result JSONs failed", bad, len(pos))
	}
	return nil
}

// sealFile rewrites the JSON at path with its content hash.
func sealFile(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	sealed, err := harness.SealJSON(raw)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return atomicfile.WriteBytes(path, sealed, 0o644)
}
