package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of the command may be, from its
// func line to its closing brace (issue 58: the figure handlers of ≈ 100
// lines of the same glue went into the figure table and figurePhases).
const maxFuncLines = 60

// longFuncs parses the Go files matched by pattern (test files left out)
// and returns every function declaration or literal longer than max lines.
func longFuncs(pattern string, max int) ([]string, error) {
	paths, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var long []string
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			name := "func literal"
			switch x := n.(type) {
			case *ast.FuncDecl:
				name = x.Name.Name
			case *ast.FuncLit:
			default:
				return true
			}
			from, to := fset.Position(n.Pos()), fset.Position(n.End())
			if lines := to.Line - from.Line + 1; lines > max {
				long = append(long, fmt.Sprintf("%s:%d: %s is %d lines", filepath.Base(p), from.Line, name, lines))
			}
			return true
		})
	}
	return long, nil
}

// TestNoFunctionOverSixtyLines: no function of dpb/cmd/dpb (its non-test
// files) is longer than 60 lines.
func TestNoFunctionOverSixtyLines(t *testing.T) {
	long, err := longFuncs("*.go", maxFuncLines)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range long {
		t.Errorf("%s, above %d: split it", l, maxFuncLines)
	}
}

// TestLongFuncsCatchesAPlantedFunction: the same helper finds the planted
// 61-line function of testdata/funclen (and its 60-line neighbour passes),
// so the test above can fail.
func TestLongFuncsCatchesAPlantedFunction(t *testing.T) {
	long, err := longFuncs(filepath.Join("testdata", "funclen", "*.go.txt"), maxFuncLines)
	if err != nil {
		t.Fatal(err)
	}
	if len(long) != 1 || !strings.Contains(long[0], "planted is 61 lines") {
		t.Errorf("found %q, want only the planted 61-line function", long)
	}
}
