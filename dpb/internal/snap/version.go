package snap

// Version is the module's semantic version (https://semver.org), exported
// as dpb.Version: the one CITATION.cff gives, printed by "dpb version" and
// recorded in every figure, check and audit JSON beside the commit the
// binary was built from. Below 1.0.0 a minor version may change the API.
const Version = "0.1.0"

// StreamVersion is the one version of every random stream and every
// result-changing computation in this module. Any change that alters a
// committed result for the same seed and flags — a generator, a sampler, the
// order of a floating-point sum, a default — must bump it. The job store keys
// its results by it (results of two versions never mix) and every figure's
// metadata records it. It is deliberately not the git revision, which is often
// unavailable (an installed binary, a tarball) and changes for edits that do
// not change results.
//
// History:
//
//	1: the streams of the first seven releases (ChaCha8 per (seed, id) with
//	   the "dpb/stream/v1" key, wyrand + 256-layer ziggurat for environments).
//	2: the Wishart node noise (Bartlett normals and the Marsaglia–Tsang
//	   gamma draws of its diagonal) from wyrand + ziggurat seeded from the
//	   noise's stream, instead of ChaCha8 NormFloat64/Float64: every result of
//	   the Wishart variants changed. In the same version, the counter-calibrated
//	   Gaussian variants (GaussianExact, Honaker, Smooth, Sqrt, BLT) split
//	   Proposition 4's per-round failure budget α/(2n) between the Υ and the γ
//	   events (ln(4n/α) where ln(2n/α) stood), so their results changed too;
//	   the paper's variants other than Wishart are unchanged.
const StreamVersion = 2
