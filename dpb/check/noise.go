package check

import "github.com/dpbandits/dpbandits/dpb/noise"

// Noise is the noise every check's mechanisms run on: the seeded
// floating-point samplers ([noise.Simulated]), so that a verdict table
// reproduces from its seed. The checks test the mechanisms' laws and bounds,
// which the secure samplers share (their own tests are dpb/noise's); the JSON
// of dpb check records this mode. TestChecksRunSimulatedNoise holds the
// package to it. The one exception names no mode: [SecureSamplers] builds
// the secure samplers themselves through their constructors, with bits from
// its seeded stream, to measure their laws.
const Noise = noise.Simulated
