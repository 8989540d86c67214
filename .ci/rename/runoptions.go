package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

const modulePath = "github.com/dpbandits/dpbandits"

var moved = map[string]bool{"Workers": true, "Progress": true, "Plan": true}

// runOptions is the runoptions command: see the package comment.
func runOptions(args []string) {
	fl := flag.NewFlagSet("runoptions", flag.ExitOnError)
	typesFile := fl.String("types", "", "file of import/path.Type lines")
	root := fl.String("root", ".", "the module's root (its go.mod)")
	fl.Parse(args)
	types, err := readTypes(*typesFile)
	if err != nil {
		log.Fatal(err)
	}
	n := 0
	for _, dir := range fl.Args() {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") {
				return nil
			}
			changed, err := rewrite(path, *root, types)
			if changed {
				n++
			}
			return err
		})
		if err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("runoptions: %d files rewritten\n", n)
}

// readTypes returns the set of "import/path.Type" lines of path.
func readTypes(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			m[l] = true
		}
	}
	return m, sc.Err()
}

type edit struct {
	from, to int
	text     string
}

// rewrite rewrites the literals of one file and reports whether it changed.
func rewrite(path, root string, types map[string]bool) (bool, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return false, err
	}
	abs, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return false, err
	}
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(rootAbs, abs)
	if err != nil {
		return false, err
	}
	own := modulePath + "/" + filepath.ToSlash(rel)
	imports := map[string]string{} // local name → import path
	harnessName := "harness"
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = p
		if p == modulePath+"/dpb/harness" {
			harnessName = name
		}
	}
	qual := harnessName + "."
	if own == modulePath+"/dpb/harness" {
		qual = ""
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		var full string
		switch t := cl.Type.(type) {
		case *ast.Ident:
			full = own + "." + t.Name
		case *ast.SelectorExpr:
			if x, ok := t.X.(*ast.Ident); ok {
				path, ok := imports[x.Name]
				if !ok { // a package gofmt -r just named, which goimports imports later
					path = modulePath + "/dpb/" + x.Name
				}
				full = path + "." + t.Sel.Name
			}
		}
		if !types[full] {
			return true
		}
		var opts []string
		var spans [][2]int // the moved key–value pairs, with their commas
		for _, e := range cl.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				return true // positional: nothing to move
			}
			if k, ok := kv.Key.(*ast.Ident); ok && moved[k.Name] {
				opts = append(opts, string(src[off(kv.Pos()):off(kv.End())]))
				spans = append(spans, span(src, off(kv.Pos()), off(kv.End())))
			}
		}
		if len(opts) == 0 {
			return true
		}
		sort.SliceStable(opts, func(i, j int) bool { return order(opts[i]) < order(opts[j]) })
		ro := "RunOptions: " + qual + "RunOptions{" + strings.Join(opts, ", ") + "}"
		for i, sp := range spans {
			text := ""
			if i == 0 {
				text = ro + ","
				if src[sp[1]-1] == '\n' {
					text += "\n"
				} else if sp[1] < off(cl.Rbrace) {
					text += " "
				}
			}
			edits = append(edits, edit{sp[0], sp[1], text})
		}
		return false // nested literals inside are rare; a second run takes them
	})
	if len(edits) == 0 {
		return false, nil
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.from:e.from], append([]byte(e.text), out[e.to:]...)...)
	}
	formatted, err := format.Source(out)
	if err != nil {
		return false, fmt.Errorf("%s: %w\n%s", path, err, out)
	}
	if bytes.Equal(formatted, src) {
		return false, nil
	}
	return true, os.WriteFile(path, formatted, 0o644)
}

// span returns the bytes of a key–value pair at [from, to) with its comma
// and the blanks after it, through the end of the line when nothing else
// follows on it (and from the start of the line when nothing precedes it).
func span(src []byte, from, to int) [2]int {
	for to < len(src) && (src[to] == ' ' || src[to] == '\t') {
		to++
	}
	if to < len(src) && src[to] == ',' {
		to++
	}
	for to < len(src) && (src[to] == ' ' || src[to] == '\t') {
		to++
	}
	if to < len(src) && src[to] == '\n' {
		lineStart := from
		for lineStart > 0 && (src[lineStart-1] == ' ' || src[lineStart-1] == '\t') {
			lineStart--
		}
		if lineStart > 0 && src[lineStart-1] == '\n' {
			return [2]int{lineStart, to + 1}
		}
	}
	return [2]int{from, to}
}

// order keeps Workers, Progress, Plan in that order.
func order(kv string) int {
	switch {
	case strings.HasPrefix(kv, "Workers"):
		return 0
	case strings.HasPrefix(kv, "Progress"):
		return 1
	}
	return 2
}
