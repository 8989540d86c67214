package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

func init() {
	register("version", "print dpb's version and the commit it was built from (also dpb -version)", func(args []string) error {
		fs := newFlags("version", "", "Prints the semantic version (dpb.Version) and, when the build was stamped\n(go build -buildvcs=true in a git checkout), the commit and whether the tree\nhad uncommitted changes. \"dpb -version\" is the same.")
		pos, err := parseArgs(fs, args)
		if err != nil {
			return err
		}
		if err := noArgs(fs, pos); err != nil {
			return err
		}
		return writeVersion(os.Stdout, readStamp(debug.ReadBuildInfo))
	})
}

// stamp is what a binary knows of its own source: the semantic version
// (always) and the VCS stamp go build wrote into it (when it did).
type stamp struct {
	Version  string // dpb.Version (internal/snap.Version)
	Revision string // vcs.revision, "" when not stamped
	Time     string // vcs.time
	Modified bool   // vcs.modified: the tree had uncommitted changes
	Go       string // the toolchain
}

// readStamp reads the binary's build information (debug.ReadBuildInfo,
// passed in so tests can give another). It never asks git: the working
// directory may be another repository.
func readStamp(read func() (*debug.BuildInfo, bool)) stamp {
	s := stamp{Version: snap.Version, Go: runtime.Version()}
	bi, ok := read()
	if !ok || bi == nil {
		return s
	}
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			s.Revision = kv.Value
		case "vcs.time":
			s.Time = kv.Value
		case "vcs.modified":
			s.Modified = kv.Value == "true"
		}
	}
	return s
}

// Code is the code version recorded in JSON: the commit, "+dirty" when the
// tree had uncommitted changes, or "unknown" when the build was not stamped
// (go run, go test, or -buildvcs=false, the default of GOFLAGS here).
func (s stamp) Code() string {
	switch {
	case s.Revision == "":
		return "unknown"
	case s.Modified:
		return s.Revision + "+dirty"
	}
	return s.Revision
}

// unstampedHint says why a binary has no commit and how to get one.
const unstampedHint = "this build is not stamped (go run, go test and -buildvcs=false builds carry no commit, " +
	"nor does a build in a git worktree, whose .git is a file go does not read); " +
	"for a stamp, build in a git clone with: go build -buildvcs=true -o dpb ./dpb/cmd/dpb"

// writeVersion prints "dpb VERSION" and the commit line.
func writeVersion(w io.Writer, s stamp) error {
	var err error
	switch {
	case s.Revision == "":
		_, err = fmt.Fprintf(w, "dpb %s (%s)\ncommit: unknown: %s\n", s.Version, s.Go, unstampedHint)
	case s.Modified:
		_, err = fmt.Fprintf(w, "dpb %s (%s)\ncommit: %s (%s) with uncommitted changes: outputs record %q; commit, then build again for a clean stamp\n", s.Version, s.Go, s.Revision, s.Time, s.Code())
	default:
		_, err = fmt.Fprintf(w, "dpb %s (%s)\ncommit: %s (%s)\n", s.Version, s.Go, s.Revision, s.Time)
	}
	return err
}

// provenanceJSON is what every check and audit JSON records of the code
// that produced it (figure JSONs record the same in harness.Meta).
type provenanceJSON struct {
	Version string `json:"version"`
	Code    string `json:"code_version"`
	Go      string `json:"go_version"`
}

func provenance() provenanceJSON {
	s := readStamp(debug.ReadBuildInfo)
	return provenanceJSON{Version: s.Version, Code: s.Code(), Go: s.Go}
}
