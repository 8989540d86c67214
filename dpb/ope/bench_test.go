package ope

import (
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
)

// BenchmarkPropensityReplay: one pass of a learning policy over a 10,000-event
// non-uniform log with the doubly robust value; the per-event loop allocates
// nothing (the allocations are the Round and the model's buffer, once).
func BenchmarkPropensityReplay(b *testing.B) {
	l := testutil.NewSynthLogLogged(10000, synthMu, synthLogging, bandit.Stream(1, 0))
	model := &ArmMeanModel{Means: []float64{0.3, 0.3, 0.3, 0.3}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PropensityReplay(&ctxGreedy{}, l, PropensityReplayConfig{Model: model, Rand: bandit.Stream(1, 1)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEstimateAll: IPS, SNIPS, DM and DR with asymptotic intervals on
// 10,000 events (O(n) buffers of the per-event terms).
func BenchmarkEstimateAll(b *testing.B) {
	l := testutil.NewSynthLogLogged(10000, synthMu, synthLogging, bandit.Stream(1, 0))
	model := &ArmMeanModel{Means: []float64{0.3, 0.3, 0.3, 0.3}}
	pi := stochTarget{deterministic([]int{2, 0, 1})}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EstimateAll(l, pi, model, Estimators, EstimateConfig{}); err != nil {
			b.Fatal(err)
		}
	}
}
