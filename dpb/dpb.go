package dpb

import (
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/anytime"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// The shared types of every policy (package bandit).
type (
	// Round is the decision set shown at one time step.
	Round = bandit.Round
	// Policy chooses an action in a round and learns from its reward.
	Policy = bandit.Policy
	// Privacy is the guarantee a policy reports, with its accounting.
	Privacy = bandit.Privacy
	// Checked is a policy a service can run: ChooseErr and UpdateErr
	// return refusals (NaN or infinite features, a record outside the
	// bound) as errors, UpdateErr skips a bad record and keeps learning
	// (Skipped counts them), Err is the sticky error of Update.
	Checked = bandit.Checked
)

// Locked is a policy behind a mutex, safe for concurrent use (the policies
// themselves are not, not even two concurrent Chooses).
type Locked[P Policy] = bandit.Locked[P]

// NewLocked returns p behind a mutex (package bandit).
func NewLocked[P Policy](p P) *Locked[P] { return bandit.NewLocked(p) }

// SS18's private LinUCB (package ss18).
type (
	// LinUCB is SS18 Algorithm 1.
	LinUCB = ss18.LinUCB
	// SS18Config names the variant (Alg), the setting, the tree's release
	// mode and the noise (unset: secure noise from crypto/rand).
	SS18Config = ss18.PolicyConfig
	// SS18Setting holds d, the horizon n, ε, δ and the data bound L̃².
	SS18Setting = ss18.Setting
	// SS18Alg names a variant: the paper's Gaussian and Wishart trees,
	// the exactly calibrated ones, or the non-private baseline.
	SS18Alg = ss18.Alg
)

// MT14's DP-UCB (package mt14).
type (
	// DPUCB is MT14 Algorithm 1.
	DPUCB = mt14.DPUCB
	// DPUCBConfig holds the arms, the horizon, ε and the noise (unset:
	// secure noise from crypto/rand).
	DPUCBConfig = mt14.DPUCBConfig
)

// Policies for a stream of unknown length (package anytime).
type (
	// AnytimeSS18 runs SS18's LinUCB in doubling epochs at one (ε, δ).
	AnytimeSS18 = anytime.SS18
	// AnytimeDPUCB runs MT14's DP-UCB in doubling epochs at one ε.
	AnytimeDPUCB = anytime.DPUCB
)

// A few SS18 variants by name (every variant: package ss18).
const (
	SS18NonPrivate       = ss18.NonPrivate       // ridge LinUCB, no privacy
	SS18Gaussian         = ss18.Gaussian         // SS18 §4.2 as printed
	SS18Wishart          = ss18.Wishart          // SS18 §4.1 as printed
	SS18GaussianBLTRound = ss18.GaussianBLTRound // the least noise at the same (ε, δ)
)

// NoiseMode is a configuration's Noise (package noise): its zero value,
// NoiseDefault, is secure noise from crypto/rand.
type NoiseMode = noise.Mode

// The tree's release mode (package counter) and the noise's mode (package
// noise). An unset Noise (NoiseDefault) resolves to NoiseSecure, exact
// discrete noise on a grid from crypto/rand; a mechanism without a secure
// sampler (the Wishart tree; DP-UCB's Laplace noise on the square-root and
// BLT counters, whose secure measurements are discrete Gaussian only)
// refuses it with an error that says to name NoiseSimulated, the seeded
// floating-point noise of the experiments, whose guarantee is not
// release-grade.
const (
	Plain          = counter.Plain
	Padded         = counter.Padded
	NoiseDefault   = noise.Default
	NoiseSimulated = noise.Simulated
	NoiseSecure    = noise.Secure
)

// StreamVersion is the version of the random streams and formats: results
// of one seed are bit-identical across machines within one version. It is
// written out here; a test checks that it is the version the job store,
// the figures and the snapshots record.
const StreamVersion = 2

// Stream returns the random stream id of seed (package bandit).
func Stream(seed, id uint64) *rand.Rand { return bandit.Stream(seed, id) }

// StreamSource returns the ChaCha8 source Stream(seed, id) draws from, for
// the policies that own and save their source.
func StreamSource(seed, id uint64) *rand.ChaCha8 { return bandit.StreamSource(seed, id) }

// NewSS18Policy returns the configured variant of SS18 Algorithm 1.
func NewSS18Policy(cfg SS18Config, rng *rand.Rand) (*LinUCB, error) { return ss18.NewPolicy(cfg, rng) }

// NewDPUCB returns MT14's DP-UCB.
func NewDPUCB(cfg DPUCBConfig, rng *rand.Rand) (*DPUCB, error) { return mt14.NewDPUCB(cfg, rng) }

// NewAnytimeSS18 returns SS18's LinUCB for a stream of unknown length,
// starting from the guess cfg.Setting.N and doubling. It keys a source of
// its own from rng (anytime.NewSS18), which its snapshots save.
func NewAnytimeSS18(cfg SS18Config, rng *rand.Rand) (*AnytimeSS18, error) {
	return anytime.NewSS18(cfg, rng)
}

// NewAnytimeDPUCB returns MT14's DP-UCB for a stream of unknown length,
// starting from the guess cfg.Horizon and doubling (a source of its own
// keyed from rng, as [NewAnytimeSS18]).
func NewAnytimeDPUCB(cfg DPUCBConfig, rng *rand.Rand) (*AnytimeDPUCB, error) {
	return anytime.NewDPUCB(cfg, rng)
}
