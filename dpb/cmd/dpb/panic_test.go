package main

import (
	"bytes"
	"strings"
	"testing"
)

// A panic of a command's goroutine is the last resort's error (exit 1, no
// "panic:" or goroutine dump): causes are fixed where they are, and this
// keeps one that escaped from printing a stack.
func TestPanicIsAnError(t *testing.T) {
	commands["test-panic"] = command{summary: "panics", run: func([]string) error { panic("boom") }}
	defer delete(commands, "test-panic")
	var stderr bytes.Buffer
	code := runMain([]string{"test-panic"}, &stderr)
	if msg := stderr.String(); code != 1 || !strings.Contains(msg, "dpb: internal error: boom") || strings.Contains(msg, "panic:") || strings.Contains(msg, "goroutine ") {
		t.Errorf("exit %d, stderr %q; want exit 1 and the internal error", code, msg)
	}
}
