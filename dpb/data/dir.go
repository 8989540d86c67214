package data

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// EnvDir names the environment variable that overrides the data directory.
const EnvDir = "DPB_DATA"

// UserDir is where "dpb data fetch" puts the data by default:
// $XDG_DATA_HOME/dpbandits, or ~/.local/share/dpbandits when XDG_DATA_HOME
// is unset (an absolute path; "" only when neither can be determined).
func UserDir() string {
	if x := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "dpbandits")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share", "dpbandits")
}

// Dir returns the data directory every command and notebook reads by
// default, the first of:
//
//  1. $DPB_DATA when set (even when empty of data: a declared "no data");
//  2. [UserDir] when it exists (where "dpb data fetch" writes);
//  3. shared/data beside the repository checkout that contains $GONB_DIR or
//     the working directory (the layout CI and the project's machines use),
//     when it exists;
//  4. [UserDir] (which then does not exist: loaders fail with [Missing]).
func Dir() string {
	if d, ok := os.LookupEnv(EnvDir); ok && d != "" {
		if abs, err := filepath.Abs(d); err == nil {
			return abs
		}
		return d
	}
	u := UserDir()
	if u != "" && isDir(u) {
		return u
	}
	if root, ok := repoRoot(); ok {
		if s := filepath.Join(filepath.Dir(root), "shared", "data"); isDir(s) {
			return s
		}
	}
	return u
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// repoRoot walks up from $GONB_DIR (a notebook's folder in a GoNB kernel)
// or else the working directory to the directory holding this module's
// go.mod.
func repoRoot() (string, bool) {
	d := os.Getenv("GONB_DIR")
	if d == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", false
		}
		d = wd
	}
	for {
		b, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil && len(b) > 0 && containsModule(b) {
			return d, true
		}
		up := filepath.Dir(d)
		if up == d {
			return "", false
		}
		d = up
	}
}

func containsModule(b []byte) bool {
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == "module github.com/dpbandits/dpbandits" {
			return true
		}
	}
	return false
}

// MissingError says that a data file is absent and which command gets it.
type MissingError struct {
	Path string // the file looked for
	Set  string // "obd" or "uci"
	Dir  string // the data directory searched
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("data file %s not found; get it with: dpb data fetch %s -dir %s (or pass -data DIR, or set %s)", e.Path, e.Set, e.Dir, EnvDir)
}

// FetchCommand is the shell command that downloads the set into dir.
func (e *MissingError) FetchCommand() string {
	return fmt.Sprintf("go run ./dpb/cmd/dpb data fetch %s -dir %s", e.Set, e.Dir)
}

// Locate returns dir/rel when that file exists, else a *[MissingError]
// naming the set that provides it.
func Locate(dir, rel string) (string, error) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return p, &MissingError{Path: p, Set: setOf(rel), Dir: dir}
		}
		return p, err
	}
	return p, nil
}

func setOf(rel string) string {
	for _, f := range DefaultManifest().Files {
		if f.Path == rel {
			return f.Set
		}
	}
	if len(rel) >= 3 && rel[:3] == "obd" {
		return "obd"
	}
	return "uci"
}
