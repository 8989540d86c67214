package atomicfile_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/dpbandits/dpbandits/dpb/internal/atomicfile"
)

var errInterrupted = errors.New("the run was interrupted")

// Replacing a results file atomically: a reader sees the old content or the
// new, never a partial file, and a write that fails leaves the old file (and
// no temporary file) behind.
func ExampleWriteFile() {
	dir, err := os.MkdirTemp("", "atomicfile-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "result.json")
	if err := atomicfile.WriteBytes(path, []byte(`{"regret": 1}`), 0o644); err != nil {
		panic(err)
	}
	err = atomicfile.WriteFile(path, 0o644, func(w io.Writer) error {
		if _, err := io.WriteString(w, `{"regret": 2`); err != nil {
			return err
		}
		return errInterrupted
	})
	fmt.Println("the write's error returned:", errors.Is(err, errInterrupted))
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	fmt.Println("content:", string(b))
	entries, err := os.ReadDir(dir)
	if err != nil {
		panic(err)
	}
	fmt.Println("files in the directory:", len(entries))
	// Output:
	// the write's error returned: true
	// content: {"regret": 1}
	// files in the directory: 1
}
