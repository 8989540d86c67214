package bandit

import (
	"encoding/binary"
	"math/rand/v2"
)

// Stream returns the random stream number id of the experiment seeded by
// seed: a ChaCha8 generator keyed by (seed, id, "dpb/stream/v1"). Distinct
// (seed, id) pairs give streams that are independent for every practical
// purpose (ChaCha8 is a keyed pseudorandom function), so each repetition and
// each algorithm can own a stream and results do not depend on scheduling.
//
// A *rand.Rand is single-goroutine; give each goroutine its own stream.
func Stream(seed, id uint64) *rand.Rand {
	return rand.New(rand.NewChaCha8(streamKey(seed, id)))
}

func streamKey(seed, id uint64) [32]byte {
	var k [32]byte
	binary.LittleEndian.PutUint64(k[0:], seed)
	binary.LittleEndian.PutUint64(k[8:], id)
	copy(k[16:], "dpb/stream/v1")
	return k
}

// StreamID returns the conventional stream id for repetition rep and role
// role: role 0 is the environment, role 1+p is algorithm p. Common random
// numbers across algorithms follow from every algorithm of a repetition
// facing an environment built from the same stream.
func StreamID(rep, role int) uint64 {
	return uint64(rep)<<16 | uint64(role)
}

// StreamSource returns the ChaCha8 source of [Stream](seed, id):
// rand.New(StreamSource(seed, id)) draws exactly what Stream(seed, id) draws.
// The source, unlike a *rand.Rand, marshals (MarshalBinary/UnmarshalBinary),
// which is what the own-stream policies ([anytime.SS18], [mt14.DPUCB]) need
// to save and restore their random state.
func StreamSource(seed, id uint64) *rand.ChaCha8 {
	return rand.NewChaCha8(streamKey(seed, id))
}
