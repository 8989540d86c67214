package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// progressOut receives the progress lines of check and audit (stderr; the
// tests replace it).
var progressOut io.Writer = os.Stderr

// progressEvery is how often a stage bar redraws (the tests shorten it).
var progressEvery = time.Second

// stageBar shows a command's progress through its stages (the audits of dpb
// audit, the papers of dpb check) on one line, redrawn every second so that
// the clock moves during a long stage:
//
//	[##########          ] 3/9 audits, 00:42 elapsed, ~01:24 left: NAME · DETAIL
//
// DETAIL is the latest job-list bar written to the stageBar as an io.Writer
// (harness.Plan.Progress), so the line also moves within a stage. A nil
// *stageBar draws nothing.
type stageBar struct {
	w     io.Writer
	unit  string
	total int
	start time.Time
	tick  *time.Ticker
	quit  chan struct{}
	wg    sync.WaitGroup

	mu     sync.Mutex
	done   int
	name   string
	detail string
}

// newStageBar starts a bar of total stages on w, redrawn every interval;
// nil if w is nil.
func newStageBar(w io.Writer, unit string, total int, every time.Duration) *stageBar {
	if w == nil {
		return nil
	}
	b := &stageBar{w: w, unit: unit, total: total, start: time.Now(), tick: time.NewTicker(every), quit: make(chan struct{})}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		for {
			select {
			case <-b.quit:
				return
			case <-b.tick.C:
				b.mu.Lock()
				b.draw()
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// begin marks stage i (0-based, i stages done) as running under name.
func (b *stageBar) begin(i int, name string) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done, b.name, b.detail = i, name, ""
	b.draw()
}

// end stops the clock, draws the bar with done stages and ends its line.
func (b *stageBar) end(done int) {
	if b == nil {
		return
	}
	close(b.quit)
	b.tick.Stop()
	b.wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done, b.name, b.detail = done, "", ""
	b.draw()
	fmt.Fprintln(b.w)
}

// clear erases the bar's line, for output written to the same terminal
// (the next redraw starts below that output).
func (b *stageBar) clear() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	fmt.Fprint(b.w, "\r\x1b[K")
}

// Write keeps the latest line of a job-list bar (the text after its last
// carriage return) as the current stage's detail.
func (b *stageBar) Write(p []byte) (int, error) {
	s := string(p)
	if i := strings.LastIndexByte(s, '\r'); i >= 0 {
		s = s[i+1:]
	}
	if s = strings.TrimSpace(s); s != "" {
		b.mu.Lock()
		b.detail = s
		b.mu.Unlock()
	}
	return len(p), nil
}

func (b *stageBar) draw() {
	const width = 20
	fill := width * b.done / max(b.total, 1)
	el := time.Since(b.start)
	left := "?"
	if b.done > 0 {
		left = (time.Duration(float64(el) * float64(b.total-b.done) / float64(b.done))).Round(time.Second).String()
	}
	line := fmt.Sprintf("[%s%s] %d/%d %s, %s elapsed, ~%s left", strings.Repeat("#", fill), strings.Repeat(" ", width-fill),
		b.done, b.total, b.unit, el.Round(time.Second), left)
	if b.name != "" {
		line += ": " + b.name
	}
	if b.detail != "" {
		line += " · " + b.detail
	}
	// \r returns to the line's start; \x1b[K clears what a longer line left.
	fmt.Fprintf(b.w, "\r%s\x1b[K", line)
}
