package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"unicode"

	"github.com/dpbandits/dpbandits/dpb/harness"
)

// writeSnakeJSON writes v as indented JSON whose object keys are all
// snake_case (RhoMin → rho_min, NormCTR → norm_ctr; keys that are not
// identifiers, such as series names with spaces, are kept): the one key
// style of every JSON the command writes (bounds, bench, check, figure
// metadata). Numbers keep their exact text.
func writeSnakeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(snakeKeys(x))
}

// writeSealedJSON is writeSnakeJSON sealed with the content hash
// (harness.SealJSON): every result JSON the command writes (a figure's
// metadata, check and audit JSON) records the SHA-256 of its canonical
// content, which dpb verify checks.
func writeSealedJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	if err := writeSnakeJSON(&b, v); err != nil {
		return err
	}
	sealed, err := harness.SealJSON(b.Bytes())
	if err != nil {
		return err
	}
	_, err = w.Write(sealed)
	return err
}

func snakeKeys(x any) any {
	switch t := x.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, v := range t {
			out[snakeCase(k)] = snakeKeys(v)
		}
		return out
	case []any:
		for i := range t {
			t[i] = snakeKeys(t[i])
		}
		return t
	}
	return x
}

// snakeCase returns s in snake_case when s is an ASCII identifier, else s.
func snakeCase(s string) string {
	for _, r := range s {
		if !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')) {
			return s
		}
	}
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			prevLower := i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]))
			acronymEnd := i > 0 && unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if (prevLower || acronymEnd) && rs[i-1] != '_' {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
