package data

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/dpbandits/dpbandits/dpb/internal/atomicfile"
)

// Manifest lists the public data files: where each comes from and the
// SHA-256 of the bytes written. [DefaultManifest] is the canonical one;
// tests and mirrors pass another (JSON, see [ReadManifest]).
type Manifest struct {
	Files []File `json:"files"`
}

// File is one file written under the data directory.
type File struct {
	Set     string   `json:"set"`               // "obd" or "uci"
	Path    string   `json:"path"`              // slash-separated, relative to the data directory
	URLs    []string `json:"urls"`              // one source; two for Shuttle (train, test)
	Convert string   `json:"convert,omitempty"` // "" (copy) or "shuttle" (ConvertShuttle of the URLs' bodies, .Z or plain)
	SHA256  string   `json:"sha256"`            // of the bytes written (after conversion)
	Size    int64    `json:"size"`              // bytes written; also bounds each download at 4× + 1 MiB
}

// Sets are the names "dpb data fetch" accepts.
var Sets = []string{"obd", "uci", "all"}

const (
	obdBase = "https://raw.githubusercontent.com/st-tech/zr-obp/master/obd/"
	uciBase = "https://archive.ics.uci.edu/ml/machine-learning-databases/"
)

// DefaultManifest returns the canonical sources. The OBD small sample is
// the Open Bandit Pipeline's obd/ folder (Saito et al., arXiv:2008.07146;
// Apache-2.0 repository, data CC BY 4.0); Mushroom and Statlog (Shuttle)
// are the UCI ML Repository's files (CC BY 4.0; doi:10.24432/C5959T,
// doi:10.24432/C5WS31). Checksums are those of the files this project's
// results were computed from. Shuttle's is the checksum of the converted
// CSV (UCI's shuttle.trn.Z and shuttle.tst, [ConvertShuttle]), which
// pins the 58,000 rows whatever the archive's compression.
func DefaultManifest() Manifest {
	obd := func(p, sum string, size int64) File {
		return File{Set: "obd", Path: "obd/" + p, URLs: []string{obdBase + p}, SHA256: sum, Size: size}
	}
	return Manifest{Files: []File{
		obd("random/men/men.csv", "ede6d08c6877f99cd3770f7d09e26c738e6aa6de4445ccccfb1356ba5d06b1eb", 3336811),
		obd("random/men/item_context.csv", "6d855c2b7e917d0448d71bbe62c023147495882c0fdc8c41e86fef86abf9fe09", 4287),
		obd("random/women/women.csv", "e65f3bd3beb17664fa69cc129bf7bf852a775f8ffa630506e505fc905315bb34", 3817771),
		obd("random/women/item_context.csv", "b1ca4905f97703d196004f2ad4552c1e90c2afad8b50688d333b0d2dc0b33147", 5792),
		obd("random/all/item_context.csv", "eba04cc23d5f130a93ff174c5392986882b94c3839433cb8143870eaa6221358", 10041),
		obd("bts/men/men.csv", "db6d1f7ed2d591ba521533e45286d4c1fba7fe57a8ad2e80342210335f43c527", 3240432),
		obd("bts/men/item_context.csv", "3b411ed6b0471316321a6b93f4f756bb25888eac6218cd71d0b603d41d85732d", 4287),
		obd("bts/women/women.csv", "e5d1b49a39b608585a2f3014a3f54970430cd37a495c1b73fceb85cdf428a5b8", 3722697),
		obd("bts/women/item_context.csv", "a56295bad066a558eb783055afd9279f5f4e209a4776eafc22151c53f0ac89d4", 5792),
		{Set: "uci", Path: "uci/shuttle.csv", Convert: "shuttle",
			URLs:   []string{uciBase + "statlog/shuttle/shuttle.trn.Z", uciBase + "statlog/shuttle/shuttle.tst"},
			SHA256: "1a95c027d5a37afee401a5334fc69e863e75cb1cfc22be81dc88b6c8938c8af7", Size: 2017742},
		{Set: "uci", Path: "uci/agaricus-lepiota.data", URLs: []string{uciBase + "mushroom/agaricus-lepiota.data"},
			SHA256: "e65d082030501a3ebcbcd7c9f7c71aa9d28fdfff463bf4cf4716a3fe13ac360e", Size: 373704},
		{Set: "uci", Path: "uci/agaricus-lepiota.names", URLs: []string{uciBase + "mushroom/agaricus-lepiota.names"},
			SHA256: "cd607bc42595434e10e25f32353a0a4c97ab8cbc4d5c7a071d4f856779d4b4f3", Size: 7228},
	}}
}

// maxManifest bounds a manifest file and its entries.
const (
	maxManifestBytes = 1 << 20
	maxFileSize      = 1 << 30
)

// ReadManifest reads a JSON manifest ({"files": [...]}, the fields of
// [File]) and validates it.
func ReadManifest(r io.Reader) (Manifest, error) {
	var m Manifest
	dec := json.NewDecoder(io.LimitReader(r, maxManifestBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Manifest{}, fmt.Errorf("manifest: %w", err)
	}
	return m, m.Validate()
}

// Validate checks every entry: a set name, a relative path that stays inside
// the data directory and holds no control character (a newline), one URL
// (two for "shuttle") without one, a 64-hex-digit SHA-256 and a size in
// (0, 1 GiB].
func (m Manifest) Validate() error {
	if len(m.Files) == 0 {
		return fmt.Errorf("manifest: no files")
	}
	for i, f := range m.Files {
		where := fmt.Sprintf("manifest: file %d (%q)", i, f.Path)
		if f.Set != "obd" && f.Set != "uci" {
			return fmt.Errorf("%s: set %q, want obd or uci", where, f.Set)
		}
		if i := strings.IndexFunc(f.Path, unicode.IsControl); i >= 0 {
			return fmt.Errorf("%s: path holds the control character %q at byte %d (a newline would split the error messages and logs that name it)", where, f.Path[i:i+1], i)
		}
		clean := filepath.ToSlash(filepath.Clean(filepath.FromSlash(f.Path)))
		if f.Path == "" || clean != f.Path || filepath.IsAbs(f.Path) || strings.HasPrefix(clean, "../") || clean == ".." || clean == "." || strings.HasPrefix(f.Path, "/") {
			return fmt.Errorf("%s: path must be clean, relative and inside the data directory", where)
		}
		want := 1
		switch f.Convert {
		case "":
		case "shuttle":
			want = 2
		default:
			return fmt.Errorf("%s: convert %q, want \"\" or \"shuttle\"", where, f.Convert)
		}
		if len(f.URLs) != want {
			return fmt.Errorf("%s: %d URLs, want %d", where, len(f.URLs), want)
		}
		for _, u := range f.URLs {
			if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
				return fmt.Errorf("%s: URL %q, want http:// or https://", where, u)
			}
			if strings.IndexFunc(u, unicode.IsControl) >= 0 {
				return fmt.Errorf("%s: URL %q holds a control character", where, u)
			}
		}
		if b, err := hex.DecodeString(f.SHA256); err != nil || len(b) != sha256.Size {
			return fmt.Errorf("%s: sha256 %q, want 64 hex digits", where, f.SHA256)
		}
		if !(f.Size > 0 && f.Size <= maxFileSize) {
			return fmt.Errorf("%s: size %d, want 1..%d", where, f.Size, maxFileSize)
		}
	}
	return nil
}

// Select returns the files of set ("obd", "uci" or "all").
func (m Manifest) Select(set string) ([]File, error) {
	switch set {
	case "obd", "uci", "all":
	default:
		return nil, fmt.Errorf("data set %q, want one of %s", set, strings.Join(Sets, ", "))
	}
	var out []File
	for _, f := range m.Files {
		if set == "all" || f.Set == set {
			out = append(out, f)
		}
	}
	return out, nil
}

// Fetcher downloads manifest files into a directory.
type Fetcher struct {
	// Client, when set, is used as is (its own timeouts). nil: a client
	// with ConnectTimeout on connecting (and on the TLS handshake).
	Client *http.Client
	Log    io.Writer // progress lines; nil: none
	// ConnectTimeout bounds connecting to a server. Defaults to 30 s.
	ConnectTimeout time.Duration
	// IdleTimeout bounds any wait for the server: for the response headers
	// and between two reads of the body that bring data. A server that
	// stalls fails the attempt. Defaults to 60 s.
	IdleTimeout time.Duration
	// Timeout bounds a whole attempt, from the request to the body's last
	// byte: a server that trickles data (a byte every few seconds never
	// trips IdleTimeout) fails the attempt. Defaults to 10 × IdleTimeout
	// (10 minutes with the defaults).
	Timeout time.Duration
	// Attempts is the number of tries of each URL on a network failure, a
	// stall or a 5xx status (4xx and oversized bodies are not retried).
	// Defaults to 3.
	Attempts int
	// Backoff is the wait before the second attempt, doubled before each
	// later one. Defaults to 2 s.
	Backoff time.Duration
}

// Fetch writes each file under dir: a file already there with the pinned
// checksum is kept; otherwise its sources are downloaded (each bounded by
// 4× the pinned size + 1 MiB, each attempt by the Fetcher's timeouts, and
// retried with backoff), converted, checked against the pinned SHA-256 and
// written atomically (a temporary file in the same directory, synced, then
// renamed), so an interrupted or failed fetch never leaves a partial or
// unverified file under the final name. A file that fails does not stop
// the others: every file is tried, and the error summarises the failures
// (for network failures, with the routes that need no network).
func (f Fetcher) Fetch(ctx context.Context, dir string, files []File) error {
	if dir == "" {
		return fmt.Errorf("data directory is empty; pass -dir DIR or set %s", EnvDir)
	}
	if err := f.check(); err != nil {
		return err
	}
	var failed []File
	var errs []error
	network := false
	for _, file := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := f.fetchOne(ctx, dir, file); err != nil {
			if ctx.Err() != nil {
				return err
			}
			f.logf("FAILED   %s: %v\n", file.Path, err)
			failed, errs = append(failed, file), append(errs, err)
			network = network || isNetworkError(err)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d files failed:", len(failed), len(files))
	for i, file := range failed {
		fmt.Fprintf(&b, "\n  %s: %v", file.Path, errs[i])
	}
	if network {
		fmt.Fprintf(&b, "\nThis is a network failure (offline, DNS, a firewall or a stalled server). Without the network:\n"+
			"  - pass -manifest FILE, a JSON manifest whose URLs point to a mirror you can reach (file fields: set, path, urls, sha256, size), or\n"+
			"  - copy the files into %s under these paths; each is kept when its SHA-256 matches:", dir)
		for _, file := range failed {
			fmt.Fprintf(&b, "\n      %s  sha256 %s  from %s", file.Path, file.SHA256, strings.Join(file.URLs, " + "))
			if file.Convert != "" {
				fmt.Fprintf(&b, " (converted: %s)", file.Convert)
			}
		}
	}
	return errors.New(b.String())
}

// fetchOne fetches one file into dir (kept when its checksum matches).
func (f Fetcher) fetchOne(ctx context.Context, dir string, file File) error {
	dst := filepath.Join(dir, filepath.FromSlash(file.Path))
	if ok, _ := hasSum(dst, file.SHA256); ok {
		f.logf("ok       %s (checksum matches, kept)\n", dst)
		return nil
	}
	body, err := f.get(ctx, file)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(body)
	if got := hex.EncodeToString(sum[:]); got != file.SHA256 {
		return fmt.Errorf("%s: SHA-256 %s, want %s (pinned); nothing written", file.Path, got, file.SHA256)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := atomicfile.WriteBytes(dst, body, 0o644); err != nil {
		return err
	}
	f.logf("fetched  %s (%d bytes, SHA-256 verified)\n", dst, len(body))
	return nil
}

// check validates the Fetcher's settings.
func (f Fetcher) check() error {
	if f.ConnectTimeout < 0 || f.IdleTimeout < 0 || f.Timeout < 0 || f.Backoff < 0 || f.Attempts < 0 {
		return fmt.Errorf("data: fetch: negative timeout, backoff or attempts (%v, %v, %v, %v, %d)", f.ConnectTimeout, f.IdleTimeout, f.Timeout, f.Backoff, f.Attempts)
	}
	return nil
}

func (f Fetcher) connectTimeout() time.Duration { return cmp.Or(f.ConnectTimeout, 30*time.Second) }
func (f Fetcher) idleTimeout() time.Duration    { return cmp.Or(f.IdleTimeout, 60*time.Second) }
func (f Fetcher) timeout() time.Duration        { return cmp.Or(f.Timeout, 10*f.idleTimeout()) }
func (f Fetcher) attempts() int                 { return cmp.Or(f.Attempts, 3) }
func (f Fetcher) backoff() time.Duration        { return cmp.Or(f.Backoff, 2*time.Second) }

// errStalled is the cause of an attempt cancelled for want of data.
type errStalled struct{ d time.Duration }

func (e errStalled) Error() string {
	return fmt.Sprintf("no data from the server for %v (stalled)", e.d)
}

// errSlow is the cause of an attempt cancelled at Fetcher.Timeout.
type errSlow struct{ d time.Duration }

func (e errSlow) Error() string {
	return fmt.Sprintf("the download did not finish within %v (the server sends too slowly)", e.d)
}

// networkError marks an error of reaching or hearing from a server: the
// request, the response and the body's reads, a stall or a download too
// slow. Errors of the local side (the data directory, the disk) are never
// marked, whatever their type: a syscall.Errno such as ENOSPC satisfies
// net.Error too.
type networkError struct{ error }

func (e networkError) Unwrap() error { return e.error }

// retryable marks an attempt's error that a later attempt may not have.
type retryable struct{ error }

func (e retryable) Unwrap() error { return e.error }

// isNetworkError reports a failure to reach or hear from a server (as
// opposed to a wrong status, size or checksum, or a local failure such as
// a full disk or a -dir that is a file).
func isNetworkError(err error) bool {
	var ne networkError
	return errors.As(err, &ne)
}

func (f Fetcher) logf(format string, a ...any) {
	if f.Log != nil {
		fmt.Fprintf(f.Log, format, a...)
	}
}

// get downloads the file's sources and converts them.
func (f Fetcher) get(ctx context.Context, file File) ([]byte, error) {
	limit := 4*file.Size + 1<<20
	var bodies [][]byte
	for _, u := range file.URLs {
		b, err := f.download(ctx, u, limit)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file.Path, err)
		}
		bodies = append(bodies, b)
	}
	switch file.Convert {
	case "":
		return bodies[0], nil
	case "shuttle":
		var ins []NamedReader
		for i, b := range bodies {
			b, err := maybeUnlzw(b)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", file.Path, file.URLs[i], err)
			}
			ins = append(ins, NamedReader{Name: file.URLs[i], R: bytes.NewReader(b)})
		}
		var out bytes.Buffer
		if err := ConvertShuttle(&out, ins...); err != nil {
			return nil, fmt.Errorf("%s: %w", file.Path, err)
		}
		return out.Bytes(), nil
	}
	return nil, fmt.Errorf("%s: convert %q unknown", file.Path, file.Convert)
}

// download gets url, retrying network failures, stalls and 5xx statuses
// with exponential backoff (f.Attempts tries in all).
func (f Fetcher) download(ctx context.Context, url string, limit int64) ([]byte, error) {
	c := f.Client
	if c == nil {
		dialer := &net.Dialer{Timeout: f.connectTimeout(), KeepAlive: 30 * time.Second}
		c = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         dialer.DialContext,
			TLSHandshakeTimeout: f.connectTimeout(),
			IdleConnTimeout:     90 * time.Second,
		}}
		defer c.CloseIdleConnections()
	}
	wait := f.backoff()
	for attempt := 1; ; attempt++ {
		b, err := f.attempt(ctx, c, url, limit)
		var r retryable
		if err == nil || !errors.As(err, &r) || attempt >= f.attempts() || ctx.Err() != nil {
			if err != nil && attempt > 1 {
				err = fmt.Errorf("%w (after %d attempts)", err, attempt)
			}
			return b, err
		}
		f.logf("retry    %s in %v (attempt %d of %d failed: %v)\n", url, wait, attempt, f.attempts(), err)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// attempt gets url once; the request is cancelled when no data arrives
// for IdleTimeout (headers or body), and when the whole attempt takes
// longer than Timeout.
func (f Fetcher) attempt(ctx context.Context, c *http.Client, url string, limit int64) ([]byte, error) {
	idle, whole := f.idleTimeout(), f.timeout()
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := time.AfterFunc(idle, func() { cancel(errStalled{idle}) })
	defer timer.Stop()
	deadline := time.AfterFunc(whole, func() { cancel(errSlow{whole}) })
	defer deadline.Stop()
	fail := func(err error) error {
		if cause := context.Cause(actx); cause != nil && ctx.Err() == nil {
			err = cause // the stall or the deadline, not "context canceled"
		}
		err = networkError{fmt.Errorf("GET %s: %w", url, err)}
		if ctx.Err() != nil {
			return err
		}
		return retryable{err}
	}
	req, err := http.NewRequestWithContext(actx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fail(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("GET %s: %s", url, resp.Status)
		if resp.StatusCode >= 500 {
			return nil, retryable{err}
		}
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(progressReader{resp.Body, func() { timer.Reset(idle) }}, limit+1))
	if err != nil {
		return nil, fail(err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("GET %s: more than %d bytes", url, limit)
	}
	return b, nil
}

// progressReader calls progress after every read that brings data.
type progressReader struct {
	r        io.Reader
	progress func()
}

func (p progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.progress()
	}
	return n, err
}

// hasSum reports whether path exists with the given SHA-256.
func hasSum(path, want string) (bool, error) {
	fh, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return false, err
	}
	return hex.EncodeToString(h.Sum(nil)) == want, nil
}
