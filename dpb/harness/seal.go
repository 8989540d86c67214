package harness

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
)

// ContentHashKey is the top-level field of every result JSON (a figure set's
// JSON, a check JSON, an audit JSON) that records the SHA-256 of the JSON's
// canonical content ([ContentHash]). A value edited after the JSON was
// written no longer matches it ([VerifyContentHash]).
const ContentHashKey = "content_sha256"

// ContentHash returns the hex SHA-256 of the canonical content of raw, a
// JSON object, leaving out its top-level content_sha256 field: the object
// re-encoded with every object's keys in sorted order, no insignificant
// white space, numbers as written (their text: 1 and 1.0 differ), strings as
// encoding/json writes them. So the hash does not depend on indentation or
// on the order of keys, and changes with any value. An object with a key
// twice, or anything but one JSON object, is an error.
func ContentHash(raw []byte) (string, error) {
	m, err := canonicalObject(raw)
	if err != nil {
		return "", err
	}
	delete(m, ContentHashKey)
	b, err := json.Marshal(m) // map keys are written sorted
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// canonicalObject decodes raw, which must be exactly one JSON object with
// no key twice at any depth, keeping numbers as json.Number.
func canonicalObject(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := canonicalValue(dec)
	if err != nil {
		return nil, fmt.Errorf("harness: not a JSON object: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("harness: data after the JSON object")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("harness: the JSON is not an object")
	}
	return m, nil
}

func canonicalValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool or nil
	}
	switch d {
	case '{':
		m := map[string]any{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k := kt.(string)
			if _, dup := m[k]; dup {
				return nil, fmt.Errorf("key %q appears twice in one object", k)
			}
			if m[k], err = canonicalValue(dec); err != nil {
				return nil, err
			}
		}
		_, err := dec.Token() // '}'
		return m, err
	case '[':
		s := []any{}
		for dec.More() {
			v, err := canonicalValue(dec)
			if err != nil {
				return nil, err
			}
			s = append(s, v)
		}
		_, err := dec.Token() // ']'
		return s, err
	}
	return nil, fmt.Errorf("unexpected %v", d)
}

// hashField matches the content_sha256 line SealJSON writes.
var hashField = regexp.MustCompile(`(?m)^  "` + ContentHashKey + `": "[0-9a-f]*"`)

// SealJSON returns raw, an indented JSON object (as [WriteJSON] writes it),
// with its content_sha256 field set to [ContentHash] of raw: replaced where
// the field is, else appended as the object's last field. Nothing else in
// raw changes, byte for byte.
func SealJSON(raw []byte) ([]byte, error) {
	h, err := ContentHash(raw)
	if err != nil {
		return nil, err
	}
	field := `  "` + ContentHashKey + `": "` + h + `"`
	var out []byte
	switch locs := hashField.FindAllIndex(raw, -1); len(locs) {
	case 0:
		body := bytes.TrimRight(raw, " \t\r\n")
		if len(body) == 0 || body[len(body)-1] != '}' {
			return nil, errors.New("harness: the JSON does not end with its object's }")
		}
		body = bytes.TrimRight(body[:len(body)-1], " \t\r\n")
		sep := ",\n"
		if body[len(body)-1] == '{' {
			sep = "\n"
		}
		out = append(append(append([]byte(nil), body...), sep...), field+"\n}\n"...)
	case 1:
		out = append(append(append([]byte(nil), raw[:locs[0][0]]...), field...), raw[locs[0][1]:]...)
	default:
		return nil, fmt.Errorf("harness: %s appears %d times", ContentHashKey, len(locs))
	}
	if err := VerifyContentHash(out); err != nil { // the field was not top-level, or raw was not indented
		return nil, fmt.Errorf("harness: cannot seal this JSON (not written by WriteJSON?): %w", err)
	}
	return out, nil
}

// VerifyContentHash checks that the JSON object raw records its own content
// hash ([ContentHash]) in content_sha256: an error says which value it
// records and which the content has (a value edited since it was written),
// or that it records none (a JSON written before result JSONs carried one).
func VerifyContentHash(raw []byte) error {
	m, err := canonicalObject(raw)
	if err != nil {
		return err
	}
	rec, ok := m[ContentHashKey].(string)
	if !ok {
		return fmt.Errorf("harness: records no %s (written before result JSONs were sealed, or the field was removed)", ContentHashKey)
	}
	h, err := ContentHash(raw)
	if err != nil {
		return err
	}
	if h != rec {
		return fmt.Errorf("harness: the content's SHA-256 is %s, the JSON records %s (a value was edited after the JSON was written)", h, rec)
	}
	return nil
}
