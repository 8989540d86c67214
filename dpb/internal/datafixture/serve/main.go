// Command serve serves the synthetic data fixtures on a local port and writes
// a manifest pointing at them, for the notebook test of "dpb data fetch"
// (.ci/notebooks --self-test). It runs until killed.
//
//	go run ./dpb/internal/datafixture/serve -manifest FILE
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/dpbandits/dpbandits/dpb/internal/datafixture"
)

func main() {
	out := flag.String("manifest", "", "write the manifest (JSON) here")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: serve -manifest FILE")
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
	files := datafixture.Files(1)
	m, err := datafixture.Manifest("http://"+ln.Addr().String(), files)
	if err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
	b, _ := json.MarshalIndent(m, "", " ")
	tmp := *out + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err == nil {
		err = os.Rename(tmp, *out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
	http.Serve(ln, datafixture.Handler(files))
}
