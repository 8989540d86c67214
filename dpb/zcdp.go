package dpb

import "math"

// ZCDPToDP returns the ε at δ that ρ-zCDP implies by Bun & Steinke (2016,
// Prop. 1.3): ε = ρ + 2√(ρ ln(1/δ)).
func ZCDPToDP(rho, delta float64) float64 { return rho + 2*math.Sqrt(rho*math.Log(1/delta)) }
