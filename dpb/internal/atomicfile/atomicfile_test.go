package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.csv")
	if err := WriteBytes(p, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(p, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil || string(got) != "new\n" {
		t.Fatalf("got %q, %v; want new", got, err)
	}
	st, _ := os.Stat(p)
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	assertNoTemp(t, dir)
}

// A write that fails half-way leaves the old file and no temporary file.
func TestWriteFileFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.svg")
	if err := WriteBytes(p, []byte("old complete\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFile(p, 0o644, func(w io.Writer) error {
		w.Write(make([]byte, 1<<20)) // more than the buffer: reaches the temporary file
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	got, _ := os.ReadFile(p)
	if string(got) != "old complete\n" {
		t.Fatalf("final path changed to %d bytes after a failed write", len(got))
	}
	assertNoTemp(t, dir)
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{".a.csv.tmp-123": true, "a.csv": false, ".hidden": false, "x.tmp-1": false} {
		if IsTemp(name) != want {
			t.Errorf("IsTemp(%q) = %v", name, !want)
		}
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if IsTemp(e.Name()) {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}
