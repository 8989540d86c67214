package data

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"testing"
)

// Local failures are not network failures: syscall.Errno satisfies
// net.Error (it has Timeout and Temporary), so a full disk or a -dir that
// is a file read as "a network failure" with the offline routes. (Network
// failures are still reported as such: TestFetchOfflineSummary,
// TestFetchTricklingServer.)
func TestIsNetworkErrorLocal(t *testing.T) {
	for _, err := range []error{
		&fs.PathError{Op: "write", Path: "/data/obd/men.csv", Err: syscall.ENOSPC},
		&fs.PathError{Op: "mkdir", Path: "/data/obd", Err: syscall.ENOTDIR},
		&os.LinkError{Op: "rename", Old: "a", New: "b", Err: syscall.EACCES},
		syscall.EACCES,
		errors.New("data: checksum mismatch"),
	} {
		if isNetworkError(err) {
			t.Errorf("isNetworkError(%v) = true for a local error", err)
		}
	}
}
