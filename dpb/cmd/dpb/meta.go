package main

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/dpbandits/dpbandits/dpb"
)

// codeVersion returns the VCS revision the binary was built from, if known.
func codeVersion() string {
	rev, dirty := "", ""
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = &debug.BuildInfo{}
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		// Not stamped (go run, or a worktree): ask git.
		out, err := exec.Command("git", "describe", "--always", "--dirty").Output()
		if err != nil {
			return "unknown"
		}
		return strings.TrimSpace(string(out))
	}
	return rev + dirty
}

func writeMeta(base string, m dpb.Meta) error {
	m.Code = codeVersion()
	m.Go = runtime.Version()
	f, err := os.Create(base + ".json")
	if err != nil {
		return err
	}
	if err := dpb.WriteJSON(f, m); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
