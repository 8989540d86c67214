package data

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// maxUnlzw bounds the decompressed size of one .Z file (the Shuttle training
// set is 1.6 MB): a hostile or corrupt file cannot fill memory.
const maxUnlzw = 64 << 20

// Unlzw decompresses a Unix compress(1) (.Z, magic 1f 9d) stream, the format
// UCI ships shuttle.trn in. It reads the whole stream and returns at most
// maxUnlzw bytes; corrupt input gives an error, never a panic.
//
// The format: a 3-byte header (1f 9d, then flags: low 5 bits the maximum code
// width 9..16, 0x80 "block mode" where code 256 clears the table), then LZW
// codes packed least significant bit first, starting 9 bits wide. The
// compressor writes codes in groups of eight (n_bits bytes); when the width
// grows or the table is cleared, the rest of the current group is padding.
func Unlzw(r io.Reader) ([]byte, error) {
	br := bufio.NewReader(r)
	var hdr [3]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		return nil, fmt.Errorf("unlzw: short header: %w", err)
	}
	if hdr[0] != 0x1f || hdr[1] != 0x9d {
		return nil, errors.New("unlzw: not a compress(1) stream (magic is not 1f 9d)")
	}
	maxBits := int(hdr[2] & 0x1f)
	block := hdr[2]&0x80 != 0
	if maxBits < 9 || maxBits > 16 {
		return nil, fmt.Errorf("unlzw: maximum code width %d, want 9..16", maxBits)
	}
	in, err := io.ReadAll(io.LimitReader(br, maxUnlzw))
	if err != nil {
		return nil, fmt.Errorf("unlzw: %w", err)
	}
	const clear = 256
	first := 256
	if block {
		first = 257
	}
	prefix := make([]uint16, 1<<maxBits)
	suffix := make([]byte, 1<<maxBits)
	for i := 0; i < 256; i++ {
		suffix[i] = byte(i)
	}
	stack := make([]byte, 0, 1<<maxBits)
	var out []byte
	bits := 9
	free := first
	pos := 0   // bit position in in
	group := 0 // bit position where the current group of codes began
	old := -1  // previous code
	var fin byte
	total := len(in) * 8
	for {
		// Grow the width once the next entry would not fit (the decoder is
		// one entry behind the compressor).
		if free >= 1<<bits && bits < maxBits && old != -1 {
			pos = group + roundUp(pos-group, bits*8)
			group = pos
			bits++
		}
		if pos+bits > total {
			break
		}
		code := readBits(in, pos, bits)
		pos += bits
		if block && code == clear {
			pos = group + roundUp(pos-group, bits*8)
			group = pos
			bits = 9
			old = -1
			free = first
			continue
		}
		inCode := code
		stack = stack[:0]
		switch {
		case code < free:
		case code == free && old != -1:
			stack = append(stack, fin)
			code = old
		default:
			return nil, fmt.Errorf("unlzw: corrupt input: code %d at bit %d, table has %d entries", code, pos-bits, free)
		}
		for code >= 256 {
			stack = append(stack, suffix[code])
			code = int(prefix[code])
		}
		fin = byte(code)
		stack = append(stack, fin)
		if len(out)+len(stack) > maxUnlzw {
			return nil, fmt.Errorf("unlzw: output exceeds %d bytes", maxUnlzw)
		}
		for i := len(stack) - 1; i >= 0; i-- {
			out = append(out, stack[i])
		}
		if old != -1 && free < 1<<maxBits {
			prefix[free] = uint16(old)
			suffix[free] = fin
			free++
		}
		old = inCode
	}
	return out, nil
}

func roundUp(n, m int) int {
	if n%m == 0 {
		return n
	}
	return n + m - n%m
}

// readBits returns the n-bit code at bit position pos, LSB first.
func readBits(in []byte, pos, n int) int {
	v := 0
	for i := 0; i < n; i++ {
		p := pos + i
		if in[p>>3]>>(p&7)&1 != 0 {
			v |= 1 << i
		}
	}
	return v
}
