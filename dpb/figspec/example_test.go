package figspec_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/figspec"
)

// A notebook or script names a figure's files from the table instead of
// copying the list: here SS18's Fig. 4, as `dpb reproduce ss18-fig4` writes it.
func ExampleLookup() {
	s, ok := figspec.Lookup("ss18-fig4")
	if !ok {
		fmt.Println("no such figure")
		return
	}
	fmt.Println(s.Paper, s.Files())
	// Output:
	// ss18 [ss18-fig4.svg ss18-fig4.png ss18-fig4.csv ss18-fig4-finals.svg ss18-fig4-finals.png ss18-fig4-finals.csv]
}
