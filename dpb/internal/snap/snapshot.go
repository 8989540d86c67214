package snap

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
)

// snapshotVersion is the version of the binary snapshot format written by the
// MarshalBinary methods of the own-stream policies (anytime.go). A snapshot
// also records [StreamVersion]: a snapshot of one stream version is refused by
// code of another, since its continuation would not be bit-identical.
// Version 2 added the SHA-256 trailer ([Enc.Seal], [Open]); version 3
// numbers ss18.Alg from 1 (the zero Alg names no variant) and
// counter.ReleaseMode from 1 (the zero mode is ModeDefault), and holds the
// state of secure-mode policies (the secure sampler's buffered seeded bits,
// the Honaker counter's node sums on the grid). Version 4 writes each part
// of a snapshot as a length-prefixed blob ([Enc.Blob]) that its
// AppendBinary appends and its UnmarshalBinary reads whole (refusing
// trailing bytes): after the header, the configuration's fingerprint, the
// epoch, the random source (a blob already) and the current epoch's policy; in a LinUCB its
// regularizer's state; in a DP-UCB or a tree regularizer each counter's
// state and its node noise's state (noise.AppendState /
// noise.UnmarshalState). The fields inside the parts are those of version 3.
const snapshotVersion = 4

// SumSize is the length of the SHA-256 trailer of a sealed snapshot.
const SumSize = sha256.Size

// Seal returns the snapshot followed by the SHA-256 of its bytes, which
// [Open] checks: a snapshot with a flipped bit or cut short is refused
// before any of its state is read.
func (e *Enc) Seal() []byte {
	sum := sha256.Sum256(e.B)
	return append(e.B, sum[:]...)
}

// Open returns a decoder of the sealed snapshot data (see [Enc.Seal]) whose
// errors start with pkg (see [NewDec]); its Err is set when the trailer is
// missing or does not match.
func Open(pkg string, data []byte) *Dec {
	d := NewDec(pkg, nil)
	if len(data) < SumSize {
		d.Err = d.errShort()
		return d
	}
	body := data[:len(data)-SumSize]
	if sum := sha256.Sum256(body); string(sum[:]) != string(data[len(body):]) {
		d.Err = fmt.Errorf("%s: snapshot checksum mismatch: the snapshot is damaged (a changed or missing byte), or was written before snapshots carried one (format 1)", pkg)
		return d
	}
	d.B = body
	return d
}

// Enc appends the little-endian encoding of a policy's state to B.
type Enc struct{ B []byte }

func (e *Enc) U64(v uint64)  { e.B = binary.LittleEndian.AppendUint64(e.B, v) }
func (e *Enc) Int(v int)     { e.U64(uint64(int64(v))) }
func (e *Enc) F64(v float64) { e.U64(math.Float64bits(v)) }
func (e *Enc) Bool(v bool) {
	if v {
		e.U64(1)
	} else {
		e.U64(0)
	}
}

// Bytes writes p as a length-prefixed blob: its length, then its bytes.
func (e *Enc) Bytes(p []byte) {
	e.Int(len(p))
	e.B = append(e.B, p...)
}

// Blob writes what appendTo appends (an AppendBinary) as a length-prefixed
// blob, the encoding [Enc.Bytes] gives, without copying it; [Dec.Blob] reads
// it back. On error nothing is written.
func (e *Enc) Blob(appendTo func(b []byte) ([]byte, error)) error {
	at := len(e.B)
	e.U64(0) // the length, set below
	b, err := appendTo(e.B)
	if err != nil {
		e.B = e.B[:at]
		return err
	}
	binary.LittleEndian.PutUint64(b[at:], uint64(len(b)-at-8))
	e.B = b
	return nil
}

func (e *Enc) F64s(v []float64) {
	e.Int(len(v))
	for _, x := range v {
		e.F64(x)
	}
}
func (e *Enc) Ints(v []int) {
	e.Int(len(v))
	for _, x := range v {
		e.Int(x)
	}
}

// Dec reads what Enc wrote; the first error sticks and later reads return
// zeros. Its errors start with the name of the package that reads (the
// package of the state being restored).
type Dec struct {
	B   []byte
	Err error
	pkg string
}

// NewDec returns a decoder of data whose errors start with pkg, the name
// of the package whose state it reads ("counter": "counter: snapshot
// truncated").
func NewDec(pkg string, data []byte) *Dec { return &Dec{B: data, pkg: pkg} }

func (d *Dec) errShort() error {
	return fmt.Errorf("%s: snapshot truncated", d.pkg)
}

func (d *Dec) U64() uint64 {
	if d.Err != nil {
		return 0
	}
	if len(d.B) < 8 {
		d.Err = d.errShort()
		return 0
	}
	v := binary.LittleEndian.Uint64(d.B)
	d.B = d.B[8:]
	return v
}
func (d *Dec) Int() int     { return int(int64(d.U64())) }
func (d *Dec) F64() float64 { return math.Float64frombits(d.U64()) }
func (d *Dec) Bool() bool   { return d.U64() != 0 }

// Fail records err unless an error is already recorded.
func (d *Dec) Fail(err error) {
	if d.Err == nil {
		d.Err = err
	}
}

// length reads a length and checks it against want (the size the restoring
// policy's configuration gives).
func (d *Dec) length(what string, want int) bool {
	n := d.Int()
	if d.Err == nil && n != want {
		d.Fail(fmt.Errorf("%s: snapshot %s has length %d, this policy's configuration has %d", d.pkg, what, n, want))
	}
	return d.Err == nil
}

// Bytes reads a length-prefixed blob; the slice shares the decoder's data.
func (d *Dec) Bytes() []byte {
	n := d.Int()
	if d.Err != nil {
		return nil
	}
	if n < 0 || n > len(d.B) {
		d.Fail(d.errShort())
		return nil
	}
	p := d.B[:n:n]
	d.B = d.B[n:]
	return p
}

// Blob reads a length-prefixed blob (see [Enc.Blob]) and hands it to
// unmarshal (an UnmarshalBinary, which must consume all of it), whose
// error sticks. unmarshal is not called after an error.
func (d *Dec) Blob(unmarshal func(data []byte) error) {
	p := d.Bytes()
	if d.Err != nil {
		return
	}
	if err := unmarshal(p); err != nil {
		d.Fail(err)
	}
}

// F64sTo reads a float slice into dst, whose length the configuration
// fixes; a non-finite value is an error (no policy state holds one).
func (d *Dec) F64sTo(what string, dst []float64) {
	if !d.length(what, len(dst)) {
		return
	}
	for i := range dst {
		dst[i] = d.F64()
		if d.Err == nil && (math.IsNaN(dst[i]) || math.IsInf(dst[i], 0)) {
			d.Fail(fmt.Errorf("%s: snapshot %s[%d] is %v, want a finite number", d.pkg, what, i, dst[i]))
		}
	}
}

func (d *Dec) IntsTo(what string, dst []int) {
	if !d.length(what, len(dst)) {
		return
	}
	for i := range dst {
		dst[i] = d.Int()
	}
}

// Header writes and checks the magic tag, the snapshot format and the stream version.
func (e *Enc) Header(tag string) {
	e.Bytes([]byte(tag))
	e.Int(snapshotVersion)
	e.Int(StreamVersion)
}

func (d *Dec) Header(tag string) {
	got := string(d.Bytes())
	if d.Err != nil {
		return
	}
	if got != tag {
		d.Fail(fmt.Errorf("%s: snapshot is of a %q, not a %q", d.pkg, got, tag))
		return
	}
	if v := d.Int(); d.Err == nil && v != snapshotVersion {
		d.Fail(fmt.Errorf("%s: snapshot format %d, this code reads %d", d.pkg, v, snapshotVersion))
	}
	if v := d.Int(); d.Err == nil && v != StreamVersion {
		d.Fail(fmt.Errorf("%s: snapshot of stream version %d, this code is at %d (a restored run would not continue bit-identically)", d.pkg, v, StreamVersion))
	}
}

// Done returns the first error, or an error if data is left unread: a
// state is all of its data.
func (d *Dec) Done() error {
	if d.Err == nil && len(d.B) != 0 {
		d.Err = fmt.Errorf("%s: snapshot has %d trailing bytes", d.pkg, len(d.B))
	}
	return d.Err
}
