package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"regexp"
	"slices"
	"strings"
)

// notebooks is the notebooks command: see the package comment.
func notebooks(args []string) {
	fl := flag.NewFlagSet("notebooks", flag.ExitOnError)
	mapFile := fl.String("map", "", `file of "pkg.Old newpkg.New" lines`)
	fl.Parse(args)
	pairs, err := readMap(*mapFile)
	if err != nil {
		log.Fatal(err)
	}
	n := 0
	for _, path := range fl.Args() {
		changed, err := rewriteNotebook(path, pairs)
		if err != nil {
			log.Fatal(err)
		}
		if changed {
			n++
		}
	}
	fmt.Printf("notebooks: %d rewritten\n", n)
}

type pair struct {
	old, new *regexp.Regexp
	to       string
}

// readMap reads the "pkg.Old newpkg.New" lines of path (# comments).
func readMap(path string) ([]pair, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []pair
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		w := strings.Fields(l)
		if len(w) != 2 {
			return nil, fmt.Errorf("%s: bad line %q", path, l)
		}
		out = append(out, pair{old: regexp.MustCompile(`\b` + regexp.QuoteMeta(w[0]) + `\b`), to: w[1]})
	}
	return out, sc.Err()
}

const dpbPath = modulePath + "/dpb/"

// importLine matches one import of the module in a notebook's JSON text:
// `    "\t\"github.com/dpbandits/dpbandits/dpb/PKG\"\n",` (with an alias or not).
var importLine = regexp.MustCompile(`(?m)^(\s*"\\t)(?:(\w+) )?\\"` + regexp.QuoteMeta(dpbPath) + `([a-z0-9/]+)\\"(\\n)?(",?)$`)

// rewriteNotebook applies pairs to the notebook's text, then imports every
// module package a qualified name uses (by its last path element) and drops
// the imports of module packages nothing uses any more.
func rewriteNotebook(path string, pairs []pair) (bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	src := string(b)
	s := src
	for _, p := range pairs {
		s = p.old.ReplaceAllString(s, p.to)
	}
	if s == src {
		return false, nil
	}
	// The packages the new names need.
	var need []string
	for _, p := range pairs {
		pkg := p.to[:strings.Index(p.to, ".")]
		if !slices.Contains(need, pkg) && regexp.MustCompile(`\b`+pkg+`\.[A-Z]`).MatchString(s) {
			need = append(need, pkg)
		}
	}
	have := map[string]bool{}
	for _, m := range importLine.FindAllStringSubmatch(s, -1) {
		name := m[2]
		if name == "" {
			name = m[3][strings.LastIndex(m[3], "/")+1:]
		}
		have[name] = true
	}
	// Replace the first import of a package no longer used by the missing
	// ones; drop the other unused ones.
	added := false
	s = importLine.ReplaceAllStringFunc(s, func(line string) string {
		m := importLine.FindStringSubmatch(line)
		name := m[2]
		if name == "" {
			name = m[3][strings.LastIndex(m[3], "/")+1:]
		}
		if regexp.MustCompile(`\b` + name + `\.[A-Z]`).MatchString(s) {
			return line
		}
		if added {
			return ""
		}
		added = true
		var lines []string
		for _, pkg := range need {
			if !have[pkg] {
				lines = append(lines, m[1]+`\"`+dpbPath+pkg+`\"`+m[4]+m[5])
			}
		}
		return strings.Join(lines, "\n")
	})
	s = regexp.MustCompile(`\n\n+(\s*"\\t)`).ReplaceAllString(s, "\n$1")
	return true, os.WriteFile(path, []byte(s), 0o644)
}
