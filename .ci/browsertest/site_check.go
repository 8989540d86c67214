package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// sitePrefix is where the test serves a site: under a path, not at the
// host's root, so that a URL climbing out of the site ("../notebooks/…",
// "/files/…") is outside the root even on the same host.
const sitePrefix = "/course/"

type checkConfig struct {
	out          string
	sites        listFlag
	controls     listFlag
	mathjaxReqs  string
	chromium     string
	parallel     int
	width        int
	pageTimeout  time.Duration
	settleWindow time.Duration
	screenshots  bool
}

func siteCheckCmd(args []string) error {
	fs := flag.NewFlagSet("site check", flag.ContinueOnError)
	var c checkConfig
	fs.StringVar(&c.out, "out", ".ci/out/site", "output folder: screenshots/ (one PNG per page of each -site) and report.json")
	fs.Var(&c.sites, "site", "a built site that must pass (repeatable)")
	fs.Var(&c.controls, "control", "a built site that must fail (repeatable)")
	fs.StringVar(&c.mathjaxReqs, "mathjax-requests", "", "write the MathJax files the -site pages requested, one a line (the subset for site build -mathjax)")
	fs.StringVar(&c.chromium, "chromium", "chromium", "browser binary")
	fs.IntVar(&c.parallel, "parallel", 2, "pages open at once")
	fs.IntVar(&c.width, "width", 1200, "window width (px)")
	fs.DurationVar(&c.pageTimeout, "timeout", 180*time.Second, "time limit per page")
	fs.DurationVar(&c.settleWindow, "settle", 60*time.Second, "how long a page's maths and charts may take to finish after its load event")
	fs.BoolVar(&c.screenshots, "screenshots", true, "save a full-page screenshot of every page of each -site")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if len(c.sites)+len(c.controls) == 0 {
		return usagef("site check: no -site or -control given")
	}
	if c.parallel < 1 || c.width < 200 || c.pageTimeout <= 0 || c.settleWindow <= 0 {
		return usagef("site check: -parallel ≥ 1, -width ≥ 200, -timeout and -settle > 0")
	}
	return siteCheck(c)
}

// noMathJaxFonts is a fontconfig file: the system's fonts but MathJax's.
const noMathJaxFonts = `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <selectfont><rejectfont><glob>*MathJax_*</glob></rejectfont></selectfont>
</fontconfig>
`

// siteServer serves one site under sitePrefix on 127.0.0.1 and records
// every request that found nothing or was outside the site.
type siteServer struct {
	base     string // http://127.0.0.1:PORT/course/
	srv      *http.Server
	mu       sync.Mutex
	missing  []string // 404s under the root
	outside  []string // requests outside sitePrefix
	requests int
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func serveSite(dir string) (*siteServer, error) {
	if st, err := os.Stat(filepath.Join(dir, "index.html")); err != nil || st.IsDir() {
		return nil, fmt.Errorf("%s is not a built site (no index.html)", dir)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &siteServer{base: "http://" + l.Addr().String() + sitePrefix}
	files := http.StripPrefix(sitePrefix[:len(sitePrefix)-1], http.FileServer(http.Dir(dir)))
	s.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests++
		s.mu.Unlock()
		if !strings.HasPrefix(r.URL.Path, sitePrefix) {
			s.mu.Lock()
			s.outside = append(s.outside, r.URL.String())
			s.mu.Unlock()
			http.NotFound(w, r)
			return
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		files.ServeHTTP(rec, r)
		if rec.status >= 400 {
			s.mu.Lock()
			s.missing = append(s.missing, fmt.Sprintf("%d %s", rec.status, r.URL.Path))
			s.mu.Unlock()
		}
	})}
	go func() { _ = s.srv.Serve(l) }()
	return s, nil
}

// pageResult is what one page showed.
type pageResult struct {
	Page           string   `json:"page"`
	Problems       []string `json:"problems,omitempty"`
	MathsSource    int      `json:"maths_in_source"`
	MathsRendered  int      `json:"maths_rendered"`
	ChartsDeclared int      `json:"charts_declared"`
	ChartsDrawn    int      `json:"charts_drawn"`
	FirstChartY    int      `json:"first_chart_y,omitempty"`
	Images         int      `json:"images"`
	Links          int      `json:"links_internal"`
	External       int      `json:"links_external"`
	Requests       int      `json:"requests"`
	Screenshot     string   `json:"screenshot,omitempty"`
	Seconds        float64  `json:"seconds"`
	mathjax        []string // MathJax files requested, relative to mathjax/
}

// siteResult is one site's verdict.
type siteResult struct {
	Dir       string       `json:"dir"`
	Control   bool         `json:"control"`
	Pages     []pageResult `json:"pages"`
	Problems  []string     `json:"problems,omitempty"` // site-wide: 404s, requests outside the root
	Requests  int          `json:"requests_served"`
	Seconds   float64      `json:"seconds"`
	LinkCount int          `json:"links_checked"`
	Skipped   int          `json:"pages_not_opened,omitempty"` // a control's pages after its first failure
}

func (r siteResult) failed() bool {
	if len(r.Problems) > 0 {
		return true
	}
	for _, p := range r.Pages {
		if len(p.Problems) > 0 {
			return true
		}
	}
	return false
}

func siteCheck(c checkConfig) error {
	out, err := filepath.Abs(c.out)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, "screenshots"), 0o755); err != nil {
		return err
	}
	profile, err := os.MkdirTemp("", "browsertest-site-chromium-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)
	// The reader's machine has no MathJax fonts installed: hide the system's
	// (Debian's fonts-mathjax), or Chromium takes them through MathJax's
	// local() sources and never requests the site's web fonts.
	fontsConf := filepath.Join(profile, "fonts.conf")
	if err := os.WriteFile(fontsConf, []byte(noMathJaxFonts), 0o644); err != nil {
		return err
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(c.chromium),
		chromedp.Env("FONTCONFIG_FILE="+fontsConf),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(c.width, 1000),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
	)
	defer cancelAlloc()
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	if err := chromedp.Do(browserCtx); err != nil {
		return fmt.Errorf("starting %s: %w", c.chromium, err)
	}
	type job struct {
		dir     string
		control bool
	}
	var jobs []job
	for _, d := range c.sites {
		jobs = append(jobs, job{d, false})
	}
	for _, d := range c.controls {
		jobs = append(jobs, job{d, true})
	}
	var results []siteResult
	var bad []string
	mathjax := map[string]bool{}
	for _, j := range jobs {
		shots := ""
		if !j.control && c.screenshots {
			shots = filepath.Join(out, "screenshots")
		}
		r, err := checkSite(browserCtx, c, j.dir, shots, j.control, mathjax)
		if err != nil {
			return err
		}
		r.Control = j.control
		results = append(results, r)
		printSite(r)
		if r.failed() != j.control {
			bad = append(bad, j.dir)
		}
	}
	rep, _ := json.MarshalIndent(results, "", " ")
	if err := os.WriteFile(filepath.Join(out, "report.json"), rep, 0o644); err != nil {
		return err
	}
	if c.mathjaxReqs != "" {
		list := sortedKeys(mathjax)
		body := "# The MathJax files (under " + debianMathJax + ") the course site's pages request in headless Chromium:\n" +
			"# written by .ci/site --measure (browsertest site check -mathjax-requests), read by site build -mathjax.\n" +
			strings.Join(list, "\n") + "\n"
		if err := os.WriteFile(c.mathjaxReqs, []byte(body), 0o644); err != nil {
			return err
		}
		fmt.Printf("MathJax files requested: %d, written to %s\n", len(list), c.mathjaxReqs)
	}
	fmt.Printf("site check: %d of %d sites as expected", len(jobs)-len(bad), len(jobs))
	if len(bad) > 0 {
		fmt.Printf("; NOT as expected: %s\n", strings.Join(bad, " "))
		return fmt.Errorf("%d site(s) not as expected", len(bad))
	}
	fmt.Println()
	return nil
}

func printSite(r siteResult) {
	kind := "site"
	if r.Control {
		kind = "control"
	}
	status := "ok"
	switch {
	case r.Control && r.failed():
		status = "failed as expected (control)"
	case r.Control:
		status = "CONTROL PASSED (it must fail)"
	case r.failed():
		status = "FAILED"
	}
	skipped := ""
	if r.Skipped > 0 {
		skipped = fmt.Sprintf(", %d more not opened", r.Skipped)
	}
	fmt.Printf("== %s %s: %s (%d pages%s, %d internal links checked, %d requests served, %.0f s)\n", kind, r.Dir, status, len(r.Pages), skipped, r.LinkCount, r.Requests, r.Seconds)
	for _, p := range r.Pages {
		st := "ok"
		if len(p.Problems) > 0 {
			st = fmt.Sprintf("%d problem(s)", len(p.Problems))
		}
		fmt.Printf("%-28s %-14s maths %3d/%-3d charts %d/%d  images %2d  links %3d (+%d external)  requests %3d  %4.1fs\n",
			p.Page, st, p.MathsRendered, p.MathsSource, p.ChartsDrawn, p.ChartsDeclared, p.Images, p.Links, p.External, p.Requests, p.Seconds)
		for i, pr := range p.Problems {
			if i == 8 && !strings.HasPrefix(status, "FAILED") {
				fmt.Printf("    … %d more\n", len(p.Problems)-i)
				break
			}
			fmt.Printf("    %s\n", pr)
		}
		if p.Screenshot != "" {
			fmt.Printf("    screenshot %s\n", p.Screenshot)
		}
	}
	for _, pr := range r.Problems {
		fmt.Printf("  site: %s\n", pr)
	}
}

// checkSite serves dir and checks each of its pages: index.html first, then
// every other *.html of its root in name order.
func checkSite(browserCtx context.Context, c checkConfig, dir, shots string, control bool, mathjax map[string]bool) (siteResult, error) {
	t0 := time.Now()
	abs, err := filepath.Abs(dir)
	if err != nil {
		return siteResult{}, err
	}
	srv, err := serveSite(abs)
	if err != nil {
		return siteResult{}, err
	}
	defer srv.srv.Close()
	htmls, _ := filepath.Glob(filepath.Join(abs, "*.html"))
	pages := []string{"index.html"}
	for _, h := range htmls {
		if b := filepath.Base(h); b != "index.html" {
			pages = append(pages, b)
		}
	}
	res := siteResult{Dir: dir, Pages: make([]pageResult, len(pages))}
	lc := newLinkChecker(srv.base)
	var wg sync.WaitGroup
	next := make(chan int, len(pages))
	for i := range pages {
		next <- i
	}
	close(next)
	// A control needs one failing page to be red: once one has failed, the
	// remaining pages of a control are not opened.
	var stop atomic.Bool
	checked := make([]bool, len(pages))
	for range c.parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if control && stop.Load() {
					continue
				}
				res.Pages[i] = checkPage(browserCtx, c, abs, srv, lc, pages[i], shots)
				checked[i] = true
				if len(res.Pages[i].Problems) > 0 {
					stop.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	var done []pageResult
	for i, p := range res.Pages {
		if checked[i] {
			done = append(done, p)
		}
	}
	res.Skipped = len(pages) - len(done)
	res.Pages = done
	for _, p := range res.Pages {
		for _, m := range p.mathjax {
			mathjax[m] = true
		}
	}
	srv.mu.Lock()
	for _, m := range srv.missing {
		res.Problems = append(res.Problems, "not found: "+m)
	}
	for _, o := range srv.outside {
		res.Problems = append(res.Problems, "request outside the site root: "+o)
	}
	res.Requests = srv.requests
	srv.mu.Unlock()
	res.LinkCount = lc.count()
	res.Seconds = time.Since(t0).Seconds()
	return res, nil
}

// linkChecker fetches each internal link's target once per site and checks
// fragments against the ids of the target page.
type linkChecker struct {
	base   string
	client *http.Client
	mu     sync.Mutex
	cache  map[string]*linkTarget
}

type linkTarget struct {
	once   sync.Once
	status int
	err    error
	ids    map[string]bool
}

func newLinkChecker(base string) *linkChecker {
	return &linkChecker{base: base, client: &http.Client{Timeout: 30 * time.Second}, cache: map[string]*linkTarget{}}
}

func (lc *linkChecker) count() int {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	return len(lc.cache)
}

var idAttrRE = regexp.MustCompile(`\s(?:id|name)="([^"]*)"`)

// pageIDs returns the id and name attributes of an HTML page.
func pageIDs(b []byte) map[string]bool {
	ids := map[string]bool{}
	for _, m := range idAttrRE.FindAllSubmatch(b, -1) {
		ids[html.UnescapeString(string(m[1]))] = true
	}
	return ids
}

func (lc *linkChecker) target(u string) *linkTarget {
	lc.mu.Lock()
	t, ok := lc.cache[u]
	if !ok {
		t = &linkTarget{}
		lc.cache[u] = t
	}
	lc.mu.Unlock()
	t.once.Do(func() {
		resp, err := lc.client.Get(u)
		if err != nil {
			t.err = err
			return
		}
		defer resp.Body.Close()
		t.status = resp.StatusCode
		if strings.HasSuffix(path.Ext(strings.SplitN(u, "?", 2)[0]), "html") && resp.StatusCode == http.StatusOK {
			b, _ := io.ReadAll(resp.Body)
			t.ids = pageIDs(b)
		} else {
			_, _ = io.Copy(io.Discard, resp.Body)
		}
	})
	return t
}

// classify sorts a resolved link: "skip" (data:, javascript:, …), "external"
// (another host, never requested by the test), or "" with a problem, or
// "internal".
func (lc *linkChecker) classify(abs string) (kind, problem string) {
	u, err := url.Parse(abs)
	if err != nil {
		return "", fmt.Sprintf("unparsable link %q: %v", abs, err)
	}
	b, _ := url.Parse(lc.base)
	switch u.Scheme {
	case "data", "javascript", "mailto", "about", "blob":
		return "skip", ""
	case "http", "https":
		if u.Host != b.Host {
			return "external", ""
		}
		if !strings.HasPrefix(u.Path, b.Path) {
			return "", fmt.Sprintf("link outside the site root: %s", abs)
		}
		return "internal", ""
	default:
		return "", fmt.Sprintf("link outside the site (%s:): %s", u.Scheme, abs)
	}
}

// check checks one internal link (resolved, with its fragment) found on the
// page whose own ids are self.
func (lc *linkChecker) check(abs, pageURL string, self map[string]bool) string {
	u, _ := url.Parse(abs)
	_, rawFrag, _ := strings.Cut(abs, "#")
	frag := u.Fragment
	u.Fragment = ""
	u.RawFragment = ""
	target := u.String()
	t := lc.target(target)
	if t.err != nil {
		return fmt.Sprintf("link %s: %v", abs, t.err)
	}
	if t.status != http.StatusOK {
		return fmt.Sprintf("broken link %s: HTTP %d", abs, t.status)
	}
	if frag == "" {
		return ""
	}
	ids := t.ids
	p, _ := url.Parse(pageURL)
	p.Fragment, p.RawFragment = "", ""
	if p.String() == target {
		ids = self // the page's own anchors, as the browser has them
	}
	// A browser looks for the fragment as written, then percent-decoded
	// (HTML's "find a potential indicated element"); nbconvert writes
	// headings' ids percent-encoded.
	if ids == nil || !(ids[rawFrag] || ids[frag]) {
		return fmt.Sprintf("broken anchor %s: no id %q in %s", abs, frag, path.Base(u.Path))
	}
	return ""
}

// mathjaxStateJS queues a marker behind MathJax's typesetting and reports
// "absent" (MathJax never loaded), "pending" or "done".
const mathjaxStateJS = `(() => {
  if (!window.MathJax || !MathJax.Hub || !MathJax.Hub.Queue) return "absent";
  if (!window.__dpbMathJax) { window.__dpbMathJax = "pending"; MathJax.Hub.Queue(() => { window.__dpbMathJax = "done"; }); }
  return window.__dpbMathJax;
})()`

// siteSettledJS: every chart container has drawn or given up, every image
// finished loading.
const siteSettledJS = `(() => {
  const boxes = Array.from(document.querySelectorAll('[id^=dpb_echarts_]'));
  return boxes.every(el => el.hasAttribute('_echarts_instance_') || el.textContent.indexOf('not loaded') >= 0) &&
    Array.from(document.images).every(i => i.complete);
})()`

type siteLink struct {
	Attr string `json:"attr"`
	Raw  string `json:"raw"`
	Abs  string `json:"abs"`
}

type sitePageReport struct {
	Images   int         `json:"images"`
	Broken   []string    `json:"broken"`
	Charts   []chartInfo `json:"charts"`
	ChartY   int         `json:"chartY"`
	Boxes    int         `json:"boxes"`
	Jax      int         `json:"jax"`
	Rendered int         `json:"rendered"`
	Orphans  int         `json:"orphans"`
	Errors   []string    `json:"errors"`
	Raw      []string    `json:"raw"`
	BadFonts []string    `json:"badFonts"`
	Links    []siteLink  `json:"links"`
	IDs      []string    `json:"ids"`
}

// sitePageJS reads what the checks need from the rendered page: images,
// charts (as the notebook test reads them), MathJax's output (each
// math/tex script should have its rendered frame; error nodes), TeX left
// as text outside code, and every href and src, resolved.
const sitePageJS = `(() => {
  const imgs = Array.from(document.images);
  const broken = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => (i.getAttribute('src') || '').slice(0, 100));
  let chartY = -1;
  const charts = Array.from(document.querySelectorAll('[_echarts_instance_]')).map(el => {
    if (chartY < 0) chartY = Math.round(el.getBoundingClientRect().top + window.scrollY);
    const svg = el.querySelector('svg');
    const paths = svg ? Array.from(svg.querySelectorAll('path')) : [];
    let longest = 0;
    for (const p of paths) longest = Math.max(longest, (p.getAttribute('d') || '').length);
    const inst = window.echarts && window.echarts.getInstanceByDom(el);
    const series = inst ? (inst.getOption().series || []).filter(s => s.data && s.data.length > 0).length : 0;
    return {id: el.id, series, paths: paths.length, longest};
  });
  const jax = Array.from(document.querySelectorAll('script[type^="math/tex"]'));
  const orphans = jax.filter(s => !document.getElementById(s.id + '-Frame')).length;
  const errors = Array.from(document.querySelectorAll('.mjx-merror, .MathJax_Error, merror')).map(e => e.textContent.slice(0, 80));
  const raw = [];
  const skip = 'pre, code, script, style, textarea, .MathJax_CHTML, .mjx-chtml, .MathJax_Preview, .MJX_Assistive_MathML, .tex2jax_ignore';
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    const t = n.nodeValue;
    if (!/\$[^$]+\$|\\\(|\\\[|\\begin\{/.test(t)) continue;
    if (n.parentElement && n.parentElement.closest(skip)) continue;
    raw.push(t.trim().slice(0, 80));
  }
  const links = [];
  for (const el of document.querySelectorAll('[href], [src]')) {
    for (const attr of ['href', 'src']) {
      const v = el.getAttribute(attr);
      if (v === null) continue;
      let abs = v;
      try { abs = new URL(v, document.baseURI).href; } catch (e) {}
      links.push({attr: el.tagName.toLowerCase() + '[' + attr + ']', raw: v, abs});
    }
  }
  // A face that failed counts unless it is one of MathJax's local() faces,
  // X or Xx, and the web-font face Xw of the same font loaded (CommonHTML's
  // fontdata.js declares the three and stacks them in that order).
  const fam = f => f.family.replace(/^"|"$/g, '');
  const faces = Array.from(document.fonts);
  const loaded = new Set(faces.filter(f => f.status === 'loaded').map(fam));
  const badFonts = faces.filter(f => f.status === 'error' && !loaded.has(fam(f).replace(/x$/, '') + 'w'))
    .map(f => f.family + ' ' + f.style + ' ' + f.weight);
  const ids = Array.from(document.querySelectorAll('[id]')).map(e => e.id)
    .concat(Array.from(document.querySelectorAll('a[name]')).map(e => e.getAttribute('name')));
  return {images: imgs.length, broken, charts, chartY, boxes: document.querySelectorAll('[id^=dpb_echarts_]').length,
    jax: jax.length, rendered: document.querySelectorAll('.MathJax_CHTML').length, orphans, errors, raw, badFonts, links, ids};
})()`

func checkPage(browserCtx context.Context, c checkConfig, dir string, srv *siteServer, lc *linkChecker, page, shots string) (r pageResult) {
	t0 := time.Now()
	r.Page = page
	defer func() { r.Seconds = time.Since(t0).Seconds() }()
	name := strings.TrimSuffix(page, ".html")
	if b, err := os.ReadFile(filepath.Join(dir, name+".ipynb")); err == nil {
		info, err := readNotebookInfo(b)
		if err != nil {
			r.Problems = append(r.Problems, fmt.Sprintf("%s.ipynb: %v", name, err))
		}
		r.MathsSource, r.ChartsDeclared = info.Maths, info.Charts
	}
	var mu sync.Mutex
	var events []string // requests outside the root, failed loads, console errors
	var mjFiles []string
	requests := 0
	urls := map[network.RequestID]string{}
	listener := func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			u := e.Request.URL
			urls[e.RequestID] = u
			requests++
			switch {
			case strings.HasPrefix(u, srv.base):
				if m, ok := strings.CutPrefix(u, srv.base+siteMathJaxDir+"/"); ok {
					mjFiles = append(mjFiles, strings.SplitN(m, "?", 2)[0])
				}
			case strings.HasPrefix(u, "data:"), strings.HasPrefix(u, "blob:"), strings.HasPrefix(u, "about:"):
			default:
				events = append(events, "request outside the site root: "+trimURL(u))
			}
		case *network.EventResponseReceived:
			if e.Response != nil && e.Response.Status >= 400 {
				events = append(events, fmt.Sprintf("HTTP %d: %s", e.Response.Status, trimURL(e.Response.URL)))
			}
		case *network.EventLoadingFailed:
			events = append(events, fmt.Sprintf("load failed (%s): %s", e.ErrorText, trimURL(urls[e.RequestID])))
		case *cdplog.EventEntryAdded:
			if e.Entry != nil && e.Entry.Level == cdplog.EntryLevelError {
				events = append(events, "console error: "+trimURL(e.Entry.Text))
			}
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + strings.SplitN(d.Exception.Description, "\n", 2)[0]
			}
			events = append(events, "script exception: "+msg)
		}
	}
	ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithListener(listener))
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, c.pageTimeout)
	defer cancelT()
	fail := func(format string, a ...any) pageResult {
		r.Problems = append(r.Problems, fmt.Sprintf(format, a...))
		return r
	}
	pageURL := srv.base + page
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(c.width), 1000), chromedp.Navigate(pageURL)); err != nil {
		return fail("opening %s: %v", pageURL, err)
	}
	// Maths typeset, charts drawn, images loaded; a page with no MathJax
	// at all (its script did not load) has nothing to wait for.
	deadline := time.Now().Add(c.settleWindow)
	mj := ""
	for {
		st, err := chromedp.Run(ctx, chromedp.Evaluate[string](mathjaxStateJS))
		settled, err2 := chromedp.Run(ctx, chromedp.Evaluate[bool](siteSettledJS))
		if err == nil {
			mj = st
		}
		if err == nil && err2 == nil && st != "pending" && settled {
			break
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	switch mj {
	case "absent":
		r.Problems = append(r.Problems, "MathJax did not load")
	case "pending":
		r.Problems = append(r.Problems, fmt.Sprintf("MathJax still typesetting after %v", c.settleWindow))
	}
	rep, err := chromedp.Run(ctx, chromedp.Evaluate[sitePageReport](sitePageJS))
	if err != nil {
		return fail("reading the page: %v", err)
	}
	r.Images = rep.Images
	r.ChartsDrawn = len(rep.Charts)
	r.MathsRendered = rep.Rendered
	if len(rep.Charts) > 0 {
		r.FirstChartY = rep.ChartY
	}
	// Maths: the notebook's maths rendered, none left as TeX, no errors.
	if r.MathsSource > 0 && rep.Rendered == 0 {
		r.Problems = append(r.Problems, fmt.Sprintf("no maths rendered: the notebook's markdown has %d formulas, the page 0 MathJax output elements", r.MathsSource))
	}
	if rep.Orphans > 0 {
		r.Problems = append(r.Problems, fmt.Sprintf("%d of %d formulas found by MathJax have no rendered output", rep.Orphans, rep.Jax))
	}
	for _, e := range rep.Errors {
		r.Problems = append(r.Problems, "MathJax error: "+e)
	}
	for _, f := range rep.BadFonts {
		r.Problems = append(r.Problems, "web font failed to load: "+f)
	}
	for i, t := range rep.Raw {
		if i == 3 {
			r.Problems = append(r.Problems, fmt.Sprintf("… %d more text nodes with raw TeX", len(rep.Raw)-i))
			break
		}
		r.Problems = append(r.Problems, fmt.Sprintf("TeX left unrendered in the text: %q", t))
	}
	// Charts and images, by the notebook test's rules.
	for _, b := range rep.Broken {
		r.Problems = append(r.Problems, fmt.Sprintf("image not loaded (naturalWidth 0): %q", b))
	}
	if len(rep.Charts) != r.ChartsDeclared || rep.Boxes != r.ChartsDeclared {
		r.Problems = append(r.Problems, fmt.Sprintf("%d echarts chart(s) drawn in %d container(s), the notebook declares %d (metadata dpb.charts)", len(rep.Charts), rep.Boxes, r.ChartsDeclared))
	}
	for _, ch := range rep.Charts {
		if ch.Series == 0 || ch.Longest < 100 {
			r.Problems = append(r.Problems, fmt.Sprintf("chart %s has no drawn marks (%d series with data, %d paths, longest path %d chars)", ch.ID, ch.Series, ch.Paths, ch.Longest))
		}
	}
	// Links: every href and src of the page.
	self := map[string]bool{}
	for _, id := range rep.IDs {
		self[id] = true
	}
	seen := map[string]bool{}
	for _, l := range rep.Links {
		if seen[l.Abs] {
			continue
		}
		seen[l.Abs] = true
		kind, problem := lc.classify(l.Abs)
		switch kind {
		case "external":
			r.External++
		case "internal":
			r.Links++
			if p := lc.check(l.Abs, pageURL, self); p != "" {
				r.Problems = append(r.Problems, fmt.Sprintf("%s %q: %s", l.Attr, trimURL(l.Raw), p))
			}
		case "":
			r.Problems = append(r.Problems, fmt.Sprintf("%s %q: %s", l.Attr, trimURL(l.Raw), problem))
		}
	}
	if shots != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			r.Problems = append(r.Problems, fmt.Sprintf("screenshot: %v", err))
		} else {
			p := filepath.Join(shots, name+".png")
			if err := os.WriteFile(p, png, 0o644); err != nil {
				r.Problems = append(r.Problems, err.Error())
			} else {
				r.Screenshot = p
			}
		}
	}
	mu.Lock()
	r.Problems = append(r.Problems, dedupe(events)...)
	r.Requests = requests
	r.mathjax = mjFiles
	mu.Unlock()
	return r
}

func trimURL(u string) string {
	if len(u) > 140 {
		return u[:140] + "…"
	}
	return u
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}
