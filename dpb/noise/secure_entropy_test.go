package noise

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// The secure samplers fed from a seeded stream (SecureSeeded) repeat
// their draws for one seed and differ for another; fed the same bytes as a
// reader they give the same draws whatever hands them over (the sampler sees
// only bytes), and the library default stays crypto/rand.
func TestSecureSeededEntropy(t *testing.T) {
	draw := func(mode Mode, seed uint64) []float64 {
		nz, err := New(Config{Law: LaplaceLaw, Mode: mode, Dim: 3, Scale: 2.5, Sensitivity: 1}, rand.New(rand.NewChaCha8([32]byte{byte(seed)})))
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float64, 0, 300)
		v := make([]float64, 3)
		for range 100 {
			nz.Sample(v)
			out = append(out, v...)
		}
		return out
	}
	a, b, c := draw(SecureSeeded, 1), draw(SecureSeeded, 1), draw(SecureSeeded, 2)
	if !equal(a, b) {
		t.Error("SecureSeeded: one seed, two sequences")
	}
	if equal(a, c) {
		t.Error("SecureSeeded: two seeds, one sequence")
	}
	if equal(draw(Secure, 1), draw(Secure, 1)) {
		t.Error("Secure repeated its draws: it should read crypto/rand, not the seed")
	}
	// The same bytes from a plain reader give the same Gaussian draws.
	bs := make([]byte, 1<<16)
	RandReader{rand.New(rand.NewChaCha8([32]byte{7}))}.Read(bs)
	g := func(s *SecureNoise) []int64 {
		var k []int64
		for range 200 {
			k = append(k, s.SampleInt(0), s.SampleInt(1))
		}
		return k
	}
	s1Any, _ := New(Config{Law: GaussianLaw, Mode: Secure, Sigmas: []float64{3, 40}, Sensitivity: 1}, nil)
	s1, _ := s1Any.(*SecureNoise) // nil on error
	s2Any, _ := New(Config{Law: GaussianLaw, Mode: Secure, Sigmas: []float64{3, 40}, Sensitivity: 1}, nil)
	s2, _ := s2Any.(*SecureNoise) // nil on error
	s1.SetEntropy(bytes.NewReader(bs))
	s2.SetEntropy(RandReader{rand.New(rand.NewChaCha8([32]byte{7}))})
	k1, k2 := g(s1), g(s2)
	for i := range k1 {
		if k1[i] != k2[i] {
			t.Fatalf("draw %d: %d from the bytes, %d from the stream", i, k1[i], k2[i])
		}
	}
	if SecureSeeded.String() != "secure-seeded" || !SecureSeeded.Secure() || Simulated.Secure() {
		t.Error("SecureSeeded's name or Secure()")
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
