// Command browsertest opens notebooks as a reader would: in Debian's classic
// Jupyter Notebook server with the GoNB kernel, in headless Chromium driven
// through the DevTools protocol (chromedp). It is its own Go module, so the
// library does not depend on chromedp.
//
// For each notebook it opens a temporary copy (outputs cleared, autosave off)
// under <repo>/_browser/ (a sibling of notebooks/, so the setup cell's
// "${GONB_DIR}/.." is still the repository), runs all cells, waits until no
// cell is queued and the kernel is idle, and fails the notebook when
//
//   - the executed notebook fails .ci/nbcheck.py (error outputs, cells not
//     executed, "panic: ", "exit status N", "--- FAIL", "CHECK FAILED", a
//     display that shows nothing) or the page shows an error output;
//   - an <img> in the notebook did not load (naturalWidth 0);
//   - the number of echarts charts drawn differs from the number the notebook
//     declares in its metadata ("dpb": {"charts": N}; absent means 0), or a
//     chart has no series or no drawn line.
//
// It saves the executed notebook and a full-page PNG of each under -out.
// It then runs the negative controls, each of which must fail: the notebooks
// given with -control (a broken image, an erroring cell) and, with -wrong, a
// notebook whose exercise answers are replaced by the wrong answers stored
// in the answer cells' metadata ("dpb": {"wrong_answer": "..."}).
//
// With -lost-ack, a widget notebook must pass with the page's first
// acknowledgement of GoNB's connection handshake dropped (lostack.go).
// With -repeat N, each NOTEBOOK is opened N times, each in a fresh tab and
// kernel (to count flakes).
//
// With -readme IMAGE=NOTEBOOK it also keeps the README's picture of that
// notebook from going stale: it writes the notebook's screenshot to
// -out/readme.png with the SHA-256 of the committed notebook file in a PNG
// text chunk, and fails unless the committed IMAGE carries the same hash
// (copy readme.png over it after a notebook change). CI thus writes nothing
// into the tree, and the image shows the committed notebook.
//
// Usage (see .ci/browser):
//
//	browsertest -repo DIR -out DIR [-control NB ...] [-wrong NB ...] [-unwired NB ...] [-lost-ack NB ...]
//	            [-readme IMAGE=NB] [-repeat N] NOTEBOOK...
package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"
)

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

var (
	flagRepo     = flag.String("repo", ".", "repository root")
	flagOut      = flag.String("out", ".ci/out/browser", "output directory (screenshots/, executed/, jupyter.log)")
	flagTimeout  = flag.Duration("timeout", 10*time.Minute, "time limit per notebook")
	flagChromium = flag.String("chromium", "chromium", "browser binary")
	flagJupyter  = flag.String("jupyter", "/usr/bin/jupyter", "jupyter binary (Debian's)")
	flagPython   = flag.String("python", "/usr/bin/python3", "python3 with nbformat-free stdlib, for .ci/nbcheck.py")
	flagWidth    = flag.Int("width", 1200, "window width (px)")
	flagParallel = flag.Int("parallel", 2, "notebooks open at once (each its own tab and kernel)")
	flagReadme   = flag.String("readme", "", "IMAGE=NOTEBOOK: check that the committed IMAGE is this notebook's screenshot (see the package doc)")
	flagTimeAck  = flag.Bool("time-ack", false, "log in each widget notebook's notes how long GoNB's handshake waited for its acknowledgement (lostack.go)")
	flagRepeat   = flag.Int("repeat", 1, "open each NOTEBOOK (and -lost-ack notebook) this many times, each in a fresh tab and kernel (to count flakes)")
	flagControls listFlag
	flagWrong    listFlag
	flagUnwired  listFlag
	flagLostAck  listFlag
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "site" { // the course site: site.go
		os.Exit(siteMain(os.Args[2:]))
	}
	flag.Var(&flagControls, "control", "a notebook that must fail (repeatable)")
	flag.Var(&flagWrong, "wrong", "a notebook whose exercises, given their wrong answers, must fail (repeatable)")
	flag.Var(&flagLostAck, "lost-ack", "a widget notebook that must pass with GoNB's first handshake acknowledgement lost (repeatable; see lostack.go)")
	flag.Var(&flagUnwired, "unwired", "a widget notebook whose slider, wired to nothing, must fail (repeatable; see widget.go)")
	flag.Parse()
	if err := run(flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "browsertest:", err)
		os.Exit(1)
	}
}

// job is one notebook to open: its source, whether its exercises get their
// wrong answers, and whether it must fail.
type job struct {
	src        string
	wrong      bool
	unwired    bool // the widget's slider wired to nothing (widget.go)
	lostAck    bool // GoNB's first #comm_open_ack lost in the page (lostack.go)
	expectFail bool
	expect     string // a control must fail with a problem containing this
	rep        int    // with -repeat: which of the repeats (1, 2, ...), 0 otherwise
}

func (j job) name() string {
	n := strings.TrimSuffix(filepath.Base(j.src), ".ipynb")
	if j.wrong {
		n += "__wrong_answers"
	}
	if j.unwired {
		n += "__unwired"
	}
	if j.lostAck {
		n += "__lost_ack"
	}
	if j.rep > 0 {
		n += fmt.Sprintf("__r%d", j.rep)
	}
	return n
}

func run(notebooks []string) error {
	repo, err := filepath.Abs(*flagRepo)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(*flagOut)
	if err != nil {
		return err
	}
	var jobs []job
	if *flagRepeat < 1 {
		return fmt.Errorf("-repeat %d: want at least 1", *flagRepeat)
	}
	for _, nb := range notebooks {
		if *flagRepeat == 1 {
			jobs = append(jobs, job{src: nb})
			continue
		}
		for k := 1; k <= *flagRepeat; k++ {
			jobs = append(jobs, job{src: nb, rep: k})
		}
	}
	for _, nb := range flagControls {
		jobs = append(jobs, job{src: nb, expectFail: true})
	}
	for _, nb := range flagWrong {
		jobs = append(jobs, job{src: nb, wrong: true, expectFail: true})
	}
	for _, nb := range flagLostAck {
		for k := 1; k <= *flagRepeat; k++ {
			j := job{src: nb, lostAck: true}
			if *flagRepeat > 1 {
				j.rep = k
			}
			jobs = append(jobs, j)
		}
	}
	for _, nb := range flagUnwired {
		jobs = append(jobs, job{src: nb, unwired: true, expectFail: true, expect: "was not redrawn"})
	}
	if len(jobs) == 0 {
		return errors.New("no notebooks")
	}
	for _, d := range []string{"screenshots", "executed", "figures"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			return err
		}
	}
	// The copies live beside notebooks/ so that "${GONB_DIR}/.." is the repo.
	tmp := filepath.Join(repo, "_browser")
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	srv, err := startJupyter(repo, out)
	if err != nil {
		return err
	}
	defer srv.stop()
	fmt.Printf("jupyter notebook server at %s (log %s)\n", srv.base, rel(repo, filepath.Join(out, "jupyter.log")))

	profile, err := os.MkdirTemp("", "browsertest-chromium-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(*flagChromium),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(*flagWidth, 1000),
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
	if err := chromedp.Do(browserCtx); err != nil { // starts the browser
		return fmt.Errorf("starting %s: %w", *flagChromium, err)
	}

	// Notebooks run -parallel at a time, each in its own tab and kernel;
	// each is reported when it and every one before it have finished.
	results := make([]result, len(jobs))
	done := make([]chan struct{}, len(jobs))
	for i := range done {
		done[i] = make(chan struct{})
	}
	next := make(chan int, len(jobs)) // in order, so the log can follow
	for i := range jobs {
		next <- i
	}
	close(next)
	for range max(1, *flagParallel) {
		go func() {
			for i := range next {
				t0 := time.Now()
				results[i] = openNotebook(browserCtx, srv, repo, tmp, out, jobs[i])
				results[i].secs = time.Since(t0).Seconds()
				close(done[i])
			}
		}()
	}
	var bad []string
	passed := 0
	for i, j := range jobs {
		<-done[i]
		r := results[i]
		secs := r.secs
		failed := len(r.problems) > 0
		if j.expect != "" && failed && !strings.Contains(strings.Join(r.problems, "\n"), j.expect) {
			failed = false // failed, but not the way the control must
		}
		status := "ok"
		switch {
		case j.expectFail && failed:
			status = "failed as expected (control)"
		case j.expectFail && j.expect != "" && len(r.problems) > 0:
			status = "CONTROL FAILED WRONGLY"
		case j.expectFail:
			status = "CONTROL PASSED (it must fail)"
		case failed:
			status = "FAILED"
		}
		fmt.Printf("%-36s %-30s %4.0fs  charts %d/%d, images %d\n", j.name(), status, secs, r.charts, r.declared, r.images)
		for _, p := range r.problems {
			fmt.Printf("    %s\n", p)
		}
		for _, n := range r.notes {
			fmt.Printf("    %s\n", n)
		}
		if r.screenshot != "" {
			fmt.Printf("    screenshot %s\n", rel(repo, r.screenshot))
		}
		if failed != j.expectFail {
			bad = append(bad, j.name())
		} else {
			passed++
		}
	}
	if *flagReadme != "" {
		if err := readmeImage(repo, out, *flagReadme, jobs, results); err != nil {
			bad = append(bad, "readme image")
			fmt.Printf("README image: %v\n", err)
		} else {
			fmt.Printf("README image %s: the screenshot of the committed %s\n", strings.Split(*flagReadme, "=")[0], strings.Split(*flagReadme, "=")[1])
		}
	}
	fmt.Printf("browser test: %d of %d as expected", passed, len(jobs))
	if len(bad) > 0 {
		fmt.Printf("; NOT as expected: %s\n", strings.Join(bad, " "))
		return fmt.Errorf("%d notebook(s) not as expected", len(bad))
	}
	fmt.Println()
	return nil
}

func rel(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// server is a running Jupyter Notebook server.
type server struct {
	cmd    *exec.Cmd
	base   string // http://127.0.0.1:PORT
	token  string
	exited chan struct{}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func startJupyter(repo, out string) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	token := hex.EncodeToString(b)
	logf, err := os.Create(filepath.Join(out, "jupyter.log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(*flagJupyter, "notebook",
		"--no-browser",
		"--allow-root", // CI runs as root; the server only listens on 127.0.0.1 with a token
		"--ip=127.0.0.1",
		fmt.Sprintf("--port=%d", port),
		"--port-retries=0",
		"--NotebookApp.token="+token,
		"--NotebookApp.notebook_dir="+repo,
		"--NotebookApp.open_browser=False",
		"--KernelSpecManager.ensure_native_kernel=False",
	)
	cmd.Dir = repo
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// The kernels inherit this environment: go and goimports on PATH (the
	// GoNB kernel spec's env is empty), figures saved away from figures/.
	// Its runtime files (connection files, cookie secret) stay under out.
	cmd.Env = append(os.Environ(), "DPB_FIGURES="+filepath.Join(out, "figures"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(out, "runtime"))
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, base: fmt.Sprintf("http://127.0.0.1:%d", port), token: token}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	s.exited = exited
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(s.base + "/api/status?token=" + token)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		select {
		case <-exited:
			return nil, fmt.Errorf("jupyter notebook exited (see %s)", logf.Name())
		case <-time.After(200 * time.Millisecond):
		}
	}
	s.stop()
	return nil, fmt.Errorf("jupyter notebook did not answer within 60 s (see %s)", logf.Name())
}

func (s *server) stop() {
	if s.cmd.Process == nil {
		return
	}
	// SIGTERM: the server shuts its kernels down; then the whole group.
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(15 * time.Second):
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
}

// deleteSession shuts down the kernel of the notebook at path (relative to
// the server's root) through the REST API.
func (s *server) deleteSession(path string) {
	resp, err := http.Get(s.base + "/api/sessions?token=" + s.token)
	if err != nil {
		return
	}
	var sessions []struct {
		ID   string `json:"id"`
		Path string `json:"path"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&sessions)
	resp.Body.Close()
	for _, ss := range sessions {
		if ss.Path != path {
			continue
		}
		req, _ := http.NewRequest(http.MethodDelete, s.base+"/api/sessions/"+ss.ID+"?token="+s.token, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}
}

// result is what one notebook showed.
type result struct {
	problems   []string
	declared   int
	charts     int
	images     int
	screenshot string
	secs       float64
	notes      []string // what the widget drive saw (widget.go)
}

// prepare writes the temporary copy: outputs cleared, and with wrong, each
// answer cell's source replaced by its wrong answer. It returns the declared
// number of charts.
func prepare(src, dst string, wrong bool) (int, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return 0, err
	}
	var nb map[string]any
	if err := json.Unmarshal(data, &nb); err != nil {
		return 0, fmt.Errorf("%s: %w", src, err)
	}
	declared := 0
	if md, ok := nb["metadata"].(map[string]any); ok {
		if d, ok := md["dpb"].(map[string]any); ok {
			if n, ok := d["charts"].(float64); ok {
				declared = int(n)
			}
		}
	}
	cells, _ := nb["cells"].([]any)
	replaced := 0
	for _, c := range cells {
		cell, ok := c.(map[string]any)
		if !ok || cell["cell_type"] != "code" {
			continue
		}
		cell["outputs"] = []any{}
		cell["execution_count"] = nil
		if !wrong {
			continue
		}
		md, _ := cell["metadata"].(map[string]any)
		d, _ := md["dpb"].(map[string]any)
		if w, ok := d["wrong_answer"].(string); ok {
			cell["source"] = w
			replaced++
		}
	}
	if wrong && replaced == 0 {
		return 0, fmt.Errorf("%s: no answer cell has a wrong_answer to substitute", src)
	}
	out, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		return 0, err
	}
	return declared, os.WriteFile(dst, out, 0o644)
}

// pageState is what the page reports while the notebook runs.
type pageState struct {
	Ready   bool `json:"ready"`
	Pending int  `json:"pending"`
	Idle    bool `json:"idle"`
}

const stateJS = `(() => {
  const J = window.Jupyter, nb = J && J.notebook;
  if (!nb || !nb._fully_loaded || !nb.kernel || !nb.kernel.is_connected()) return {ready: false, pending: 0, idle: false};
  const pending = nb.get_cells().filter(c => c.cell_type === 'code' && c.get_text().trim() !== '' &&
    (c.input_prompt_number === '*' || c.input_prompt_number === undefined || c.input_prompt_number === null)).length;
  const icon = document.getElementById('kernel_indicator_icon');
  return {ready: true, pending, idle: !!icon && icon.classList.contains('kernel_idle_icon')};
})()`

// settledJS reports whether every chart container has either drawn or given
// up (its script retries for 10 s) and every image has finished loading.
const settledJS = `(() => {
  const root = document.getElementById('notebook');
  const boxes = Array.from(root.querySelectorAll('[id^=dpb_echarts_]'));
  const charts = boxes.every(el => el.hasAttribute('_echarts_instance_') || el.textContent.indexOf('not loaded') >= 0);
  const imgs = Array.from(root.querySelectorAll('img')).every(i => i.complete);
  return charts && imgs;
})()`

type chartInfo struct {
	ID      string `json:"id"`
	Series  int    `json:"series"`
	Paths   int    `json:"paths"`
	Longest int    `json:"longest"`
}

type pageReport struct {
	Images   int         `json:"images"`
	Broken   []string    `json:"broken"`
	Charts   []chartInfo `json:"charts"`
	Boxes    int         `json:"boxes"`
	Errors   int         `json:"errors"`
	Notebook string      `json:"notebook"`
}

const reportJS = `(() => {
  const root = document.getElementById('notebook');
  const imgs = Array.from(root.querySelectorAll('img'));
  const broken = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => (i.getAttribute('src') || '').slice(0, 100));
  const charts = Array.from(root.querySelectorAll('[_echarts_instance_]')).map(el => {
    const svg = el.querySelector('svg');
    const paths = svg ? Array.from(svg.querySelectorAll('path')) : [];
    let longest = 0;
    for (const p of paths) longest = Math.max(longest, (p.getAttribute('d') || '').length);
    const inst = window.echarts && window.echarts.getInstanceByDom(el);
    const series = inst ? (inst.getOption().series || []).filter(s => s.data && s.data.length > 0).length : 0;
    return {id: el.id, series, paths: paths.length, longest};
  });
  return {images: imgs.length, broken, charts,
    boxes: root.querySelectorAll('[id^=dpb_echarts_]').length,
    errors: root.querySelectorAll('.output_error').length,
    notebook: JSON.stringify(Jupyter.notebook.toJSON())};
})()`

// scrubJS writes the repository's absolute path (%s, a JSON string) as
// <repo> in the text of the outputs, after the checks and before the screenshot.
const scrubJS = `((repo) => {
  const w = document.createTreeWalker(document.getElementById('notebook'), NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    if (n.nodeValue.indexOf(repo) >= 0) n.nodeValue = n.nodeValue.split(repo).join('<repo>');
  }
  return true;
})(%s)`

// fullPageCSS lets the page grow to the notebook's height (the classic
// notebook scrolls inside #site), so that a full-page screenshot shows it all.
const fullPageCSS = `(() => {
  const s = document.createElement('style');
  s.textContent = 'html, body {height: auto !important; overflow: visible !important; position: static !important}' +
    ' #site {height: auto !important; overflow: visible !important}';
  document.head.appendChild(s);
  window.scrollTo(0, 0);
  return true;
})()`

func openNotebook(browserCtx context.Context, srv *server, repo, tmp, out string, j job) (r result) {
	name := j.name()
	copyPath := filepath.Join(tmp, name+".ipynb")
	declared, err := prepare(filepath.Join(repo, j.src), copyPath, j.wrong)
	r.declared = declared
	if err == nil && j.unwired {
		err = unwire(copyPath)
	}
	var widget *widgetSpec
	if err == nil {
		widget, err = readWidget(copyPath)
	}
	if err != nil {
		r.problems = append(r.problems, err.Error())
		return r
	}
	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	console, err := watchConsole(ctx)
	if err != nil {
		r.problems = append(r.problems, fmt.Sprintf("opening a tab: %v", err))
		return r
	}
	if j.lostAck || *flagTimeAck {
		if err := watchAck(ctx, j.lostAck); err != nil {
			r.problems = append(r.problems, fmt.Sprintf("watching GoNB's handshake: %v", err))
			return r
		}
	}
	ctx, cancelT := context.WithTimeout(ctx, *flagTimeout)
	defer cancelT()
	fail := func(format string, a ...any) result {
		r.problems = append(r.problems, fmt.Sprintf(format, a...))
		return r
	}
	url := fmt.Sprintf("%s/notebooks/_browser/%s.ipynb?token=%s", srv.base, name, srv.token)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(*flagWidth), 1000), chromedp.Navigate(url)); err != nil {
		return fail("opening the notebook: %v", err)
	}
	defer srv.deleteSession("_browser/" + name + ".ipynb") // a fresh kernel per notebook
	// Kernel ready?
	for {
		st, err := chromedp.Run(ctx, chromedp.Evaluate[pageState](stateJS))
		if err != nil && ctx.Err() != nil {
			return fail("the kernel did not start within %v", *flagTimeout)
		}
		if err == nil && st.Ready {
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { Jupyter.notebook.set_autosave_interval(0); Jupyter.notebook.execute_all_cells(); return true; })()`)); err != nil {
		return fail("run all: %v", err)
	}
	if widget != nil { // its cell runs until the test clicks Done
		problems, notes := driveWidget(ctx, widget, filepath.Join(out, "screenshots", name+"__knob.png"), console)
		r.problems, r.notes = append(r.problems, problems...), notes
		lines := console.Lines()
		if len(lines) > 0 {
			r.notes = append(r.notes, "the page's console on GoNB: "+strings.Join(lines, " | "))
		}
		if j.lostAck && !strings.Contains(strings.Join(lines, "\n"), lostAckMark) {
			r.problems = append(r.problems, "-lost-ack: no #comm_open_ack was dropped (does lostack.go still match GoNB's handshake?)")
		}
	}
	// Wait until no cell is queued or running and the kernel is idle, twice
	// in a row (the indicator can flicker idle between two cells).
	idleTwice := 0
	for idleTwice < 2 {
		time.Sleep(500 * time.Millisecond)
		st, err := chromedp.Run(ctx, chromedp.Evaluate[pageState](stateJS))
		if err != nil {
			if ctx.Err() != nil {
				return fail("cells still running after %v", *flagTimeout)
			}
			continue
		}
		if st.Ready && st.Pending == 0 && st.Idle {
			idleTwice++
		} else {
			idleTwice = 0
		}
	}
	// Let charts draw and images load (a chart's script waits up to 10 s for echarts).
	for range 60 {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](settledJS))
		if err == nil && ok {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	rep, err := chromedp.Run(ctx, chromedp.Evaluate[pageReport](reportJS))
	if err != nil {
		return fail("reading the page: %v", err)
	}
	r.images = rep.Images
	r.charts = len(rep.Charts)
	executed := filepath.Join(out, "executed", name+".ipynb")
	if err := os.WriteFile(executed, []byte(rep.Notebook), 0o644); err != nil {
		return fail("%v", err)
	}
	if msg, err := exec.Command(*flagPython, filepath.Join(repo, ".ci", "nbcheck.py"), executed).CombinedOutput(); err != nil {
		for _, l := range strings.Split(strings.TrimSpace(string(msg)), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "FAILED") {
				r.problems = append(r.problems, "nbcheck: "+l)
			}
		}
		if len(r.problems) == 0 {
			r.problems = append(r.problems, "nbcheck failed: "+strings.TrimSpace(string(msg)))
		}
	}
	if rep.Errors > 0 {
		r.problems = append(r.problems, fmt.Sprintf("%d error output(s) on the page", rep.Errors))
	}
	for _, b := range rep.Broken {
		r.problems = append(r.problems, fmt.Sprintf("image not loaded (naturalWidth 0): %q", b))
	}
	if len(rep.Charts) != declared || rep.Boxes != declared {
		r.problems = append(r.problems, fmt.Sprintf("%d echarts chart(s) drawn in %d container(s), the notebook declares %d (metadata dpb.charts)", len(rep.Charts), rep.Boxes, declared))
	}
	for _, c := range rep.Charts {
		if c.Series == 0 || c.Longest < 100 {
			r.problems = append(r.problems, fmt.Sprintf("chart %s has no drawn marks (%d series with data, %d paths, longest path %d chars)", c.ID, c.Series, c.Paths, c.Longest))
		}
	}
	// Screenshot of the whole notebook, the repository's path written as
	// <repo> (as in committed outputs, see .ci/nbcheck.py --normalize).
	repoJSON, _ := json.Marshal(repo)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(scrubJS, repoJSON))); err != nil {
		r.problems = append(r.problems, fmt.Sprintf("scrubbing paths: %v", err))
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fullPageCSS)); err == nil {
		time.Sleep(300 * time.Millisecond)
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			r.problems = append(r.problems, fmt.Sprintf("screenshot: %v", err))
		} else {
			p := filepath.Join(out, "screenshots", name+".png")
			if err := os.WriteFile(p, png, 0o644); err == nil {
				r.screenshot = p
			}
		}
	}
	return r
}

// readmeKey names the PNG text chunk holding the notebook's SHA-256.
const readmeKey = "dpb-notebook-sha256"

// readmeImage writes out/readme.png, the screenshot of the notebook of spec
// ("IMAGE=NOTEBOOK", paths relative to repo) with the notebook file's
// SHA-256 in a tEXt chunk, and checks that the committed IMAGE carries the
// same hash.
func readmeImage(repo, out, spec string, jobs []job, results []result) error {
	image, nb, ok := strings.Cut(spec, "=")
	if !ok {
		return fmt.Errorf("-readme %q: want IMAGE=NOTEBOOK", spec)
	}
	shot := ""
	for i, j := range jobs {
		if filepath.Clean(j.src) == filepath.Clean(nb) && !j.wrong && !j.expectFail && len(results[i].problems) == 0 {
			shot = results[i].screenshot
		}
	}
	if shot == "" {
		return fmt.Errorf("%s did not run cleanly: no screenshot for the README", nb)
	}
	src, err := os.ReadFile(filepath.Join(repo, nb))
	if err != nil {
		return err
	}
	sum := sha256.Sum256(src)
	want := hex.EncodeToString(sum[:])
	png, err := os.ReadFile(shot)
	if err != nil {
		return err
	}
	tagged, err := pngWithText(png, readmeKey, want)
	if err != nil {
		return err
	}
	fresh := filepath.Join(out, "readme.png")
	if err := os.WriteFile(fresh, tagged, 0o644); err != nil {
		return err
	}
	committed, err := os.ReadFile(filepath.Join(repo, image))
	if err != nil {
		return err
	}
	if got := pngText(committed, readmeKey); got != want {
		return fmt.Errorf("%s is stale: it shows %s at sha256 %q, the committed notebook is %s; the browser test wrote its screenshot to %s (cp it over %s)",
			image, nb, got, want, rel(repo, fresh), image)
	}
	return nil
}

// pngWithText returns png with a tEXt chunk key=value after its IHDR chunk.
func pngWithText(png []byte, key, value string) ([]byte, error) {
	const sigLen = 8
	if len(png) < sigLen+25 || string(png[12:16]) != "IHDR" {
		return nil, errors.New("not a PNG")
	}
	ihdrEnd := sigLen + 8 + int(binary.BigEndian.Uint32(png[sigLen:])) + 4
	data := append([]byte(key+"\x00"), value...)
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	chunk = append(chunk, "tEXt"...)
	chunk = append(chunk, data...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := append([]byte(nil), png[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, png[ihdrEnd:]...), nil
}

// pngText returns the value of the tEXt chunk key of png ("" if none).
func pngText(png []byte, key string) string {
	for i := 8; i+12 <= len(png); {
		n := int(binary.BigEndian.Uint32(png[i:]))
		if i+12+n > len(png) {
			break
		}
		if string(png[i+4:i+8]) == "tEXt" {
			if k, v, ok := strings.Cut(string(png[i+8:i+8+n]), "\x00"); ok && k == key {
				return v
			}
		}
		i += 12 + n
	}
	return ""
}
