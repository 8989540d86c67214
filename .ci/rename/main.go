// Command rename applies the harness split and the mechanical renames to
// code written against the old names; .ci/rename/rename.sh runs it beside
// gofmt -r and goimports. Its subcommands:
//
//	runoptions -types FILE -root ROOT DIR...
//	    moves the Workers, Progress and Plan fields of composite literals of
//	    the configurations listed in FILE (one "import/path.Type" a line),
//	    which now embed harness.RunOptions, into a RunOptions literal:
//	    mt14fig.Fig1Config{Arms: 5, Workers: w} becomes
//	    mt14fig.Fig1Config{Arms: 5, RunOptions: harness.RunOptions{Workers: w}}.
//	notebooks -map FILE NOTEBOOK...
//	    applies the "pkg.Old newpkg.New" pairs of FILE to the Go code of
//	    GoNB notebooks, text for text, and imports the packages the new
//	    names need in place of the packages no name uses any more.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rename runoptions|notebooks ARGS")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "runoptions":
		runOptions(os.Args[2:])
	case "locals":
		locals(os.Args[2:])
	case "notebooks":
		notebooks(os.Args[2:])
	default:
		fmt.Fprintln(os.Stderr, "usage: rename runoptions|notebooks ARGS")
		os.Exit(2)
	}
}
