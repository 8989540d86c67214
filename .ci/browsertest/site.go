// The course site (issue 54 parts 1 and 2): "browsertest site build" writes a
// static, offline site from the committed notebooks (Debian's nbconvert, with
// MathJax, RequireJS, jQuery and echarts copied into the site), and
// "browsertest site check" serves sites on 127.0.0.1 and checks them in
// headless Chromium (site_check.go). .ci/site runs both.
//
//	browsertest site build -repo DIR -out DIR [-mathjax LIST|all] [-debian-urls]
//	browsertest site check -out DIR -site DIR [-control DIR ...] [-mathjax-requests FILE]
//	browsertest site break -in DIR -out DIR        (the planted broken link)
//	browsertest site crop -in PNG -out PNG -y PX -h PX [-half]
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
)

// siteMain runs the "site" subcommands; it returns the exit status.
func siteMain(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: browsertest site build|check|break|crop [flags]")
		return 2
	}
	var err error
	switch args[0] {
	case "build":
		err = siteBuildCmd(args[1:])
	case "check":
		err = siteCheckCmd(args[1:])
	case "break":
		err = siteBreakCmd(args[1:])
	case "crop":
		err = siteCropCmd(args[1:])
	default:
		err = usagef("unknown site subcommand %q (build, check, break, crop)", args[0])
	}
	var usage usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &usage):
		fmt.Fprintln(os.Stderr, "browsertest site:", err)
		return 2
	default:
		fmt.Fprintln(os.Stderr, "browsertest site:", err)
		return 1
	}
}

type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// parseFlags parses args into fs and refuses positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(os.Stderr)
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return usagef("%s: unexpected arguments %q", fs.Name(), fs.Args())
	}
	return nil
}
