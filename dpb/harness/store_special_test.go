//go:build unix

package harness

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A named pipe (or a directory) in place of a job file or key.json is an
// error naming it, returned at once: opening a FIFO with no writer blocked
// the read, and a merge, forever (past SIGTERM). The liveness bound, 30 s,
// is far above the microseconds a refusal takes; no duration is asserted.
func TestStoreRefusesSpecialFiles(t *testing.T) {
	st, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sh := Shape{Reps: 2, Series: 1, Points: 3}
	b, err := st.Bin("t-exp", testKey{Seed: 1}, sh)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(b.path(Job{Rep: 0}), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Mkdir(b.path(Job{Rep: 1}), 0o755); err != nil {
		t.Fatal(err)
	}
	within := func(what string, f func() error, want string) {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- f() }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: err = %v, want %q", what, err, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: blocked for 30 s", what)
		}
	}
	load := func(j Job) func() error {
		return func() error { _, err := b.Load(j, make([]float64, 3)); return err }
	}
	within("FIFO job file", load(Job{Rep: 0}), "is a named pipe (FIFO), not a regular file")
	within("directory job file", load(Job{Rep: 1}), "is a directory, not a regular file")
	within("Verify", func() error {
		if errs := b.Verify(); len(errs) != 2 {
			t.Errorf("Verify found %d damaged files, want 2: %v", len(errs), errs)
		}
		return os.ErrInvalid
	}, "invalid")
	kp := filepath.Join(b.Dir(), "key.json")
	os.Remove(kp)
	if err := syscall.Mkfifo(kp, 0o644); err != nil {
		t.Fatal(err)
	}
	within("FIFO key.json", func() error { _, err := st.Bin("t-exp", testKey{Seed: 1}, sh); return err }, "named pipe")
	within("FIFO key.json, Bins", func() error { _, err := st.Bins(); return err }, "named pipe")
}
