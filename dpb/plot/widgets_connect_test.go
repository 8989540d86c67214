package plot

import (
	"strings"
	"testing"
	"time"
)

// TestWaitRoundTrip: the round trip of this attempt counts; a late one of
// an earlier attempt (sent over a connection the kernel has since
// replaced) does not, nor does silence.
func TestWaitRoundTrip(t *testing.T) {
	c := make(chan int, 3)
	c <- 1
	c <- 2
	if !waitRoundTrip(c, 2, 2*time.Second) {
		t.Error("attempt 2's value after attempt 1's: not accepted")
	}
	c <- 1
	if waitRoundTrip(c, 2, 50*time.Millisecond) {
		t.Error("only attempt 1's value arrived: accepted for attempt 2")
	}
	if waitRoundTrip(c, 1, 50*time.Millisecond) {
		t.Error("nothing arrived: accepted")
	}
}

// TestConnectWidgetsArgs: a wait at or under the kernel's one-second
// heartbeat threshold (a retry would not make GoNB reinstall the
// connection), no attempt, or no notebook are errors.
func TestConnectWidgetsArgs(t *testing.T) {
	for _, c := range []struct {
		wait     time.Duration
		attempts int
		want     string
	}{
		{time.Second, 5, "over a second"},
		{-time.Second, 5, "over a second"},
		{10 * time.Second, 0, "at least one attempt"},
		{10 * time.Second, 5, "not running in a notebook"},
	} {
		if _, err := ConnectWidgets(c.wait, c.attempts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ConnectWidgets(%v, %d): %v, want an error with %q", c.wait, c.attempts, err, c.want)
		}
	}
}
