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

// TestWidgetNeverAppeared: only the widget's "did not appear" failure is
// retried; a redraw failure (what the unwired control must show) is not.
func TestWidgetNeverAppeared(t *testing.T) {
	appear := "widget: the widget and its chart did not appear within 3m0s of Run All (GoNB's gonb_comm set up in the page: true; state {})"
	if got := widgetNeverAppeared([]string{"an error output", appear}); got != appear {
		t.Errorf("got %q, want the appear problem", got)
	}
	redraw := "widget: slider moved to 1 (ε = 0.2, tree): the chart was not redrawn within 15s (still draw 1: ε = 1, tree)"
	if got := widgetNeverAppeared([]string{redraw}); got != "" {
		t.Errorf("a redraw failure would be retried: %q", got)
	}
}
