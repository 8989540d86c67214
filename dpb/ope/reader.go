package ope

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// Refiller is a [Log] that refills a decision set: Refill fills r with
// event i's decision set when r already holds event prev's, as this log's
// Event or Refill wrote it, or, for prev = −1, when r.Actions is all zeros
// (a new round), and returns what Event returns. A log whose
// decision sets are mostly fixed zeros writes only what changes: in the
// disjoint layout of data.CSVLog (arm a's vector is the context in block a,
// zeros elsewhere) an Event writes K·K·d values and a Refill K·d, which on
// a wide log (K = 1000, d = 33: 33 million values an event) is the
// difference between minutes and milliseconds.
//
// The estimators, models and replays of this package read every log through
// Refill when it has it: they own the round they fill and hand it to
// targets, models and policies only to read, so a [Target] or a replayed
// policy must not write to r.Actions.
type Refiller interface {
	Log
	Refill(r *bandit.Round, i, prev int) (arm int, reward, prob float64)
}

// reader reads a log's events into one round, refilling it when the log is
// a [Refiller].
type reader struct {
	log  Log
	rf   Refiller
	prev int // the event the round holds, −1: none yet (all zeros)
}

// newReader returns a reader of log into a round made by newRound (all
// zeros) and filled by nothing else.
func newReader(log Log) *reader {
	rf, _ := log.(Refiller)
	return &reader{log: log, rf: rf, prev: -1}
}

// fill fills r with event i and returns its logged arm, reward and
// propensity, unvalidated.
func (rd *reader) fill(r *bandit.Round, i int) (arm int, reward, prob float64) {
	if rd.rf != nil {
		arm, reward, prob = rd.rf.Refill(r, i, rd.prev)
	} else {
		arm, reward, prob = rd.log.Event(r, i)
	}
	rd.prev = i
	return arm, reward, prob
}

// event fills r with event i and validates it: the arm in range, a finite
// reward, a propensity in (0, 1].
func (rd *reader) event(r *bandit.Round, i int) (arm int, reward, p float64, err error) {
	arm, reward, p = rd.fill(r, i)
	if arm < 0 || arm >= r.K {
		return 0, 0, 0, fmt.Errorf("ope: event %d: logged arm %d outside [0, %d)", i, arm, r.K)
	}
	if err := param.CheckFinite("reward", reward); err != nil {
		return 0, 0, 0, fmt.Errorf("ope: event %d: %w", i, err)
	}
	if !(p > 0 && p <= 1) {
		return 0, 0, 0, fmt.Errorf("ope: event %d: logged propensity is %v, want (0, 1]", i, p)
	}
	return arm, reward, p, nil
}
