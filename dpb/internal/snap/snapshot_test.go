package snap

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Blob writes what Bytes writes, without the copy; a failed append writes
// nothing; Dec.Blob hands the blob alone to the unmarshaler, whose error
// sticks; every decoder error starts with the reading package's name.
func TestBlob(t *testing.T) {
	part := []byte("a part of the state")
	var viaBytes, viaBlob Enc
	viaBytes.Int(7)
	viaBytes.Bytes(part)
	viaBlob.Int(7)
	if err := viaBlob.Blob(func(b []byte) ([]byte, error) { return append(b, part...), nil }); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(viaBlob.B, viaBytes.B) {
		t.Fatalf("Blob wrote %x, Bytes %x", viaBlob.B, viaBytes.B)
	}
	fail := errors.New("cannot")
	if err := viaBlob.Blob(func(b []byte) ([]byte, error) { return append(b, 1, 2, 3), fail }); err != fail || !bytes.Equal(viaBlob.B, viaBytes.B) {
		t.Fatalf("a failed Blob: err %v, wrote %x", err, viaBlob.B[len(viaBytes.B):])
	}

	d := NewDec("pkg", append(bytes.Clone(viaBlob.B), 9))
	if d.Int() != 7 {
		t.Fatal("first field")
	}
	d.Blob(func(p []byte) error {
		if !bytes.Equal(p, part) {
			t.Errorf("Dec.Blob handed %q", p)
		}
		return nil
	})
	if err := d.Done(); err == nil || err.Error() != "pkg: snapshot has 1 trailing bytes" {
		t.Errorf("trailing byte: err = %v", err)
	}
	d = NewDec("pkg", viaBlob.B)
	d.Int()
	d.Blob(func([]byte) error { return fail })
	if d.Done() != fail {
		t.Errorf("the unmarshaler's error did not stick: %v", d.Err)
	}
	d = NewDec("pkg", viaBlob.B[:len(viaBlob.B)-1])
	d.Int()
	d.Blob(func([]byte) error { t.Error("called on a cut blob"); return nil })
	if err := d.Done(); err == nil || err.Error() != "pkg: snapshot truncated" {
		t.Errorf("cut blob: err = %v", err)
	}
}

// A sealed snapshot opens; one of another format is refused with the
// format error, and a damaged one with the checksum error.
func TestHeaderAndSeal(t *testing.T) {
	e := &Enc{}
	e.Header("tag")
	sealed := e.Seal()
	d := Open("pkg", sealed)
	d.Header("tag")
	if err := d.Done(); err != nil {
		t.Fatalf("the snapshot itself: %v", err)
	}
	old := &Enc{}
	old.Bytes([]byte("tag"))
	old.Int(snapshotVersion - 1)
	old.Int(StreamVersion)
	d = Open("pkg", old.Seal())
	d.Header("tag")
	if want := fmt.Sprintf("pkg: snapshot format %d, this code reads %d", snapshotVersion-1, snapshotVersion); d.Err == nil || d.Err.Error() != want {
		t.Errorf("older format: err = %v, want %q", d.Err, want)
	}
	sealed[0] ^= 1
	if d := Open("pkg", sealed); d.Err == nil || !strings.HasPrefix(d.Err.Error(), "pkg: snapshot checksum mismatch") {
		t.Errorf("a flipped bit: err = %v", d.Err)
	}
}
