package harness

import (
	"os"
	"path/filepath"
	"regexp"
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

// A figure JSON that WriteFigureJSON wrote verifies, and still does when
// re-indented; one value edited (a number's text, a string), a key added
// twice or the content hash removed is caught by VerifyFigureSet (issue 56).
func TestFigureJSONContentHash(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.csv"), []byte("x,y\n1,2\n"), 0o644)
	files, err := SumFiles(dir, []string{filepath.Join(dir, "f.csv")})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "f.json")
	if err := WriteFigureJSON(path, Meta{Name: "f", Seed: 7, Reps: 3, Config: map[string]any{"eps": 0.5, "note": "a<b"}, Noise: []string{NoNoise}, Files: files}); err != nil {
		t.Fatal(err)
	}
	if err := VerifyFigureSet(path); err != nil {
		t.Fatalf("as written: %v", err)
	}
	good, _ := os.ReadFile(path)
	reindented := strings.ReplaceAll(string(good), "  ", "\t")
	os.WriteFile(path, []byte(reindented), 0o644)
	if err := VerifyFigureSet(path); err != nil {
		t.Errorf("re-indented: %v", err)
	}
	for name, edited := range map[string]string{
		"seed":        strings.Replace(string(good), `"seed": 7`, `"seed": 8`, 1),
		"number text": strings.Replace(string(good), `"eps": 0.5`, `"eps": 0.50`, 1),
		"string":      strings.Replace(string(good), `"note": "a\u003cb"`, `"note": "a\u003cc"`, 1),
		"key twice":   strings.Replace(string(good), `"seed": 7,`, `"seed": 7, "seed": 7,`, 1),
		"no hash":     regexp.MustCompile(`,\n  "content_sha256": "[0-9a-f]+"`).ReplaceAllString(string(good), ""),
	} {
		if edited == string(good) {
			t.Fatalf("%s: no edit made in\n%s", name, good)
		}
		os.WriteFile(path, []byte(edited), 0o644)
		if err := VerifyFigureSet(path); err == nil {
			t.Errorf("%s edited: verified", name)
		}
	}
}
