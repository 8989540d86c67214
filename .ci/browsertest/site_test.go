package main

import (
	"encoding/json"
	"image"
	"image/color"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// startNB is a notebook whose markdown holds a course path, as 00_start_here's.
func startNB(t *testing.T, path string) []byte {
	t.Helper()
	nb := map[string]any{"cells": []any{
		map[string]any{"cell_type": "markdown", "source": []string{"# Start\n"}},
		map[string]any{"cell_type": "markdown", "source": path},
	}}
	b, err := json.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const coursePath = "Intro.\n\n**A course path** (for a reader):\n\n" +
	"1. *One release*: this notebook, then `b_two` (and `dpb/x.go`).\n" +
	"2. *Trees*: `c_three`,\n   `b_two` again, `a_one`.\n\nAfter the list: `d_four`.\n"

func TestCourseOrder(t *testing.T) {
	all := []string{"00_start_here", "a_one", "b_two", "c_three"}
	steps, err := courseOrder(startNB(t, coursePath), all)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range steps {
		got = append(got, s.Title+":"+strings.Join(s.Notebooks, ","))
	}
	want := "One release:00_start_here,b_two|Trees:c_three,a_one"
	if strings.Join(got, "|") != want {
		t.Errorf("steps %q, want %q", strings.Join(got, "|"), want)
	}
	// Planted defect: a notebook the path does not name (d_four is only
	// mentioned after the list) must stop the build.
	_, err = courseOrder(startNB(t, coursePath), append(all, "d_four"))
	if err == nil || !strings.Contains(err.Error(), "d_four") {
		t.Errorf("a notebook left off the path: err = %v, want one naming d_four", err)
	}
	if _, err := courseOrder(startNB(t, "no path here"), all); err == nil {
		t.Error("a start notebook without a course path gave no error")
	}
}

// TestCourseOrderRepository: the committed 00_start_here names every
// committed notebook, starting with itself.
func TestCourseOrderRepository(t *testing.T) {
	b, err := os.ReadFile("../../notebooks/00_start_here.ipynb")
	if err != nil {
		t.Skip("no repository around:", err)
	}
	files, _ := os.ReadDir("../../notebooks")
	var all []string
	for _, f := range files {
		if n, ok := strings.CutSuffix(f.Name(), ".ipynb"); ok {
			all = append(all, n)
		}
	}
	steps, err := courseOrder(b, all)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range steps {
		n += len(s.Notebooks)
	}
	if n != len(all) || steps[0].Notebooks[0] != startNotebook {
		t.Errorf("%d notebooks on the path of %d, first %q", n, len(all), steps[0].Notebooks[0])
	}
}

func TestRewriteLinks(t *testing.T) {
	pages := map[string]bool{"a_one": true}
	exists := func(p string) bool { return p == "dpb/x.go" || p == "docs/checks.md" }
	in := `<a href="../docs/paper-to-code.md">i</a> <a href="../docs/paper-to-code.md#SS18">s</a> <a href="a_one.ipynb#Sec">n</a>` +
		` <a href="../dpb/x.go">c</a> <a href="../notebooks/gone.ipynb">g</a> <a href="#top">t</a> <a href="https://x.org/a">e</a>` +
		` <script src="require.min.js"></script>`
	got := string(rewriteLinks([]byte(in), "notebooks", pages, exists, "https://github.com/o/r"))
	for _, w := range []string{`href="paper-to-code.html"`, `href="paper-to-code.html#SS18"`, `href="a_one.html#Sec"`,
		`href="https://github.com/o/r/blob/main/dpb/x.go"`, `href="../notebooks/gone.ipynb"`, `href="#top"`, `href="https://x.org/a"`, `src="require.min.js"`} {
		if !strings.Contains(got, w) {
			t.Errorf("rewritten page lacks %s:\n%s", w, got)
		}
	}
	// From docs/: a sibling document goes to the repository.
	got = string(rewriteLinks([]byte(`<a href="checks.md">c</a>`), "docs", pages, exists, "https://github.com/o/r"))
	if !strings.Contains(got, `href="https://github.com/o/r/blob/main/docs/checks.md"`) {
		t.Errorf("docs link: %s", got)
	}
}

func TestReadNotebookInfo(t *testing.T) {
	nb := `{"metadata": {"dpb": {"charts": 2}}, "cells": [
	 {"cell_type": "markdown", "source": ["# Title with $x$ and ` + "`code`" + `\n", "Cost \\$5, code ` + "`$a$`" + `, and $$y^2$$ and \\(z\\).\n"]},
	 {"cell_type": "code", "source": "fmt.Println(\"$q$\")"}]}`
	info, err := readNotebookInfo([]byte(nb))
	if err != nil {
		t.Fatal(err)
	}
	if info.Title != "Title with $x$ and `code`" || info.Charts != 2 || info.Maths != 3 {
		t.Errorf("info %+v, want title, 2 charts, 3 formulas", info)
	}
}

// TestLinkChecker: the checker's verdicts on a served site, each kind of
// broken link among them (each check must be able to fail).
func TestLinkChecker(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc(sitePrefix+"a.html", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<h2 id="Sec-%E2%89%88-1">x</h2><a name="old"></a>`))
	})
	mux.HandleFunc(sitePrefix+"b.html", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<p>the page; its ids as the browser has them are self</p>`))
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()
	base := ts.URL + sitePrefix
	lc := newLinkChecker(base)
	self := map[string]bool{"here": true}
	page := base + "b.html"
	for _, c := range []struct {
		link string
		kind string
		bad  bool
	}{
		{base + "a.html", "internal", false},
		{base + "a.html#Sec-%E2%89%88-1", "internal", false}, // as nbconvert writes heading ids
		{base + "a.html#old", "internal", false},
		{page + "#here", "internal", false},
		{base + "missing.html", "internal", true},
		{base + "a.html#nope", "internal", true},
		{page + "#nope", "internal", true},
		{ts.URL + "/docs/paper-to-code.md", "", true}, // climbs out of the root
		{"file:///usr/share/javascript/mathjax/MathJax.js", "", true},
		{"https://example.org/x", "external", false},
		{"data:,", "skip", false},
	} {
		kind, problem := lc.classify(c.link)
		if kind != c.kind {
			t.Errorf("%s: kind %q, want %q", c.link, kind, c.kind)
			continue
		}
		if kind == "internal" {
			problem = lc.check(c.link, page, self)
		}
		if (problem != "") != c.bad {
			t.Errorf("%s: problem %q, want bad=%v", c.link, problem, c.bad)
		}
	}
}

func TestCropBand(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 4, 6))
	for y := range 6 {
		for x := range 4 {
			img.Set(x, y, color.RGBA{uint8(40 * y), 0, 0, 255})
		}
	}
	got, err := cropBand(img, 2, 10, false)
	if err != nil || got.Bounds().Dx() != 4 || got.Bounds().Dy() != 4 {
		t.Fatalf("crop: %v %v", got.Bounds(), err)
	}
	if r, _, _, _ := got.At(0, 0).RGBA(); r>>8 != 80 {
		t.Errorf("first row of the band has red %d, want 80", r>>8)
	}
	half, err := cropBand(img, 0, 6, true)
	if err != nil || half.Bounds().Dx() != 2 || half.Bounds().Dy() != 3 {
		t.Fatalf("half: %v %v", half.Bounds(), err)
	}
	if r, _, _, _ := half.At(0, 1).RGBA(); r>>8 != 100 { // mean of rows 2 and 3: 80, 120
		t.Errorf("halved pixel red %d, want 100", r>>8)
	}
	if _, err := cropBand(img, 6, 1, false); err == nil {
		t.Error("a band below the image gave no error")
	}
}

// TestReplaceable: the build replaces a folder only when it is empty, absent
// or a site built before, and never the repository or a folder holding it.
func TestReplaceable(t *testing.T) {
	dir := t.TempDir()
	repo := dir + "/repo"
	for _, d := range []string{repo, dir + "/site", dir + "/other", dir + "/empty"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(dir+"/site/index.html", nil, 0o644)
	os.WriteFile(dir+"/other/notes.txt", nil, 0o644)
	for _, c := range []struct {
		out string
		ok  bool
	}{
		{dir + "/site", true}, {dir + "/empty", true}, {dir + "/absent", true},
		{dir + "/other", false}, {repo, false}, {dir, false},
	} {
		if err := replaceable(c.out, repo); (err == nil) != c.ok {
			t.Errorf("replaceable(%s) = %v, want ok=%v", c.out, err, c.ok)
		}
	}
}
