package noise

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// AppendState appends a noise's own state after b (nothing for Laplace)
// and UnmarshalState restores it whole, refusing trailing bytes, a cut
// state and a secure sampler's state on other bits, with errors that start
// with the package's name.
func TestNoiseState(t *testing.T) {
	rng := func(s uint64) *rand.Rand { return rand.New(rand.NewPCG(s, 0)) }
	lap, err := New(Config{Law: LaplaceLaw, Mode: Simulated, Dim: 2, Scale: 1}, rng(1))
	if err != nil {
		t.Fatal(err)
	}
	prefix := []byte("prefix")
	if got := AppendState(bytes.Clone(prefix), lap); !bytes.Equal(got, prefix) {
		t.Errorf("Laplace appended %q", got[len(prefix):])
	}
	if err := UnmarshalState(lap, nil); err != nil {
		t.Errorf("Laplace, no state: %v", err)
	}
	if err := UnmarshalState(lap, []byte{0}); err == nil || err.Error() != "noise: snapshot has 1 trailing bytes" {
		t.Errorf("Laplace, one byte: err = %v", err)
	}

	seeded := func(s uint64) Noise {
		nz, err := New(Config{Law: LaplaceLaw, Mode: SecureSeeded, Dim: 2, Scale: 1, Sensitivity: 1}, rng(s))
		if err != nil {
			t.Fatal(err)
		}
		return nz
	}
	sym := func(s uint64) Noise {
		nz, err := New(Config{Law: SymGaussianLaw, Mode: Simulated, N: 3, Sigma: 1}, rng(s))
		if err != nil {
			t.Fatal(err)
		}
		return nz
	}
	for name, mk := range map[string]func(uint64) Noise{"symmetrised Gaussian": sym, "secure seeded": seeded} {
		a := mk(1)
		dst := make([]float64, a.Dim())
		for range 3 {
			a.Sample(dst)
		}
		data := AppendState(bytes.Clone(prefix), a)
		if !bytes.HasPrefix(data, prefix) || len(data) == len(prefix) {
			t.Fatalf("%s: AppendState wrote %d bytes after b", name, len(data)-len(prefix))
		}
		data = data[len(prefix):]
		b := mk(2)
		if err := UnmarshalState(b, data); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if again := AppendState(nil, b); !bytes.Equal(again, data) {
			t.Errorf("%s: the restored state appends differently", name)
		}
		for what, bad := range map[string][]byte{"trailing byte": append(bytes.Clone(data), 0), "cut": data[:len(data)-1], "empty": nil} {
			if err := UnmarshalState(mk(2), bad); err == nil || !strings.HasPrefix(err.Error(), "noise: snapshot ") {
				t.Errorf("%s, %s: err = %v", name, what, err)
			}
		}
	}
	crypto, err := New(Config{Law: LaplaceLaw, Mode: Secure, Dim: 2, Scale: 1, Sensitivity: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = UnmarshalState(crypto, AppendState(nil, seeded(1)))
	if err == nil || !strings.HasPrefix(err.Error(), "noise: snapshot of a secure sampler on seeded bits true restored into one on seeded bits false") {
		t.Errorf("seeded bits into crypto/rand: err = %v", err)
	}
}
