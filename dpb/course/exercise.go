package course

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"slices"
	"sort"
	"strings"
)

// The markers of a solution region (each alone on its line).
const (
	BeginSolution = "// BEGIN SOLUTION"
	EndSolution   = "// END SOLUTION"
)

// Stubs that replace a region in the student version.
const (
	FuncStub   = `panic("exercise: write this")`
	AnswerStub = `math.NaN() // your answer`
)

// Exercise is one cell holding solution regions, with what grades it.
type Exercise struct {
	Cell    int      // index of the cell in the notebook
	CellID  string   // its id
	Names   []string // the student names: functions and answers declared with a region
	Funcs   []string // of Names, the functions (coding exercises)
	Tests   []string // the Test functions that use a student name
	Cells   []int    // the %test cells holding them, in order
	Graded  map[string]string
	Wrong   string // the kept wrong solution (the whole cell)
	regions []region
}

// Coding reports whether the exercise asks for code (a function), not a
// number.
func (e Exercise) Coding() bool { return len(e.Funcs) > 0 }

type region struct {
	begin, end int // line indices of the two markers
	fn         string
	vars       []string
	group      bool // the vars are inside a var ( … ) group
	indent     string
}

// cellGo is a code cell read as Go: GoNB's special lines blanked, the lines
// after "%%" wrapped in func main, line numbers kept.
type cellGo struct {
	src  string
	test bool
	runs bool
}

func toGo(cell string) cellGo {
	lines := strings.Split(cell, "\n")
	var c cellGo
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "%%"):
			lines[i] = "func main() {"
			c.runs = true
		case strings.HasPrefix(t, "%test"):
			lines[i] = ""
			c.test = true
		case strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!"):
			lines[i] = ""
		}
	}
	c.src = "package main\n" + strings.Join(lines, "\n")
	if c.runs {
		c.src += "\n}\n"
	}
	return c
}

// idents returns the identifiers a cell's Go code mentions (by token, so a
// cell that does not parse is still read).
func idents(src string) map[string]bool {
	out := map[string]bool{}
	fs := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fs.AddFile("", -1, len(src)), []byte(src), nil, 0)
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.IDENT {
			out[lit] = true
		}
	}
	return out
}

// Analyse finds the notebook's exercises and checks the rules of the
// package documentation. It returns the exercises in cell order.
func Analyse(nb *Notebook) ([]Exercise, error) {
	var exs []Exercise
	var errs []string
	fail := func(format string, a ...any) { errs = append(errs, fmt.Sprintf(format, a...)) }
	owner := map[string]int{} // student name → index in exs
	for ci, c := range nb.Cells {
		if c.Type() != "code" {
			continue
		}
		src := c.Source()
		if !strings.Contains(src, BeginSolution) && !strings.Contains(src, EndSolution) {
			continue
		}
		ex, err := solutionCell(ci, c)
		if err != nil {
			fail("%v", err)
			continue
		}
		for _, n := range ex.Names {
			if j, dup := owner[n]; dup {
				fail("cell %d: %s is declared with a solution region again (first in cell %d)", ci, n, exs[j].Cell)
			}
			owner[n] = len(exs)
		}
		exs = append(exs, ex)
	}
	// Who uses the student names: only later %test cells may.
	for ci, c := range nb.Cells {
		if c.Type() != "code" {
			continue
		}
		g := toGo(c.Source())
		used := idents(g.src)
		for n, k := range owner {
			ex := &exs[k]
			if ci == ex.Cell || !used[n] {
				continue
			}
			switch {
			case ci < ex.Cell:
				fail("cell %d uses %s before its exercise (cell %d) declares it", ci, n, ex.Cell)
			case !g.test:
				fail("cell %d uses %s, the student's %s of cell %d: exercise cells must be leaves (only %%test cells may use them)", ci, n, kindOf(ex, n), ex.Cell)
			default:
				tests, err := testsUsing(g.src, n)
				if err != nil {
					fail("cell %d: %v", ci, err)
				}
				for _, t := range tests {
					if !slices.Contains(ex.Tests, t) {
						ex.Tests = append(ex.Tests, t)
					}
				}
				if !slices.Contains(ex.Cells, ci) {
					ex.Cells = append(ex.Cells, ci)
				}
			}
		}
	}
	for k := range exs {
		ex := &exs[k]
		sort.Ints(ex.Cells)
		for _, n := range ex.Names {
			if !graded(nb, ex, n) {
				fail("cell %d: no Test function of a later %%test cell uses %s", ex.Cell, n)
			}
		}
		for _, f := range ex.Funcs {
			target := ex.Graded[f]
			if target == "" {
				fail("cell %d: the function %s names no library function it is graded against (metadata \"dpb\": {\"graded_against\": {%q: \"pkg.Func\"}})", ex.Cell, f, f)
				continue
			}
			if !testsMention(nb, ex, target) {
				fail("cell %d: %s is graded against %s, which no test of it uses", ex.Cell, f, target)
			}
		}
		for n := range ex.Graded {
			if !slices.Contains(ex.Funcs, n) {
				fail("cell %d: graded_against names %s, which is not a function with a solution region", ex.Cell, n)
			}
		}
		if err := ex.solutionCallsTarget(nb.Cells[ex.Cell].Source()); err != nil {
			fail("cell %d: %v", ex.Cell, err)
		}
		if ex.Wrong == "" {
			fail("cell %d: no wrong solution kept (metadata \"dpb\": {\"wrong_answer\": …}) for its test to reject", ex.Cell)
		} else if missing := missingNames(ex.Wrong, ex.Names); len(missing) > 0 {
			fail("cell %d: the wrong solution does not declare %s", ex.Cell, strings.Join(missing, ", "))
		}
	}
	if len(errs) > 0 {
		return exs, fmt.Errorf("course: %s: %s", nb.Path, strings.Join(errs, "; "))
	}
	return exs, nil
}

func kindOf(ex *Exercise, n string) string {
	if slices.Contains(ex.Funcs, n) {
		return "function"
	}
	return "answer"
}

// solutionCell reads the regions of the code cell ci.
func solutionCell(ci int, c Cell) (Exercise, error) {
	ex := Exercise{Cell: ci, CellID: c.ID(), Graded: map[string]string{}}
	if md := c.Meta(); md != nil {
		ex.Wrong, _ = md["wrong_answer"].(string)
		if g, ok := md["graded_against"].(map[string]any); ok {
			for k, v := range g {
				s, _ := v.(string)
				ex.Graded[k] = s
			}
		}
	}
	src := c.Source()
	lines := strings.Split(src, "\n")
	open := -1
	for i, l := range lines {
		switch strings.TrimSpace(l) {
		case BeginSolution:
			if open >= 0 {
				return ex, fmt.Errorf("cell %d: line %d opens a solution region inside another", ci, i+1)
			}
			open = i
		case EndSolution:
			if open < 0 {
				return ex, fmt.Errorf("cell %d: line %d closes a solution region that is not open", ci, i+1)
			}
			ex.regions = append(ex.regions, region{begin: open, end: i, indent: leading(lines[open])})
			open = -1
		default:
			if strings.Contains(l, BeginSolution) || strings.Contains(l, EndSolution) {
				return ex, fmt.Errorf("cell %d: line %d: a solution marker must stand alone on its line", ci, i+1)
			}
		}
	}
	if open >= 0 {
		return ex, fmt.Errorf("cell %d: the solution region opened on line %d is not closed", ci, open+1)
	}
	g := toGo(src)
	if g.test || g.runs {
		return ex, fmt.Errorf("cell %d: a solution region must be in a cell that only declares (no %%%% and no %%test)", ci)
	}
	fs := token.NewFileSet()
	f, err := parser.ParseFile(fs, "cell.go", g.src, parser.ParseComments)
	if err != nil {
		return ex, fmt.Errorf("cell %d does not parse: %v", ci, err)
	}
	// Source line L of the cell is line L+1 of g.src (the package clause).
	line := func(p token.Pos) int { return fs.Position(p).Line - 2 }
	for ri := range ex.regions {
		r := &ex.regions[ri]
		found := false
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body == nil || line(d.Body.Lbrace) > r.begin || line(d.Body.Rbrace) < r.end {
					continue
				}
				for _, s := range d.Body.List {
					if line(s.Pos()) < r.begin || line(s.End()) > r.end {
						return ex, fmt.Errorf("cell %d: the solution region of %s must hold the function's whole body", ci, d.Name.Name)
					}
				}
				if d.Recv != nil {
					return ex, fmt.Errorf("cell %d: %s: a solution region must be in a function, not a method", ci, d.Name.Name)
				}
				r.fn, found = d.Name.Name, true
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, s := range d.Specs {
					vs := s.(*ast.ValueSpec)
					in := line(vs.Pos()) > r.begin && line(vs.End()) < r.end
					if !in {
						if line(vs.Pos()) < r.end && line(vs.End()) > r.begin {
							return ex, fmt.Errorf("cell %d: a declaration straddles a solution marker", ci)
						}
						continue
					}
					for _, n := range vs.Names {
						r.vars = append(r.vars, n.Name)
					}
					r.group = d.Lparen.IsValid()
					found = true
				}
			}
		}
		if !found {
			return ex, fmt.Errorf("cell %d: the solution region on lines %d–%d holds neither a function's body nor variable declarations", ci, r.begin+1, r.end+1)
		}
		if r.fn != "" && len(r.vars) > 0 {
			return ex, fmt.Errorf("cell %d: a solution region must hold a function body or answers, not both", ci)
		}
		if r.fn != "" {
			ex.Names = append(ex.Names, r.fn)
			ex.Funcs = append(ex.Funcs, r.fn)
		}
		ex.Names = append(ex.Names, r.vars...)
	}
	return ex, nil
}

func leading(l string) string { return l[:len(l)-len(strings.TrimLeft(l, " \t"))] }

// testsUsing returns the Test functions of a %test cell whose bodies use
// name.
func testsUsing(src, name string) ([]string, error) {
	fs := token.NewFileSet()
	f, err := parser.ParseFile(fs, "test.go", src, 0)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !strings.HasPrefix(fd.Name.Name, "Test") || fd.Body == nil {
			continue
		}
		uses := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == name {
				uses = true
			}
			return !uses
		})
		if uses {
			out = append(out, fd.Name.Name)
		}
	}
	return out, nil
}

// graded reports whether a Test function of the exercise's test cells uses
// name.
func graded(nb *Notebook, ex *Exercise, name string) bool {
	for _, ci := range ex.Cells {
		if t, _ := testsUsing(toGo(nb.Cells[ci].Source()).src, name); len(t) > 0 {
			return true
		}
	}
	return false
}

// target is a library identifier "pkg.Func" or "pkg.Type.Method".
type target struct{ pkg, typ, name string }

func parseTarget(s string) (target, error) {
	p := strings.Split(s, ".")
	switch len(p) {
	case 2:
		return target{pkg: p[0], name: p[1]}, nil
	case 3:
		return target{pkg: p[0], typ: p[1], name: p[2]}, nil
	}
	return target{}, fmt.Errorf("graded_against %q: want pkg.Func or pkg.Type.Method", s)
}

// mentions reports whether node n refers to t: pkg.Func as a selector on the
// package, a method by its name on any value (the value's type is not known
// without type-checking the notebook).
func (t target) mentions(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		sel, ok := m.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != t.name {
			return !found
		}
		if t.typ != "" {
			found = true
		} else if x, ok := sel.X.(*ast.Ident); ok && x.Name == t.pkg {
			found = true
		}
		return !found
	})
	return found
}

func testsMention(nb *Notebook, ex *Exercise, s string) bool {
	t, err := parseTarget(s)
	if err != nil {
		return false
	}
	for _, ci := range ex.Cells {
		f, err := parser.ParseFile(token.NewFileSet(), "t.go", toGo(nb.Cells[ci].Source()).src, 0)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && slices.Contains(ex.Tests, fd.Name.Name) && t.mentions(fd) {
				return true
			}
		}
	}
	return false
}

// solutionCallsTarget rejects a solution region that uses the library
// function its exercise is graded against.
func (ex *Exercise) solutionCallsTarget(src string) error {
	fs := token.NewFileSet()
	f, err := parser.ParseFile(fs, "cell.go", toGo(src).src, 0)
	if err != nil {
		return err
	}
	for _, r := range ex.regions {
		if r.fn == "" {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != r.fn {
				continue
			}
			for name, s := range ex.Graded {
				if name != r.fn {
					continue
				}
				t, err := parseTarget(s)
				if err != nil {
					return err
				}
				if t.mentions(fd.Body) {
					return fmt.Errorf("the solution of %s uses %s, the function it is graded against: write it from the statement instead", r.fn, s)
				}
			}
		}
	}
	return nil
}

// missingNames returns the names that src (a cell) does not declare.
func missingNames(src string, names []string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "w.go", toGo(src).src, 0)
	if err != nil {
		return []string{"anything (it does not parse: " + err.Error() + ")"}
	}
	decl := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			decl[d.Name.Name] = true
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if vs, ok := s.(*ast.ValueSpec); ok {
					for _, n := range vs.Names {
						decl[n.Name] = true
					}
				}
			}
		}
	}
	var out []string
	for _, n := range names {
		if !decl[n] {
			out = append(out, n)
		}
	}
	return out
}

// StudentSource returns the exercise cell's source with every region
// replaced by its stub.
func (ex Exercise) StudentSource(src string) string {
	lines := strings.Split(src, "\n")
	var out []string
	prev := 0
	for _, r := range ex.regions {
		out = append(out, lines[prev:r.begin]...)
		if r.fn != "" {
			out = append(out, r.indent+"// Your code here.", r.indent+FuncStub)
		} else {
			for _, v := range r.vars {
				if r.group {
					out = append(out, r.indent+v+" = "+AnswerStub)
				} else {
					out = append(out, r.indent+"var "+v+" = "+AnswerStub)
				}
			}
		}
		prev = r.end + 1
	}
	out = append(out, lines[prev:]...)
	return strings.Join(out, "\n")
}
