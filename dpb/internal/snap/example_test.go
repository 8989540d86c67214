package snap_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

// A policy's snapshot: the encoder writes a header (tag, format, stream
// version) and the fields, Seal appends a SHA-256 trailer, and the decoder
// reads the fields back in the same order; a flipped bit is refused.
func ExampleEnc() {
	var e snap.Enc
	e.Header("example")
	e.Int(3)
	e.F64s([]float64{0.25, 1.5})
	data := e.Seal()

	d := snap.Open("example", data)
	d.Header("example")
	n := d.Int()
	xs := make([]float64, 2)
	d.F64sTo("xs", xs)
	fmt.Println(n, xs, d.Done())

	data[len(data)/2] ^= 1
	bad := snap.Open("example", data)
	bad.Header("example")
	fmt.Println("flipped bit refused:", bad.Done() != nil)
	// Output:
	// 3 [0.25 1.5] <nil>
	// flipped bit refused: true
}
