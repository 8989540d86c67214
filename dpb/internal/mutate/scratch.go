package mutate

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// TrackedFiles returns the files git tracks under root (slash-separated,
// relative to root), as `git ls-files` lists them.
func TrackedFiles(root string) ([]string, error) {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %w", root, err)
	}
	var files []string
	for f := range bytes.SplitSeq(out, []byte{0}) {
		if len(f) > 0 {
			files = append(files, string(f))
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("git ls-files in %s: no tracked file", root)
	}
	return files, nil
}

// within reports whether path p is root or below it (both absolute and
// clean, symbolic links resolved where they exist).
func within(p, root string) bool {
	rel, err := filepath.Rel(resolve(root), resolve(p))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// NewScratch makes a fresh directory with os.MkdirTemp (in the system's
// temporary directory) and copies root's tracked files into it, their
// working-tree contents and permission bits. It refuses a scratch
// directory inside root: the real tree is never written.
func NewScratch(root string, files []string) (string, error) {
	dir, err := os.MkdirTemp("", "dpb-mutant-*")
	if err != nil {
		return "", err
	}
	if within(dir, root) {
		os.RemoveAll(dir)
		return "", fmt.Errorf("scratch directory %s is inside the tree %s (set TMPDIR elsewhere)", dir, root)
	}
	if err := copyFiles(root, dir, files); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

func copyFiles(root, dst string, files []string) error {
	for _, f := range files {
		src := filepath.Join(root, filepath.FromSlash(f))
		to := filepath.Join(dst, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		info, err := os.Lstat(src)
		if err != nil {
			return fmt.Errorf("copying tracked file: %w", err)
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(src)
			if err != nil {
				return err
			}
			if err := os.Symlink(target, to); err != nil {
				return err
			}
			continue
		}
		if !info.Mode().IsRegular() {
			continue // a submodule's directory: not part of the module
		}
		if err := copyFile(src, to, info.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Plant applies the defect to its file under dir (a scratch copy): the
// anchor must occur exactly once ([Apply]).
func Plant(dir string, d Defect) error {
	p := filepath.Join(dir, filepath.FromSlash(d.File))
	src, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("%s: %w", d.ID, err)
	}
	mut, err := Apply(src, d)
	if err != nil {
		return err
	}
	info, err := os.Stat(p)
	if err != nil {
		return err
	}
	return os.WriteFile(p, mut, info.Mode().Perm())
}

// CheckAnchors reads every defect's file under root and returns one error
// listing each defect whose anchor is not found exactly once (nil if none).
func CheckAnchors(root string, ds []Defect) error {
	var bad []string
	for _, d := range ds {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d.File)))
		if err == nil {
			_, err = Apply(src, d)
		}
		if err != nil {
			bad = append(bad, err.Error())
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%d catalogue entries do not apply:\n  %s", len(bad), strings.Join(bad, "\n  "))
	}
	return nil
}
