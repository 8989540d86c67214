package data

import (
	"bufio"
	"io"
	"strconv"
	"unicode/utf8"
)

// maxQuoted is the most bytes of a field that an error message quotes.
const maxQuoted = 64

// quoteField quotes s for an error message: all of it when short, else a
// prefix of at most maxQuoted bytes (cut at a rune boundary) and the
// field's length, so that a 50 MB field gives a short error.
func quoteField(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	n := maxQuoted
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strconv.Quote(s[:n]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// skipBOM returns a reader of r without a leading UTF-8 byte order mark
// (spreadsheets often write one; the CSV reader would make it part of the
// first field).
func skipBOM(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		br.Discard(3)
	}
	return br
}
