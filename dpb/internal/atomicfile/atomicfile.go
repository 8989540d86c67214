// Package atomicfile writes files so that no reader ever sees a partial file
// at the final path: the content goes to a temporary file in the same
// directory, which is synced and renamed over the final path, and the
// directory is synced so the rename survives a crash. A write that fails (or a
// process killed while writing) leaves the previous file intact; at worst a
// hidden temporary file ".NAME.tmp-*" stays behind.
//
// Rename is atomic within one filesystem, including NFS and Lustre for a
// single client, so concurrent writers of the same path on a shared
// filesystem leave one complete version of it (the last rename wins).
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// TempPrefix starts the name of every temporary file (after a dot and the
// final file's name): readers of a directory skip names that contain it.
const TempPrefix = ".tmp-"

// WriteFile creates or replaces path with what write writes, atomically, with
// permissions perm. The error of write, of the sync, of the rename or of the
// directory sync is returned and the final path is then untouched.
func WriteFile(path string, perm os.FileMode, write func(w io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+TempPrefix+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err = write(bw); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	if err = SyncDir(dir); err != nil {
		return err
	}
	recorded(path)
	return nil
}

// recorders holds, per directory being recorded (see [Record]), the paths
// written there.
var (
	recMu     sync.Mutex
	recorders = map[string][]string{}
)

// Record starts recording the files written by WriteFile into dir (not
// its subdirectories), replacing any earlier recording of dir, until stop is
// called; [Recorded] returns them. The CLI records each figure's output
// directory, so that the figure's JSON, written last, can list the files
// of its set with their SHA-256s.
func Record(dir string) (stop func()) {
	key := filepath.Clean(dir)
	recMu.Lock()
	recorders[key] = []string{}
	recMu.Unlock()
	return func() {
		recMu.Lock()
		delete(recorders, key)
		recMu.Unlock()
	}
}

// Recorded returns the paths written into dir since Record(dir), each once,
// in the order first written; nil when dir is not recorded.
func Recorded(dir string) []string {
	recMu.Lock()
	defer recMu.Unlock()
	return append([]string(nil), recorders[filepath.Clean(dir)]...)
}

func recorded(path string) {
	key := filepath.Dir(filepath.Clean(path))
	recMu.Lock()
	defer recMu.Unlock()
	paths, ok := recorders[key]
	if !ok {
		return
	}
	for _, p := range paths {
		if p == path {
			return
		}
	}
	recorders[key] = append(paths, path)
}

// WriteBytes is [WriteFile] for content already in memory.
func WriteBytes(path string, data []byte, perm os.FileMode) error {
	return WriteFile(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// SyncDir flushes a directory's entries (a rename or a new file in it) to
// stable storage. Filesystems that cannot sync a directory (EINVAL) are
// accepted: their renames are as durable as they can make them.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !isUnsupported(err) {
		return err
	}
	return nil
}

func isUnsupported(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, errors.ErrUnsupported)
}

// IsTemp reports whether name (a base name) is a temporary file of WriteFile.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, TempPrefix)
}
