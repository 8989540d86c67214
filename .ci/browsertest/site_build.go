package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Debian's copies of the scripts nbconvert's HTML loads (libjs-mathjax,
// libjs-requirejs, libjs-jquery), and where the site keeps them, relative
// to its root (every page is at the root, so these are the pages' URLs too).
const (
	debianMathJax  = "/usr/share/javascript/mathjax"
	debianRequire  = "/usr/share/javascript/requirejs/require.min.js"
	debianJQuery   = "/usr/share/javascript/jquery/jquery.min.js"
	siteMathJaxDir = "mathjax"
	siteRequire    = "require.min.js"
	siteJQuery     = "jquery.min.js"
	// siteMathJaxURL keeps the configuration Debian's nbconvert asks for
	// (HTMLExporter.mathjax_url's default, file:///usr/share/javascript/
	// mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe), served from the site.
	siteMathJaxURL = siteMathJaxDir + "/MathJax.js?config=TeX-AMS_CHTML-full,Safe"
	// The pinned echarts copy (.ci/fetch-echarts), at the first of the
	// places dpb/plot's loader tries relative to the page
	// (plot.EChartsLibraryURLs), so no page reaches outside the site.
	echartsSrc  = "notebooks/third_party/echarts"
	echartsSite = "third_party/echarts"
	// startNotebook holds the course path (its "**A course path**" list).
	startNotebook = "00_start_here"
	// indexPage is the paper-to-code index, as a page of the site.
	indexPage = "paper-to-code"
)

// noIcon declares that a page has no icon.
const noIcon = `<link rel="icon" href="data:,">`

type buildConfig struct {
	repo, out  string
	mathjax    string // a file listing the MathJax subset, or "all"
	debianURLs bool   // the control: Debian's default (file://) URLs
	jupyter    string
}

func siteBuildCmd(args []string) error {
	fs := flag.NewFlagSet("site build", flag.ContinueOnError)
	var c buildConfig
	fs.StringVar(&c.repo, "repo", ".", "repository root")
	fs.StringVar(&c.out, "out", "", "the site's folder (replaced)")
	fs.StringVar(&c.mathjax, "mathjax", ".ci/site-mathjax.txt", `the MathJax files to copy (one path under `+debianMathJax+` a line, from "site check -mathjax-requests"), or "all"`)
	fs.BoolVar(&c.debianURLs, "debian-urls", false, "keep Debian's default file:// URLs for MathJax, require.js and jQuery (the control)")
	fs.StringVar(&c.jupyter, "jupyter", "/usr/bin/jupyter", "jupyter binary (Debian's)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if c.out == "" {
		return usagef("site build: -out is required")
	}
	sum, err := siteBuild(c)
	if err != nil {
		return err
	}
	fmt.Print(sum)
	return nil
}

// courseStep is one numbered item of the start notebook's course path.
type courseStep struct {
	Title     string   // its *emphasised* lead
	Text      string   // its markdown, the lead removed
	Notebooks []string // the notebooks it names first, in order
}

var (
	courseItemRE  = regexp.MustCompile(`^(\d+)\.\s+(.*)$`)
	courseLeadRE  = regexp.MustCompile(`^\*([^*]+)\*:?\s*`)
	backtickRE    = regexp.MustCompile("`([^`]+)`")
	courseMarker  = "**A course path**"
	notebookTitle = regexp.MustCompile(`(?m)^#\s+(.+)$`)
)

// courseOrder reads the course path from the start notebook's markdown: the
// numbered list after "**A course path**". Each step's notebooks are the
// names in backquotes that are notebooks (first mention wins), the start
// notebook first in step 1. It fails when a notebook of all is not on the
// path, so the site never drops one silently.
func courseOrder(start []byte, all []string) ([]courseStep, error) {
	var nb struct {
		Cells []struct {
			Type   string          `json:"cell_type"`
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(start, &nb); err != nil {
		return nil, fmt.Errorf("%s: %w", startNotebook, err)
	}
	known := map[string]bool{}
	for _, n := range all {
		known[n] = true
	}
	var steps []courseStep
	for _, c := range nb.Cells {
		src := cellSource(c.Source)
		if c.Type != "markdown" || !strings.Contains(src, courseMarker) {
			continue
		}
		lines := strings.Split(src[strings.Index(src, courseMarker):], "\n")[1:]
		for _, l := range lines {
			switch m := courseItemRE.FindStringSubmatch(l); {
			case m != nil:
				steps = append(steps, courseStep{Text: m[2]})
			case len(steps) > 0 && strings.TrimSpace(l) != "" && (l[0] == ' ' || l[0] == '\t'):
				steps[len(steps)-1].Text += " " + strings.TrimSpace(l)
			case len(steps) > 0 && strings.TrimSpace(l) == "":
				goto done
			}
		}
	done:
		break
	}
	if len(steps) == 0 {
		return nil, fmt.Errorf("%s: no numbered list after %q (the course path)", startNotebook, courseMarker)
	}
	seen := map[string]bool{startNotebook: true}
	steps[0].Notebooks = []string{startNotebook}
	for i := range steps {
		s := &steps[i]
		if m := courseLeadRE.FindStringSubmatch(s.Text); m != nil {
			s.Title = m[1]
			s.Text = s.Text[len(m[0]):]
		}
		// On the index, "this notebook" is the start notebook.
		s.Text = strings.ReplaceAll(s.Text, "this notebook", "`"+startNotebook+"`")
		for _, m := range backtickRE.FindAllStringSubmatch(s.Text, -1) {
			if known[m[1]] && !seen[m[1]] {
				seen[m[1]] = true
				s.Notebooks = append(s.Notebooks, m[1])
			}
		}
	}
	var missing []string
	for _, n := range all {
		if !seen[n] {
			missing = append(missing, n)
		}
	}
	if !known[startNotebook] {
		missing = append(missing, startNotebook+" (the start notebook itself is not among the notebooks)")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s's course path does not name %s: add each to a step, or the site would leave it out", startNotebook, strings.Join(missing, ", "))
	}
	return steps, nil
}

// cellSource joins a notebook cell's source (a string or a list of lines).
func cellSource(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var ls []string
	_ = json.Unmarshal(raw, &ls)
	return strings.Join(ls, "")
}

// notebookInfo is what the site needs of one notebook file.
type notebookInfo struct {
	Title  string
	Charts int // metadata "dpb": {"charts": N}
	Maths  int // maths spans in its markdown ($…$, $$…$$, \(…\), \[…\])
}

var mathSpanRE = regexp.MustCompile(`\$\$[^$]+\$\$|\$[^$\n]+\$|\\\([\s\S]+?\\\)|\\\[[\s\S]+?\\\]`)

func readNotebookInfo(data []byte) (notebookInfo, error) {
	var nb struct {
		Cells []struct {
			Type   string          `json:"cell_type"`
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
		Metadata struct {
			DPB struct {
				Charts int `json:"charts"`
			} `json:"dpb"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return notebookInfo{}, err
	}
	info := notebookInfo{Charts: nb.Metadata.DPB.Charts}
	for _, c := range nb.Cells {
		if c.Type != "markdown" {
			continue
		}
		src := cellSource(c.Source)
		if info.Title == "" {
			if m := notebookTitle.FindStringSubmatch(src); m != nil {
				info.Title = strings.TrimSpace(m[1])
			}
		}
		// Code spans and escaped dollars are not maths.
		src = backtickRE.ReplaceAllString(src, "")
		src = strings.ReplaceAll(src, `\$`, "")
		info.Maths += len(mathSpanRE.FindAllString(src, -1))
	}
	return info, nil
}

var attrURLRE = regexp.MustCompile(`(\s(?:href|src)=")([^"]*)(")`)

// rewriteLinks rewrites the relative links of a page converted from the file
// at repo path srcDir/…: a link to a notebook of the site goes to its page,
// the paper-to-code index to its page, any other file of the repository to
// repoURL (the site holds pages, not the source tree). Links it cannot place
// are left as they are, for the link checker to report.
func rewriteLinks(page []byte, srcDir string, pages map[string]bool, exists func(string) bool, repoURL string) []byte {
	return attrURLRE.ReplaceAllFunc(page, func(m []byte) []byte {
		sm := attrURLRE.FindSubmatch(m)
		v := html.UnescapeString(string(sm[2]))
		if v == "" || v[0] == '#' || v[0] == '/' || strings.Contains(strings.SplitN(v, "/", 2)[0], ":") {
			return m // an anchor, an absolute path or a URL with a scheme
		}
		p, frag, _ := strings.Cut(v, "#")
		if frag != "" {
			frag = "#" + frag
		}
		if strings.Contains(p, "?") {
			return m
		}
		target := path.Clean(path.Join(srcDir, p))
		var to string
		switch {
		case target == "docs/"+indexPage+".md":
			to = indexPage + ".html" + frag
		case strings.HasPrefix(target, "notebooks/") && strings.HasSuffix(target, ".ipynb") && pages[strings.TrimSuffix(path.Base(target), ".ipynb")]:
			to = strings.TrimSuffix(path.Base(target), ".ipynb") + ".html" + frag
		case !strings.HasPrefix(target, "..") && exists(target):
			to = repoURL + "/blob/main/" + target + frag
		default:
			return m
		}
		return []byte(string(sm[1]) + html.EscapeString(to) + string(sm[3]))
	})
}

// repositoryURL reads repository-code from CITATION.cff.
func repositoryURL(repo string) (string, error) {
	f, err := os.Open(filepath.Join(repo, "CITATION.cff"))
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "repository-code:"); ok {
			return strings.TrimSuffix(strings.Trim(strings.TrimSpace(v), `"`), "/"), nil
		}
	}
	return "", fmt.Errorf("CITATION.cff has no repository-code")
}

func siteBuild(c buildConfig) (string, error) {
	repo, err := filepath.Abs(c.repo)
	if err != nil {
		return "", err
	}
	out, err := filepath.Abs(c.out)
	if err != nil {
		return "", err
	}
	files, err := filepath.Glob(filepath.Join(repo, "notebooks", "*.ipynb"))
	if err != nil || len(files) == 0 {
		return "", fmt.Errorf("no notebooks in %s/notebooks", repo)
	}
	var names []string
	infos := map[string]notebookInfo{}
	pages := map[string]bool{}
	for _, f := range files {
		n := strings.TrimSuffix(filepath.Base(f), ".ipynb")
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		info, err := readNotebookInfo(data)
		if err != nil {
			return "", fmt.Errorf("%s: %w", f, err)
		}
		names = append(names, n)
		infos[n] = info
		pages[n] = true
	}
	startData, err := os.ReadFile(filepath.Join(repo, "notebooks", startNotebook+".ipynb"))
	if err != nil {
		return "", err
	}
	steps, err := courseOrder(startData, names)
	if err != nil {
		return "", err
	}
	repoURL, err := repositoryURL(repo)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(repo, echartsSrc, "echarts.min.js")); err != nil {
		return "", fmt.Errorf("the pinned echarts copy is missing (%v): run .ci/fetch-echarts", err)
	}

	if err := replaceable(out, repo); err != nil {
		return "", err
	}
	if err := os.RemoveAll(out); err != nil {
		return "", err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	// The paper-to-code index becomes a one-cell notebook, converted like
	// the others (same look, same MathJax).
	tmp, err := os.MkdirTemp("", "site-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	md, err := os.ReadFile(filepath.Join(repo, "docs", indexPage+".md"))
	if err != nil {
		return "", err
	}
	idxNB, _ := json.MarshalIndent(map[string]any{
		"cells":    []any{map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": string(md)}},
		"metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 4,
	}, "", " ")
	idxPath := filepath.Join(tmp, indexPage+".ipynb")
	if err := os.WriteFile(idxPath, idxNB, 0o644); err != nil {
		return "", err
	}
	mathjaxURL := "file://" + debianMathJax + "/MathJax.js?config=TeX-AMS_CHTML-full,Safe"
	nbArgs := []string{"nbconvert", "--to", "html", "--output-dir", out}
	if !c.debianURLs {
		mathjaxURL = siteMathJaxURL
		nbArgs = append(nbArgs, "--HTMLExporter.mathjax_url="+siteMathJaxURL,
			"--HTMLExporter.require_js_url="+siteRequire,
			"--HTMLExporter.jquery_url="+siteJQuery)
	}
	nbArgs = append(nbArgs, files...)
	nbArgs = append(nbArgs, idxPath)
	cmd := exec.Command(c.jupyter, nbArgs...)
	cmd.Dir = repo
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("nbconvert: %v\n%s", err, log.String())
	}
	exists := func(p string) bool { _, err := os.Stat(filepath.Join(repo, p)); return err == nil }
	rewrite := func(name, srcDir string) error {
		p := filepath.Join(out, name+".html")
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b = rewriteLinks(b, srcDir, pages, exists, repoURL)
		// The site's own icon (none), or the browser asks the host's root
		// for /favicon.ico, outside the site.
		b = bytes.Replace(b, []byte("<meta charset=\"utf-8\" />"), []byte("<meta charset=\"utf-8\" />\n"+noIcon), 1)
		return os.WriteFile(p, b, 0o644)
	}
	for _, n := range names {
		if err := rewrite(n, "notebooks"); err != nil {
			return "", err
		}
		// The notebook beside its page, to download.
		if err := copyFile(filepath.Join(repo, "notebooks", n+".ipynb"), filepath.Join(out, n+".ipynb")); err != nil {
			return "", err
		}
	}
	if err := rewrite(indexPage, "docs"); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(out, "index.html"), indexHTML(steps, infos, mathjaxURL), 0o644); err != nil {
		return "", err
	}
	// echarts is needed in both builds (the control differs in the URLs only).
	for _, f := range []string{"echarts.min.js", "LICENSE"} {
		if err := copyFile(filepath.Join(repo, echartsSrc, f), filepath.Join(out, echartsSite, f)); err != nil {
			return "", err
		}
	}
	var sum strings.Builder
	mjFiles, mjBytes := 0, int64(0)
	if !c.debianURLs {
		for _, a := range [][2]string{{debianRequire, siteRequire}, {debianJQuery, siteJQuery}} {
			if err := copyFile(a[0], filepath.Join(out, a[1])); err != nil {
				return "", err
			}
		}
		mjFiles, mjBytes, err = copyMathJax(repo, c.mathjax, filepath.Join(out, siteMathJaxDir))
		if err != nil {
			return "", err
		}
	}
	total, count := dirSize(out)
	fmt.Fprintf(&sum, "site: %d notebook pages in course order (%d steps), %s.html, index.html; %d files, %.1f MB, in %s\n",
		len(names), len(steps), indexPage, count, float64(total)/1e6, out)
	if c.debianURLs {
		fmt.Fprintf(&sum, "site: built with Debian's default URLs (file://%s/…): the control\n", filepath.Dir(debianMathJax))
	} else {
		fmt.Fprintf(&sum, "site: MathJax subset %d files, %.2f MB (of %s)\n", mjFiles, float64(mjBytes)/1e6, debianMathJax)
	}
	return sum.String(), nil
}

// replaceable refuses an output folder the build must not delete: the
// repository or a folder holding it, or a non-empty folder that is not a
// site built before (no index.html).
func replaceable(out, repo string) error {
	if rel, err := filepath.Rel(out, repo); err == nil && !strings.HasPrefix(rel, "..") {
		return fmt.Errorf("-out %s holds the repository: refusing to replace it", out)
	}
	entries, err := os.ReadDir(out)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		return fmt.Errorf("-out %s is a non-empty folder without index.html, not a site built before: refusing to replace it", out)
	}
	return nil
}

// copyMathJax copies the files of list (or all of MathJax) into dst.
func copyMathJax(repo, list, dst string) (int, int64, error) {
	var rels []string
	if list == "all" {
		err := filepath.WalkDir(debianMathJax, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				r, _ := filepath.Rel(debianMathJax, p)
				rels = append(rels, r)
			}
			return nil
		})
		if err != nil {
			return 0, 0, err
		}
	} else {
		if !filepath.IsAbs(list) {
			list = filepath.Join(repo, list)
		}
		b, err := os.ReadFile(list)
		if err != nil {
			return 0, 0, err
		}
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				if strings.Contains(l, "..") || filepath.IsAbs(l) {
					return 0, 0, fmt.Errorf("%s: %q is not a path under %s", list, l, debianMathJax)
				}
				rels = append(rels, l)
			}
		}
	}
	var n int64
	for _, r := range rels {
		if err := copyFile(filepath.Join(debianMathJax, r), filepath.Join(dst, r)); err != nil {
			return 0, 0, err
		}
		st, _ := os.Stat(filepath.Join(dst, r))
		n += st.Size()
	}
	return len(rels), n, nil
}

// copyFile copies src (following symbolic links) to dst, making dst's folder.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	o, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(o, in); err != nil {
		o.Close()
		return err
	}
	return o.Close()
}

func dirSize(dir string) (int64, int) {
	var n int64
	count := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if st, err := d.Info(); err == nil {
				n += st.Size()
				count++
			}
		}
		return nil
	})
	return n, count
}

// inlineMarkdown renders the little markdown of a course step: `code` (a
// link when it names a page), *emphasis*; maths stays for MathJax.
func inlineMarkdown(s string, infos map[string]notebookInfo) string {
	var b strings.Builder
	last := 0
	for _, m := range backtickRE.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(emphasis(html.EscapeString(s[last:m[0]])))
		name := s[m[2]:m[3]]
		if _, ok := infos[name]; ok {
			fmt.Fprintf(&b, `<a href="%s.html"><code>%s</code></a>`, name, html.EscapeString(name))
		} else {
			fmt.Fprintf(&b, `<code>%s</code>`, html.EscapeString(name))
		}
		last = m[1]
	}
	b.WriteString(emphasis(html.EscapeString(s[last:])))
	return b.String()
}

var emphasisRE = regexp.MustCompile(`\*([^*\s][^*]*)\*`)

func emphasis(s string) string { return emphasisRE.ReplaceAllString(s, "<em>$1</em>") }

// indexHTML is the site's front page: the course path's steps, each with its
// notebooks' pages and files.
func indexHTML(steps []courseStep, infos map[string]notebookInfo, mathjaxURL string) []byte {
	var b bytes.Buffer
	b.WriteString(`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8">
` + noIcon + `
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>dpbandits: the course</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 52em; margin: 2em auto; padding: 0 1em; line-height: 1.5; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
ol.nbs { padding-left: 1.4em; } ol.nbs li { margin: 0.3em 0; }
.file { font-size: 0.85em; color: #555; } code { font-size: 0.95em; }
</style>
<script type="text/x-mathjax-config">
MathJax.Hub.Config({tex2jax: {inlineMath: [['$','$'], ['\\(','\\)']], displayMath: [['$$','$$'], ['\\[','\\]']], processEscapes: true}});
</script>
<script src="` + html.EscapeString(mathjaxURL) + `"></script>
</head>
<body>
<h1>dpbandits: differentially private bandits, a course in notebooks</h1>
<p>The project's GoNB notebooks as pages, with their outputs, in the order of the course path of
<a href="` + startNotebook + `.html"><code>` + startNotebook + `</code></a>. Each notebook's <code>.ipynb</code> is beside its page,
to run in Jupyter with the GoNB kernel (docs/notebooks.md in the repository). The
<a href="` + indexPage + `.html">paper-to-code index</a> maps each statement of the three papers to its function, check
verdicts and notebook section.</p>
`)
	n := 0
	for i, s := range steps {
		fmt.Fprintf(&b, "<h2>%d. %s</h2>\n<p>%s</p>\n<ol class=\"nbs\" start=\"%d\">\n", i+1, html.EscapeString(s.Title), inlineMarkdown(s.Text, infos), n+1)
		for _, nb := range s.Notebooks {
			n++
			title := infos[nb].Title
			if title == "" {
				title = nb
			}
			fmt.Fprintf(&b, "<li><a href=\"%s.html\">%s</a> <span class=\"file\">(<a href=\"%s.ipynb\" download>%s.ipynb</a>)</span></li>\n",
				nb, inlineMarkdown(title, nil), nb, nb)
		}
		b.WriteString("</ol>\n")
	}
	b.WriteString("</body>\n</html>\n")
	return b.Bytes()
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
