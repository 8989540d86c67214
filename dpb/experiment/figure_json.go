package experiment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"

	"github.com/dpbandits/dpbandits/dpb/internal/atomicfile"
)

// provenanceKeys are the fields a committed figure JSON carries to name the
// commit that produced it (docs/integrity.md): written by a stamped build, or
// added by hand as a "committed-by" mark when the run was not repeated.
var provenanceKeys = []string{"code_version", "code_version_note", "run_code_version"}

// WriteFigureJSON writes v as indented JSON (as [WriteJSON]) to path,
// atomically, for writers that cannot stamp a commit (a notebook runs an
// unstamped build). When the file at path already holds the same content
// apart from its provenance fields (code_version, code_version_note,
// run_code_version), it is left as it is: a rerun that reproduces a
// committed result keeps that result's provenance. Any other content
// replaces the file, and with it the provenance, which the figures'
// provenance test then asks for again.
func WriteFigureJSON(path string, v any) error {
	var b bytes.Buffer
	if err := WriteJSON(&b, v); err != nil {
		return err
	}
	if old, err := os.ReadFile(path); err == nil && sameApartFromProvenance(old, b.Bytes()) {
		return nil
	}
	if err := atomicfile.WriteBytes(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("dpb: %s: %w", path, err)
	}
	return nil
}

// sameApartFromProvenance reports whether the JSON objects old and new are
// equal once old's provenance fields are removed (new has none of them).
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
	return reflect.DeepEqual(o, n)
}
