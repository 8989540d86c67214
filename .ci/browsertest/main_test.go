package main

import (
	"bytes"
	"image"
	"image/png"
	"testing"
)

// TestPNGText: a tagged PNG still decodes, carries its text, and an untagged
// one (the control) carries none.
func TestPNGText(t *testing.T) {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	if pngText(b.Bytes(), readmeKey) != "" {
		t.Fatal("an untagged PNG has text")
	}
	tagged, err := pngWithText(b.Bytes(), readmeKey, "abc123")
	if err != nil {
		t.Fatal(err)
	}
	if got := pngText(tagged, readmeKey); got != "abc123" {
		t.Errorf("text = %q", got)
	}
	if _, err := png.Decode(bytes.NewReader(tagged)); err != nil {
		t.Errorf("the tagged PNG does not decode: %v", err)
	}
}
