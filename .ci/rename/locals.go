package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// locals is the locals command: in every file that imports the package at
// -import under an alias (dpnoise for dpb/noise), the identifiers named like
// the package (variables, parameters and functions that hid it: a local
// "noise") are renamed to -to and the alias is dropped (dpnoise.X becomes
// noise.X). Field names, methods, selectors and struct literal keys keep
// their names.
func locals(args []string) {
	fl := flag.NewFlagSet("locals", flag.ExitOnError)
	imp := fl.String("import", "", "the import path whose name locals hide")
	to := fl.String("to", "", "the locals' new name")
	list := fl.Bool("n", false, "only list the identifiers")
	fl.Parse(args)
	name := (*imp)[strings.LastIndex(*imp, "/")+1:]
	n := 0
	for _, dir := range fl.Args() {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			changed, err := renameLocals(path, *imp, name, *to, *list)
			if changed {
				n++
			}
			return err
		})
		if err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("locals: %d files\n", n)
}

func renameLocals(path, imp, name, to string, list bool) (bool, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return false, err
	}
	var spec *ast.ImportSpec
	for _, s := range f.Imports {
		if p, _ := strconv.Unquote(s.Path.Value); p == imp {
			spec = s
		}
	}
	if spec == nil {
		return false, nil
	}
	alias := name
	if spec.Name != nil {
		alias = spec.Name.Name
	}
	if alias == name || alias == "_" || alias == "." {
		return false, nil // imported by its name: no local hides it where it is used
	}
	// Identifiers that are not variables or functions of the file's own:
	// selectors' names, field and method names, struct literal keys.
	skip := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			skip[n.Sel] = true
		case *ast.StructType:
			for _, fd := range n.Fields.List {
				for _, id := range fd.Names {
					skip[id] = true
				}
			}
		case *ast.InterfaceType:
			for _, fd := range n.Methods.List {
				for _, id := range fd.Names {
					skip[id] = true
				}
			}
		case *ast.FuncDecl:
			if n.Recv != nil {
				skip[n.Name] = true
			}
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						skip[id] = true
					}
				}
			}
		}
		return true
	})
	type edit struct {
		off, end int
		text     string
	}
	var edits []edit
	// The alias: the import spec's name goes, its uses become name.
	twice := false
	for _, s := range f.Imports {
		if p, _ := strconv.Unquote(s.Path.Value); p == imp && s.Name == nil {
			twice = true
		}
	}
	if twice { // the aliased import goes, line and all
		from := fset.Position(spec.Pos()).Offset
		for from > 0 && src[from-1] != '\n' {
			from--
		}
		to := fset.Position(spec.End()).Offset
		for to < len(src) && src[to] != '\n' {
			to++
		}
		edits = append(edits, edit{from, to + 1, ""})
	} else {
		edits = append(edits, edit{fset.Position(spec.Name.Pos()).Offset, fset.Position(spec.Path.Pos()).Offset, ""})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == alias && x.Obj == nil {
			edits = append(edits, edit{fset.Position(x.Pos()).Offset, fset.Position(x.End()).Offset, name})
		}
		return true
	})
	// A file may import the package twice, under its name and under the
	// alias: the idents that name the package (a selector's unresolved X)
	// are not locals.
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == name && x.Obj == nil {
				skip[x] = true
			}
		}
		return true
	})
	ast.Inspect(f, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || id.Name != name || skip[id] || id == spec.Name {
			return true
		}
		if list {
			fmt.Printf("%s\n", fset.Position(id.Pos()))
		}
		edits = append(edits, edit{fset.Position(id.Pos()).Offset, fset.Position(id.End()).Offset, to})
		return true
	})
	if len(edits) == 0 || list {
		return false, nil
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].off > edits[j].off })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.off:e.off], append([]byte(e.text), out[e.end:]...)...)
	}
	formatted, err := format.Source(out)
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	if bytes.Equal(formatted, src) {
		return false, nil
	}
	return true, os.WriteFile(path, formatted, 0o644)
}
