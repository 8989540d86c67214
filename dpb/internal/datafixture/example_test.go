package datafixture_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/dpbandits/dpbandits/dpb/internal/datafixture"
)

// Serving the synthetic fixtures on a local HTTP server and describing them
// by a manifest, as the tests of "dpb data fetch" do: every file of the
// default manifest, served from the test server with the fixtures'
// checksums.
func ExampleManifest() {
	files := datafixture.Files(1)
	srv := httptest.NewServer(datafixture.Handler(files))
	defer srv.Close()
	m, err := datafixture.Manifest(srv.URL, files)
	if err != nil {
		panic(err)
	}
	fmt.Println("manifest valid:", m.Validate() == nil)
	served := 0
	for _, f := range m.Files {
		resp, err := http.Get(f.URLs[0])
		if err != nil {
			panic(err)
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			panic(err)
		}
		if resp.StatusCode == http.StatusOK {
			served++
		}
	}
	fmt.Println("every file's first URL served:", served == len(m.Files))
	// Output:
	// manifest valid: true
	// every file's first URL served: true
}
