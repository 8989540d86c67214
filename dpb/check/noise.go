package check

import "github.com/dpbandits/dpbandits/dpb/noise"

// Noise is the noise the checks' mechanisms run on: the seeded
// floating-point samplers ([noise.Simulated]), so that a verdict table
// reproduces from its seed. The checks test the mechanisms' laws and bounds,
// which the secure samplers share (their own tests are dpb/noise's); the JSON
// of dpb check records this mode and [SecureNoise]. TestChecksRunSimulatedNoise
// holds the package to the two. [SecureSamplers] builds the secure samplers
// themselves through their constructors, with bits from its seeded stream,
// to measure their laws.
const Noise = noise.Simulated

// SecureNoise is the mode of the rows that test a mechanism on its secure
// sampler, named …-secure…: the exact discrete laws fed the runs' seeded
// streams ([noise.SecureSeeded]), so that those rows reproduce from the seed
// too. The noise levers' discrete calibration
// ([LeverSecureSensitivity]) and GaussianLeversNorms's Proposition 4 rows
// ([LinUCBConfig].SecureNoise) run on it.
const SecureNoise = noise.SecureSeeded
