package data

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ShuttleClasses are the seven Statlog (Shuttle) classes in the order of the
// UCI files' class codes 1..7 (shuttle.doc), written as LoadShuttle's CSV
// names them.
var ShuttleClasses = [7]string{"Rad.Flow", "Fpv.Close", "Fpv.Open", "High", "Bypass", "Bpv.Close", "Bpv.Open"}

// maxShuttleRows bounds a conversion (UCI's files hold 43,500 + 14,500 rows).
const maxShuttleRows = 1 << 20

// ConvertShuttle writes the CSV that LoadShuttle reads from the UCI Statlog
// (Shuttle) files: each input holds rows of nine integer features and a class
// code 1..7 separated by blanks, no header (shuttle.trn, 43,500 rows, then
// shuttle.tst, 14,500 rows). The output has the header "V1",…,"V9","Class",
// then one line per row in input order: the nine integers as written and the
// quoted class name ([ShuttleClasses]). Errors name the input and line.
func ConvertShuttle(w io.Writer, inputs ...NamedReader) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(`"V1","V2","V3","V4","V5","V6","V7","V8","V9","Class"` + "\n")
	rows := 0
	for _, in := range inputs {
		sc := bufio.NewScanner(in.R)
		sc.Buffer(make([]byte, 0, 4096), 4096)
		line := 0
		for sc.Scan() {
			line++
			text := sc.Text()
			f := strings.Fields(text)
			if len(f) == 0 {
				continue
			}
			if len(f) != 10 {
				return fmt.Errorf("%s:%d: %d fields, want 10 (nine features and a class 1..7)", in.Name, line, len(f))
			}
			for j, v := range f[:9] {
				if _, err := strconv.ParseInt(v, 10, 32); err != nil {
					return fmt.Errorf("%s:%d: feature %d is %s, want an integer", in.Name, line, j+1, quoteField(v))
				}
			}
			c, err := strconv.Atoi(f[9])
			if err != nil || c < 1 || c > 7 {
				return fmt.Errorf("%s:%d: class is %s, want 1..7", in.Name, line, quoteField(f[9]))
			}
			if rows++; rows > maxShuttleRows {
				return fmt.Errorf("%s:%d: more than %d rows", in.Name, line, maxShuttleRows)
			}
			bw.WriteString(strings.Join(f[:9], ","))
			bw.WriteString(`,"` + ShuttleClasses[c-1] + "\"\n")
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("%s:%d: %w", in.Name, line+1, err)
		}
	}
	if rows == 0 {
		return fmt.Errorf("shuttle: no data rows")
	}
	return bw.Flush()
}

// NamedReader is an input with the name its errors use.
type NamedReader struct {
	Name string
	R    io.Reader
}

// maybeUnlzw decompresses b when it is a compress(1) stream.
func maybeUnlzw(b []byte) ([]byte, error) {
	if len(b) >= 2 && b[0] == 0x1f && b[1] == 0x9d {
		return Unlzw(bytes.NewReader(b))
	}
	return b, nil
}
