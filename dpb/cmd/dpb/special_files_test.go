//go:build unix

package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A named pipe in place of a job file makes -merge fail at once (exit 1,
// naming the file and what it is), where opening it blocked the merge
// forever, past SIGTERM. Liveness bound 60 s; no duration is asserted.
func TestMergeRefusesFIFOJobFile(t *testing.T) {
	dir := t.TempDir()
	S, A := filepath.Join(dir, "S"), filepath.Join(dir, "A")
	fig := []string{"reproduce", "mt14-fig1-k5", "-short", "-n", "300", "-runs", "2", "-store", S}
	if code, stderr := runDPB(t, append(fig, "-out", A)...); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	jobs, _ := filepath.Glob(filepath.Join(S, "*", "r000001-s000"))
	if len(jobs) != 1 {
		t.Fatalf("job files %v", jobs)
	}
	if err := syscall.Unlink(jobs[0]); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(jobs[0], 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	cmd := dpbCmd(append(fig, "-merge", "-out", filepath.Join(dir, "B"))...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("-merge blocked on the FIFO for 60 s")
	}
	code := cmd.ProcessState.ExitCode()
	msg := stderr.String()
	noPanic(t, fig, msg)
	if code != 1 || !strings.Contains(msg, jobs[0]) || !strings.Contains(msg, "named pipe (FIFO), not a regular file") {
		t.Errorf("merge with a FIFO job file: exit %d, stderr %q; want exit 1 naming the file", code, msg)
	}
}
