//go:build amd64 && !purego

package simd

//go:generate go run -C _asm ./choose4 -out ../choose4_amd64.s

import (
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// lockArgs is score4SmallAVX512's argument block: each policy's M (kernel
// layout), z, score buffer and β, and its argmax lanes (best, bidx).
type lockArgs struct {
	mt, zp, sc [4]*float64
	beta       [4]float64
	best       [4][8]float64
	bidx       [4][8]int64
	res        [4]int64
	resv       [4]float64
}

// score4SmallAVX512 scores the n actions of x, then the npad of pad (in
// groups of eight, 8d floats each) as ScoreBlocksGo does, then the ntail of
// tail as QuadOne does, for np ≤ 4 policies of dimension d ≤ LockMaxDim,
// and finds each policy's argmax over them (choose4_amd64.s).
//
//go:noescape
func score4SmallAVX512(x *float64, n int, pad *float64, npad, d, dp, np int, tab *normTables, a *lockArgs, tail *float64, ntail int)

// LockAVX512 selects score4SmallAVX512 for ChooseLockstep (tests switch it).
var LockAVX512 = HasAVX2FMA() && HasAVX512() && HasBMI12()

// LockPolicy is one policy's part of a lockstep choice: its dimension d and
// stride dp, the inverse factor M (kernel layout, dp·dp floats), z (dp
// floats), its score buffer and β.
type LockPolicy struct {
	D, Dp          int
	Mt, Zp, Scores []float64
	Beta           float64
}

// ChooseLockstep sets arms[i] to the action policy ps[i] would choose among
// the k actions x (k·d floats), and ps[i].scores[:k] to its scores, for
// policies of one dimension d ≤ LockMaxDim, prepared, with scores of length
// at least 4⌊k/4⌋ + 8; and reports whether it did: only with the AVX-512
// scoring kernel in use (so that SetKernel("go") or "avx2" times those
// kernels here too). All of it is one call of score4SmallAVX512: the blocks
// of four actions in groups of eight read in place, a last group of four
// copied into pad (16d floats) first, so that no load reaches past the
// actions, and the k mod 4 last actions, in QuadOne's order as chooseBlocked
// Scores them, copied into pad[8d:].
func ChooseLockstep(ps []LockPolicy, x []float64, k, d int, pad []float64, arms []int) bool {
	n := 4 * (k / 4)
	if !LockAVX512 || KernelID(KernelInUse.Load()) != kernelAVX512 || len(ps) > 4 || n == 0 {
		return false
	}
	dp := ps[0].Dp
	if d > LockMaxDim || len(x) < k*d || len(pad) < 16*d || len(arms) != len(ps) {
		panic(param.BadDim)
	}
	var a lockArgs
	for i, p := range ps {
		if p.D != d || len(p.Scores) < n+8 || len(p.Mt) < dp*dp || len(p.Zp) < dp {
			panic(param.BadDim)
		}
		a.mt[i], a.zp[i], a.sc[i], a.beta[i] = &p.Mt[0], &p.Zp[0], &p.Scores[0], p.Beta
	}
	n8 := n &^ 7
	npad, ntail := n-n8, k-n
	copy(pad[:npad*d], x[n8*d:n*d])
	clear(pad[npad*d : 8*d])
	copy(pad[8*d:8*d+ntail*d], x[n*d:k*d])
	clear(pad[8*d+ntail*d : 16*d])
	score4SmallAVX512(&x[0], n8, &pad[0], npad, d, dp, len(ps), &normTab[d], &a, &pad[8*d], ntail)
	for i := range ps {
		arms[i] = int(a.res[i])
	}
	return true
}
