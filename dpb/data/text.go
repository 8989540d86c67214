package data

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
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
// first field) and with lone carriage returns read as newlines
// ([lineEnds]).
func skipBOM(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		br.Discard(3)
	}
	return lineEnds(br)
}

// parseFloat parses a decimal number (or NaN and ±Inf, which the loaders
// refuse by name): strconv.ParseFloat also reads digit separators ("1_0"
// is 10) and hexadecimal floats ("0x1p-2"), which no data file means.
func parseFloat(s string) (float64, error) {
	if strings.ContainsAny(s, "_xXpP") {
		return 0, fmt.Errorf("%q is not a decimal number", s)
	}
	return strconv.ParseFloat(s, 64)
}

// lineEnds returns a reader of r in which a lone carriage return (the line
// end of classic Mac OS files and some exports) is a newline: the CSV
// reader ends records only at \n or \r\n, so such a file read as one
// record, whose fields then looked like repeated column names. A \r
// inside a quoted field becomes \n too.
func lineEnds(r io.Reader) io.Reader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	return loneCR{br}
}

type loneCR struct{ r *bufio.Reader }

func (c loneCR) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i := 0; i < n; i++ {
		if p[i] != '\r' {
			continue
		}
		if i+1 < n {
			if p[i+1] != '\n' {
				p[i] = '\n'
			}
			continue
		}
		if next, perr := c.r.Peek(1); perr != nil || next[0] != '\n' {
			p[i] = '\n'
		}
	}
	return n, err
}
