package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/internal/datafixture"
)

// fixtureData writes the synthetic data files (the OBD and UCI layouts)
// under a directory for -data.
func fixtureData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for p, b := range datafixture.Files(1) {
		f := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(p, "/")))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// mt14-fig2-obd-bts -pmin outside what accepts events on average (the
// fixture's log has 600 events: at least 10/600) or outside (0, 1] is a
// usage error naming the flag: -pmin 5e-324 printed a NaN estimate with
// exit 0. In range, every estimate in the CSV is a number.
func TestBTSPMinRange(t *testing.T) {
	dataDir, out := fixtureData(t), t.TempDir()
	fig := []string{"reproduce", "mt14-fig2-obd-bts", "-short", "-runs", "1", "-data", dataDir, "-out", out}
	for pmin, msg := range map[string]string{
		"5e-324": "flag -pmin: the rejection replay accepts about PMin × 600 events",
		"0.01":   "want 0 (1/K) or at least 10/600",
		"2":      "invalid value 2 for flag -pmin: want 0 (1/K) or a threshold in (0, 1]",
		"-0.5":   "invalid value -0.5 for flag -pmin",
	} {
		var stderr bytes.Buffer
		if code := runMain(append(fig, "-pmin", pmin), &stderr); code != 2 || !strings.Contains(stderr.String(), msg) {
			t.Errorf("-pmin %s: exit %d, stderr %q; want exit 2 and %q", pmin, code, stderr.String(), msg)
		}
	}
	var stderr bytes.Buffer
	if code := runMain(append(fig, "-pmin", "0.05"), &stderr); code != 0 {
		t.Fatalf("-pmin 0.05: exit %d: %s", code, stderr.String())
	}
	csv, err := os.ReadFile(filepath.Join(out, "mt14-fig2-obd-bts.csv"))
	if err != nil || bytes.Contains(bytes.ToLower(csv), []byte("nan")) {
		t.Errorf("CSV with NaN (%v):\n%s", err, csv)
	}
}
