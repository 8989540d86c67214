// Package mutate measures the measuring instrument: it plants one-line
// defects from a catalogue ([Parse], catalogue.txt) in scratch copies of the
// repository, builds each, and reports which of the project's instruments
// notices: a verdict of `dpb check all -short` that passed on the unmutated
// tree and fails on the mutant, else an audit row of `dpb audit -short` that
// turns into a violation (not run on a defect that only adds noise, which no
// audit can show), and for algorithmic defects a test of the mutated
// package that fails (tests the catalogue marks as pins of the mutated
// constant do not count). The mutation score is caught / (total − equivalent),
// for the privacy and the algorithmic defects separately ([Score]).
//
// The real tree is never written: [Run] copies the tracked files into a
// directory made by os.MkdirTemp outside it, replaces the anchor there (an
// anchor that is not found exactly once in its file fails the run before
// anything is built) and removes the copy afterwards. The Go build cache is
// the user's, shared by every copy.
//
// The command is dpb/internal/mutate/cmd/mutate.
package mutate
