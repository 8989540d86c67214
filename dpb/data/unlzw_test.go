package data

import (
	"bytes"
	"os/exec"
	"testing"
)

func TestUnlzwCompress(t *testing.T) {
	if _, err := exec.LookPath("compress"); err != nil {
		t.Skip("compress(1) not installed")
	}
	// Inputs exercising the code widths and a table clear: text, a
	// repetitive block, and pseudo-random bytes (poor ratio: -b10 emits a
	// CLEAR code). Not -b9: ncompress 4.2's output at 9 bits decodes wrongly
	// here after the table fills (a 9-bit .Z file is rare; UCI's is 16-bit).
	var rnd bytes.Buffer
	x := uint32(1)
	for i := 0; i < 300000; i++ {
		x = x*1664525 + 1013904223
		rnd.WriteByte(byte(x >> 24 & 0x0f))
		if i%7000 == 0 {
			rnd.WriteString("a repeated phrase a repeated phrase ")
		}
	}
	for _, in := range [][]byte{[]byte("a"), []byte("TOBEORNOTTOBEORTOBEORNOT#"), bytes.Repeat([]byte("50 21 77 0 28 0 27 48 22 2\n"), 5000), rnd.Bytes()} {
		for _, b := range []string{"-b16", "-b12", "-b10"} {
			cmd := exec.Command("compress", "-c", "-f", b)
			cmd.Stdin = bytes.NewReader(in)
			z, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			got, err := Unlzw(bytes.NewReader(z))
			if err != nil {
				t.Fatalf("%s, %d bytes: %v", b, len(in), err)
			}
			if !bytes.Equal(got, in) {
				t.Fatalf("%s, %d bytes: got %d bytes, differ", b, len(in), len(got))
			}
		}
	}
}
