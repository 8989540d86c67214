package harness

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// openRegular opens path for reading if it is a regular file (after
// symbolic links). Anything else in its place is an error naming it: a
// named pipe blocks open and read until a writer comes (a FIFO in place of
// a job file held -merge past SIGTERM), a device may never end, a
// directory is not a file. The file is checked before it is opened and
// again once open.
func openRegular(path string) (*os.File, error) {
	return openRegularWith(path, os.Stat, os.Open)
}

// openRegularWith is openRegular with the stat and open of a file system
// (the operating system's, or an [os.Root]'s).
func openRegularWith(path string, stat func(string) (fs.FileInfo, error), open func(string) (*os.File, error)) (*os.File, error) {
	fi, err := stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(path, fi.Mode())
	}
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = notRegular(path, fi.Mode())
		}
		return nil, err
	}
	return f, nil
}

// readRegular reads the regular file at path (see openRegular), at most
// limit bytes: a longer file is an error.
func readRegular(path string, limit int64) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	return readAllLimit(f, path, limit)
}

// readAllLimit reads f whole and closes it; more than limit bytes is an
// error naming name.
func readAllLimit(f *os.File, name string, limit int64) ([]byte, error) {
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("harness: %s: more than %d bytes", name, limit)
	}
	return b, nil
}

// maxSmallFile bounds the files dpb reads whole besides job files
// (key.json, a figure's JSON and the files of its set).
const maxSmallFile = 1 << 30

// notRegular is the error for a path that holds something other than a
// regular file.
func notRegular(path string, m fs.FileMode) error {
	kind := "special file"
	switch {
	case m&fs.ModeNamedPipe != 0:
		kind = "named pipe (FIFO)"
	case m&fs.ModeDevice != 0:
		kind = "device"
	case m&fs.ModeSocket != 0:
		kind = "socket"
	case m.IsDir():
		kind = "directory"
	}
	return fmt.Errorf("harness: %s is a %s, not a regular file: remove it (reading it could block or never end)", path, kind)
}

// readRegularIn is readRegular for name inside root: the name cannot lead
// out of root's folder (an [os.Root] refuses "..", absolute names and
// symbolic links that escape it).
func readRegularIn(root *os.Root, name string, limit int64) ([]byte, error) {
	f, err := openRegularWith(name, root.Stat, root.Open)
	if err != nil {
		return nil, err
	}
	return readAllLimit(f, name, limit)
}
