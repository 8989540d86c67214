package main

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"strings"
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

// TestIsGoNBLine: the console lines GoNB's page script and widgets write
// when the connection fails are kept (the widget failure quotes them);
// the notebook's own chatter is not.
func TestIsGoNBLine(t *testing.T) {
	for _, l := range []string{
		"error: gonb_comm: failed to connect to kernel, communication (and widgets) will not work: comm_open_ack not received in time",
		"error: Communication to GoNB not setup, slider will not synchronize with program.",
		"error: SyncedVariable(/select/x) cannot connect to GoNB, globalthis.gonb_comm not defined!? Widgets may not work correctly.",
		"warning: dpb: ConnectWidgets: no round trip in 10s, attempt 2: GoNB reinstalls gonb_comm",
	} {
		if !isGoNBLine(l) {
			t.Errorf("dropped: %q", l)
		}
	}
	if isGoNBLine("log: Kernel started: 4ba620d8") {
		t.Error("kept a line that is not about GoNB")
	}
}

// TestAckJS: the page script of -lost-ack and -time-ack formats cleanly,
// drops only when asked, and leaves the mark the -lost-ack check looks for.
func TestAckJS(t *testing.T) {
	for _, drop := range []bool{false, true} {
		js := fmt.Sprintf(ackJS, drop)
		if strings.Contains(js, "%!") || !strings.Contains(js, fmt.Sprintf("const drop = %t;", drop)) || !strings.Contains(js, lostAckMark) {
			t.Errorf("drop = %v: the script is malformed:\n%s", drop, js)
		}
	}
}
