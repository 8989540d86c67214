package harness

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/internal/atomicfile"
)

// provenanceKeys are the fields a committed figure JSON carries to name the
// commit that produced it (docs/integrity.md): written by a stamped build, or
// added by hand as a "committed-by" mark when the run was not repeated.
var provenanceKeys = []string{"code_version", "code_version_note", "run_code_version"}

// WriteFigureJSON writes v as indented JSON (as [WriteJSON]) to path,
// atomically, sealed with its content hash ([SealJSON]), for writers that
// cannot stamp a commit (a notebook runs an unstamped build). When the file
// at path already holds the same content apart from its provenance fields
// (code_version, code_version_note, run_code_version) and its content hash,
// it is left as it is: a rerun that reproduces a
// committed result keeps that result's provenance. Any other content
// replaces the file, and with it the provenance, which the figures'
// provenance test then asks for again.
func WriteFigureJSON(path string, v any) error {
	var b bytes.Buffer
	if err := WriteJSON(&b, v); err != nil {
		return err
	}
	sealed, err := SealJSON(b.Bytes())
	if err != nil {
		return fmt.Errorf("harness: %s: %w", path, err)
	}
	if old, err := readRegular(path, maxSmallFile); err == nil && sameApartFromProvenance(old, sealed) {
		return nil
	}
	if err := atomicfile.WriteBytes(path, sealed, 0o644); err != nil {
		return fmt.Errorf("harness: %s: %w", path, err)
	}
	return nil
}

// sameApartFromProvenance reports whether the JSON objects old and new are
// equal once old's provenance fields are removed (new has none of them) and
// both lose their content hash.
func sameApartFromProvenance(old, new []byte) bool {
	var o, n map[string]any
	if json.Unmarshal(old, &o) != nil || json.Unmarshal(new, &n) != nil {
		return false
	}
	for _, k := range provenanceKeys {
		if _, ok := n[k]; ok {
			return false
		}
		delete(o, k)
	}
	delete(o, ContentHashKey)
	delete(n, ContentHashKey)
	return reflect.DeepEqual(o, n)
}

// Meta is the metadata written beside every result: enough to rerun it.
type Meta struct {
	Name    string `json:"name"`
	Seed    uint64 `json:"seed"`
	Reps    int    `json:"reps"`
	Horizon int    `json:"horizon,omitempty"`
	Config  any    `json:"config"`
	// Noise names the noise modes the figure's mechanisms sampled from, as
	// noise.Mode prints them ("simulated", "secure-seeded"), or
	// NoNoise for a figure that samples no privacy noise (non-private
	// policies, exact computations).
	Noise []string `json:"noise"`
	// Version is the semantic version of the code (dpb.Version) and Code
	// the commit the binary was built from ("+dirty" for a tree with
	// uncommitted changes, "unknown" for an unstamped build).
	Version string `json:"version"`
	Code    string `json:"code_version"`
	Go      string `json:"go_version"`
	// Stream is the stream version (dpb.StreamVersion) of the code that produced the figure: the
	// same seed, flags and stream version give the same numbers.
	Stream int `json:"stream_version"`
	// Files lists the other files of the figure's set (CSV, SVG, PNG, …,
	// in the JSON's directory) with the SHA-256 of each as written. The JSON
	// is written last, so a set whose files all match its JSON's list is
	// one run's; a run killed mid-set leaves files that do not match
	// ([VerifyFigureSet]).
	Files []FileSum `json:"files,omitempty"`
	// FilesNote is empty for a list the run wrote, or FilesRecordedAtCommit
	// for a list added to a JSON written before figure JSONs listed their
	// sets, from the files committed with it (the run was not repeated).
	FilesNote string `json:"files_note,omitempty"`
}

// FilesRecordedAtCommit is [Meta.FilesNote] of a file list recorded from
// the committed files of a set whose run predates the lists: it says that
// the set is the one committed, not that one run wrote it.
const FilesRecordedAtCommit = "recorded-at-commit"

// NoNoise is [Meta.Noise]'s entry for a figure that samples no privacy
// noise.
const NoNoise = "none"

// FileSum is a file's name (relative to its figure JSON's directory) and
// the hex SHA-256 of its content.
type FileSum struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// SumFiles returns the FileSum of each path, named relative to dir.
func SumFiles(dir string, paths []string) ([]FileSum, error) {
	var out []FileSum
	for _, p := range paths {
		b, err := readRegular(p, maxSmallFile)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		out = append(out, FileSum{Name: filepath.ToSlash(rel), SHA256: hex.EncodeToString(sum[:])})
	}
	return out, nil
}

// VerifyFigureSet checks the figure set described by the figure JSON at
// path: the JSON records its own content hash ([VerifyContentHash]), and
// every file it lists exists in the JSON's folder with the SHA-256 it
// records. A listed name must be a local path (no "..", not absolute) and
// is opened through an [os.Root] on the folder, so a symbolic link that
// leads out of it is refused too. It returns an error naming each file that
// differs or is missing (a run killed while writing the set, or a file
// edited since), an error for an edited JSON, and one when the JSON lists no
// files (written before figure JSONs listed their sets). A list marked
// [FilesRecordedAtCommit] is checked the same way.
func VerifyFigureSet(path string) error {
	raw, err := readRegular(path, maxSmallFile)
	if err != nil {
		return err
	}
	if err := VerifyContentHash(raw); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return VerifyFigureFiles(path, raw)
}

// VerifyFigureFiles is [VerifyFigureSet] without the content hash: raw is
// the content of the figure JSON at path, whose listed files it checks.
func VerifyFigureFiles(path string, raw []byte) error {
	var m struct {
		Files     []FileSum `json:"files"`
		FilesNote string    `json:"files_note"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(m.Files) == 0 {
		return fmt.Errorf("%s lists no files (written before figure JSONs listed their sets)", path)
	}
	if m.FilesNote != "" && m.FilesNote != FilesRecordedAtCommit {
		return fmt.Errorf("%s: unknown files_note %q (want %q or none)", path, m.FilesNote, FilesRecordedAtCommit)
	}
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer root.Close()
	var bad []string
	seen := map[string]bool{}
	for _, f := range m.Files {
		if err := checkListedName(f.Name); err != nil {
			bad = append(bad, err.Error())
			continue
		}
		if seen[f.Name] {
			bad = append(bad, fmt.Sprintf("%s: listed twice", f.Name))
			continue
		}
		seen[f.Name] = true
		b, err := readRegularIn(root, filepath.FromSlash(f.Name), maxSmallFile)
		if err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", f.Name, err))
			continue
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != f.SHA256 {
			bad = append(bad, fmt.Sprintf("%s: SHA-256 %x, the JSON records %s (from another run, or edited)", f.Name, sum, f.SHA256))
		}
	}
	if bad != nil {
		return fmt.Errorf("%s: the figure set is mixed: %s", path, strings.Join(bad, "; "))
	}
	return nil
}

// checkListedName refuses a file name of a figure set that could name a
// file outside the JSON's folder: an absolute path, a ".." element, a
// backslash (a Windows separator), or an empty name.
func checkListedName(name string) error {
	if name == "" || strings.ContainsRune(name, '\\') || !filepath.IsLocal(filepath.FromSlash(name)) || path.IsAbs(name) {
		return fmt.Errorf("%q: not a path inside the figure's folder (absolute, \"..\" or empty): refused", name)
	}
	return nil
}

// WriteJSON writes v as indented JSON.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
