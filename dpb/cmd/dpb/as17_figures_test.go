package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestAS17FiguresSmoke runs both AS17 figures at a tiny scale and checks
// that every promised file is written and the JSON holds the slopes.
func TestAS17FiguresSmoke(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-n", "256", "-minn", "64", "-runs", "2", "-epsn", "128", "-eps", "1", "-epssweep", "1,10", "-progress=false"}
	for _, name := range []string{"as17-table1", "as17-table2"} {
		if err := figures[name].run(name, dir, args); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, suffix := range []string{".svg", ".png", ".csv", ".json", "-excess.svg", "-excess.png", "-eps.svg", "-eps.png", "-eps.csv"} {
			if fi, err := os.Stat(filepath.Join(dir, name+suffix)); err != nil || fi.Size() == 0 {
				t.Errorf("%s%s missing or empty (%v)", name, suffix, err)
			}
		}
		b, err := os.ReadFile(filepath.Join(dir, name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var meta struct {
			Config struct {
				T []struct {
					Slope []map[string]any `json:"slope"`
				} `json:"t_sweep"`
			} `json:"config"`
		}
		if err := json.Unmarshal(b, &meta); err != nil {
			t.Fatal(err)
		}
		requireProvenance(t, name, b)
		if len(meta.Config.T) == 0 || len(meta.Config.T[0].Slope) != 2 {
			t.Errorf("%s: json has no slopes: %s", name, b[:min(len(b), 300)])
		}
	}
	if err := figures["as17-table1"].run("as17-table1", dir, []string{"-kind", "nonsense"}); err == nil {
		t.Error("unknown loss kind accepted")
	}
}
