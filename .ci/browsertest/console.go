package main

// The page's console, as far as GoNB's front-end connection is concerned:
// GoNB's gonb_comm script and its widgets report a failed connection only
// there ("gonb_comm: failed to connect to kernel …: comm_open_ack not
// received in time", "Communication to GoNB not setup, slider will not
// synchronize with program."), so a widget that never appears is reported
// with what the page said.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// consoleLog keeps the console messages and uncaught errors of one tab that
// mention GoNB's connection, each with its time since the tab opened.
type consoleLog struct {
	mu    sync.Mutex
	t0    time.Time
	lines []string
}

// watchConsole starts recording the console of the tab of ctx (call it
// before the tab's first action; it opens the tab). fn runs in the tab's
// reading loop, so it only appends under a lock.
func watchConsole(ctx context.Context) (*consoleLog, error) {
	c := &consoleLog{t0: time.Now()}
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, remoteText(a))
			}
			c.add(string(ev.Type) + ": " + strings.Join(parts, " "))
		case *runtime.EventExceptionThrown:
			if d := ev.ExceptionDetails; d != nil {
				text := d.Text
				if d.Exception != nil {
					text += " " + remoteText(d.Exception)
				}
				c.add("uncaught: " + text)
			}
		}
	})
	return c, err
}

// remoteText is a console argument as text.
func remoteText(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	if len(o.Value) > 0 {
		var s string
		if json.Unmarshal(o.Value, &s) == nil {
			return s
		}
		return string(o.Value)
	}
	return o.Description
}

// isGoNBLine says whether a console line is about GoNB's connection or widgets.
func isGoNBLine(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "gonb") || strings.Contains(l, "syncedvariable") || strings.Contains(l, "comm_open")
}

func (c *consoleLog) add(s string) {
	if !isGoNBLine(s) {
		return
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lines = append(c.lines, fmt.Sprintf("%.1fs %s", time.Since(c.t0).Seconds(), s))
}

// Lines returns the recorded lines so far.
func (c *consoleLog) Lines() []string {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.lines...)
}
