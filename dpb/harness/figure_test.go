package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFigureJSONKeepsProvenance: a rerun that reproduces a committed
// figure JSON leaves it (and its committed-by mark) as it is; a rerun with
// other content replaces it, mark and all (the control: a changed value).
func TestWriteFigureJSONKeepsProvenance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.json")
	v := map[string]any{"seed": 1, "results": []float64{0.5, 1e-8}}
	if err := WriteFigureJSON(path, v); err != nil {
		t.Fatal(err)
	}
	plain, _ := os.ReadFile(path)
	marked := strings.Replace(string(plain), "{\n", "{\n  \"code_version\": \"0123456789012345678901234567890123456789\",\n  \"code_version_note\": \"committed-by\",\n  \"run_code_version\": \"none\",\n", 1)
	if err := os.WriteFile(path, []byte(marked), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFigureJSON(path, v); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != marked {
		t.Errorf("the same result rewrote the marked file:\n%s", got)
	}
	v["seed"] = 2
	if err := WriteFigureJSON(path, v); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if strings.Contains(string(got), "committed-by") || !strings.Contains(string(got), `"seed": 2`) {
		t.Errorf("another result kept the old file or its mark:\n%s", got)
	}
}
