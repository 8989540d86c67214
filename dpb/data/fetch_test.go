package data_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dpbandits/dpbandits/dpb/data"
	"github.com/dpbandits/dpbandits/dpb/internal/datafixture"
)

// serve starts a local server with the fixtures and returns their manifest.
func serve(t *testing.T, files map[string][]byte) data.Manifest {
	t.Helper()
	srv := httptest.NewServer(datafixture.Handler(files))
	t.Cleanup(srv.Close)
	m, err := datafixture.Manifest(srv.URL, files)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestFetchAllFromLocalServer(t *testing.T) {
	m := serve(t, datafixture.Files(1))
	dir := t.TempDir()
	files, err := m.Select("all")
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if err := (data.Fetcher{Log: &log}).Fetch(context.Background(), dir, files); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if hex.EncodeToString(sum[:]) != f.SHA256 {
			t.Errorf("%s: checksum differs from the manifest", f.Path)
		}
	}
	if got := strings.Count(log.String(), "fetched"); got != len(files) {
		t.Errorf("log says %d fetched, want %d:\n%s", got, len(files), log.String())
	}
	// A second fetch keeps every file (checksums match) and downloads nothing.
	log.Reset()
	if err := (data.Fetcher{Log: &log}).Fetch(context.Background(), dir, files); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "fetched") {
		t.Errorf("second fetch downloaded again:\n%s", log.String())
	}
	// The converted Shuttle CSV is what LoadShuttle's format says.
	b, _ := os.ReadFile(filepath.Join(dir, "uci", "shuttle.csv"))
	if !strings.HasPrefix(string(b), `"V1","V2","V3","V4","V5","V6","V7","V8","V9","Class"`+"\n") || strings.Count(string(b), "\n") != 2001 {
		t.Errorf("shuttle.csv: unexpected header or row count (%d lines)", strings.Count(string(b), "\n"))
	}
}

func TestFetchRejectsWrongChecksum(t *testing.T) {
	files := datafixture.Files(1)
	m := serve(t, files)
	obd, _ := m.Select("obd")
	f := obd[0]
	f.SHA256 = strings.Repeat("0", 64)
	dir := t.TempDir()
	err := data.Fetcher{}.Fetch(context.Background(), dir, []data.File{f})
	if err == nil || !strings.Contains(err.Error(), "want "+f.SHA256+" (pinned); nothing written") {
		t.Fatalf("err = %v, want a checksum error", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "obd", "random", "men", "*"))
	if len(left) != 0 {
		t.Errorf("a failed fetch left files: %v", left)
	}
}

func TestFetchErrors(t *testing.T) {
	m := serve(t, datafixture.Files(1))
	uci, _ := m.Select("uci")
	missing := uci[0]
	missing.URLs = []string{missing.URLs[0] + ".nope", missing.URLs[1]}
	big := uci[1]
	big.Size = 10 // the download bound is 4×10 + 1 MiB: fine; make the body larger instead
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 2<<20))
	}))
	defer srv.Close()
	big.URLs = []string{srv.URL + "/big"}
	for _, c := range []struct {
		f    data.File
		want string
	}{
		{missing, "404 Not Found"},
		{big, "more than 1048616 bytes"},
	} {
		err := data.Fetcher{}.Fetch(context.Background(), t.TempDir(), []data.File{c.f})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.f.Path, err, c.want)
		}
	}
	if err := (data.Fetcher{}).Fetch(context.Background(), "", uci); err == nil {
		t.Error("empty directory accepted")
	}
}

func TestManifestValidate(t *testing.T) {
	if err := data.DefaultManifest().Validate(); err != nil {
		t.Fatal(err)
	}
	good := data.DefaultManifest().Files[0]
	for _, c := range []struct {
		edit func(*data.File)
		want string
	}{
		{func(f *data.File) { f.Path = "../evil" }, "inside the data directory"},
		{func(f *data.File) { f.Path = "/etc/passwd" }, "inside the data directory"},
		{func(f *data.File) { f.Path = "obd/./x" }, "inside the data directory"},
		{func(f *data.File) { f.Path = "." }, "inside the data directory"}, // issue 40, Low: the directory itself
		{func(f *data.File) { f.Set = "yahoo" }, `set "yahoo", want obd or uci`},
		{func(f *data.File) { f.SHA256 = "abc" }, "want 64 hex digits"},
		{func(f *data.File) { f.URLs = []string{"file:///etc/passwd"} }, "want http:// or https://"},
		{func(f *data.File) { f.Convert = "gunzip" }, `convert "gunzip"`},
		{func(f *data.File) { f.Size = -1 }, "size -1, want 1.."},
		{func(f *data.File) { f.URLs = nil }, "0 URLs, want 1"},
		{func(f *data.File) { f.Path = "obd/men\nFAILED   obd/women.csv" }, `holds the control character "\n" at byte 7`},
		{func(f *data.File) { f.Path = "obd/men\r.csv" }, "control character"},
		{func(f *data.File) { f.URLs = []string{"https://example.org/a\nb"} }, "holds a control character"},
	} {
		f := good
		f.URLs = append([]string(nil), good.URLs...)
		c.edit(&f)
		err := data.Manifest{Files: []data.File{f}}.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
	b, _ := json.Marshal(data.DefaultManifest())
	if _, err := data.ReadManifest(bytes.NewReader(b)); err != nil {
		t.Errorf("default manifest does not round-trip: %v", err)
	}
	if _, err := data.ReadManifest(strings.NewReader(`{"files": [], "extra": 1}`)); err == nil {
		t.Error("unknown field accepted")
	}
	if _, err := m().Select("yahoo"); err == nil || !strings.Contains(err.Error(), "want one of obd, uci, all") {
		t.Errorf("Select(yahoo) err = %v", err)
	}
}

func m() data.Manifest { return data.DefaultManifest() }

// TestShuttleConversionPinsSharedCSV rebuilds UCI's two files from the
// project's shuttle.csv (the first 43,500 rows are shuttle.trn, the rest
// shuttle.tst) and checks that the conversion reproduces the pinned
// checksum: the pin is what ConvertShuttle makes of UCI's rows.
func TestShuttleConversionPinsSharedCSV(t *testing.T) {
	src, err := data.Locate(data.Dir(), "uci/shuttle.csv")
	if err != nil {
		t.Skipf("no data: %v", err)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	code := map[string]int{}
	for i, c := range data.ShuttleClasses {
		code[`"`+c+`"`] = i + 1
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")[1:]
	var trn, tst strings.Builder
	for i, l := range lines {
		f := strings.Split(l, ",")
		w := &trn
		if i >= 43500 {
			w = &tst
		}
		w.WriteString(strings.Join(f[:9], " ") + " " + string(rune('0'+code[f[9]])) + "\n")
	}
	var out bytes.Buffer
	if err := data.ConvertShuttle(&out, data.NamedReader{Name: "trn", R: strings.NewReader(trn.String())}, data.NamedReader{Name: "tst", R: strings.NewReader(tst.String())}); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(out.Bytes())
	var pinned string
	for _, f := range data.DefaultManifest().Files {
		if f.Path == "uci/shuttle.csv" {
			pinned = f.SHA256
		}
	}
	if got := hex.EncodeToString(sum[:]); got != pinned {
		t.Errorf("converted checksum %s, pinned %s", got, pinned)
	}
}

func TestConvertShuttleCompressedAndErrors(t *testing.T) {
	z, err := os.ReadFile("testdata/sample.trn.Z")
	if err != nil {
		t.Fatal(err)
	}
	trn, err := data.Unlzw(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := data.ConvertShuttle(&out, data.NamedReader{Name: "trn", R: bytes.NewReader(trn)}); err != nil {
		t.Fatal(err)
	}
	want := `"V1","V2","V3","V4","V5","V6","V7","V8","V9","Class"
50,21,77,0,28,0,27,48,22,"Fpv.Close"
55,0,81,0,-6,11,25,88,64,"High"
40,-3,100,0,38,0,61,62,2,"Rad.Flow"
37,0,79,0,12,0,42,67,26,"Rad.Flow"
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	for _, c := range []struct{ in, want string }{
		{"1 2 3 4 5 6 7 8 9 8\n", `class is "8", want 1..7`},
		{"1 2 3 4 5 6 7 8 9\n", "9 fields, want 10"},
		{"1 2 3 4 5 6 7 8 x 1\n", `feature 9 is "x", want an integer`},
		{"", "no data rows"},
		{strings.Repeat("1", 5000) + "\n", "token too long"},
	} {
		err := data.ConvertShuttle(&bytes.Buffer{}, data.NamedReader{Name: "in", R: strings.NewReader(c.in)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.20q: err = %v, want %q", c.in, err, c.want)
		}
	}
	for _, bad := range [][]byte{nil, {0x1f}, {0x1f, 0x8b, 8}, {0x1f, 0x9d, 0x08}, {0x1f, 0x9d, 0x90, 0xff, 0xff, 0xff}} {
		if _, err := data.Unlzw(bytes.NewReader(bad)); err == nil {
			t.Errorf("Unlzw(% x) accepted", bad)
		}
	}
}

func TestDirAndLocate(t *testing.T) {
	empty := t.TempDir()
	t.Setenv(data.EnvDir, empty)
	if got := data.Dir(); got != empty {
		t.Errorf("Dir() = %s with %s=%s", got, data.EnvDir, empty)
	}
	_, err := data.Locate(data.Dir(), "uci/shuttle.csv")
	var miss *data.MissingError
	if !errors.As(err, &miss) || miss.Set != "uci" || !strings.Contains(err.Error(), "dpb data fetch uci -dir "+empty) {
		t.Errorf("Locate: err = %v, want a MissingError naming 'dpb data fetch uci'", err)
	}
	t.Setenv(data.EnvDir, "")
	t.Setenv("XDG_DATA_HOME", empty)
	if got := data.UserDir(); got != filepath.Join(empty, "dpbandits") {
		t.Errorf("UserDir() = %s", got)
	}
	if !filepath.IsAbs(data.Dir()) {
		t.Errorf("Dir() = %s, not absolute", data.Dir())
	}
}

// A server that stalls after the headers (or before them) fails the fetch
// after the idle timeout and the bounded retries, instead of hanging it
// forever (issue 40, item 6).
func TestFetchStalledServer(t *testing.T) {
	files := datafixture.Files(1)
	m := serve(t, files)
	obd, _ := m.Select("obd")
	release := make(chan struct{})
	defer close(release)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/body" {
			w.Header().Set("Content-Length", "1000")
			w.WriteHeader(http.StatusOK)
			w.Write([]byte("action,"))
			w.(http.Flusher).Flush()
		}
		select { // stall until the client gives up (or the test ends)
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	for _, path := range []string{"/body", "/headers"} {
		hits.Store(0)
		f := obd[0]
		f.URLs = []string{srv.URL + path}
		start := time.Now()
		var log bytes.Buffer
		err := data.Fetcher{IdleTimeout: 200 * time.Millisecond, Attempts: 2, Backoff: 10 * time.Millisecond, Log: &log}.Fetch(context.Background(), t.TempDir(), []data.File{f})
		if err == nil || !strings.Contains(err.Error(), "no data from the server for 200ms") || !strings.Contains(err.Error(), "after 2 attempts") {
			t.Errorf("%s: err = %v", path, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v", path, d)
		}
		if hits.Load() != 2 || !strings.Contains(log.String(), "retry") {
			t.Errorf("%s: %d requests, log:\n%s", path, hits.Load(), log.String())
		}
	}
}

// A server that sends a byte every 50 ms never trips the idle timeout; the
// attempt's own deadline (Timeout, 10 × IdleTimeout by default: 2 s here)
// ends it. Without one, the fetch never returned (a byte every 0.7 s
// against the default 60 s idle timeout). The liveness bound, 60 s, is 30×
// the deadline; nothing asserts a duration.
func TestFetchTricklingServer(t *testing.T) {
	files := datafixture.Files(1)
	m := serve(t, files)
	obd, _ := m.Select("obd")
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000000")
		w.WriteHeader(http.StatusOK)
		for {
			w.Write([]byte("x"))
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-release:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs first: the handler returns
	f := obd[0]
	f.URLs = []string{srv.URL + "/trickle"}
	done := make(chan error, 1)
	go func() {
		done <- data.Fetcher{IdleTimeout: 200 * time.Millisecond, Attempts: 1}.Fetch(context.Background(), t.TempDir(), []data.File{f})
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "did not finish within 2s") || !strings.Contains(err.Error(), "network failure") {
			t.Errorf("err = %v, want the attempt's deadline, as a network failure", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("a server trickling a byte every 50 ms kept the fetch going for 60 s: no overall deadline")
	}
}

// A local failure (here -dir is a file: mkdir fails with ENOTDIR) is
// reported as what it is, without the network failure's offline routes.
func TestFetchLocalFailureIsNotNetwork(t *testing.T) {
	m := serve(t, datafixture.Files(1))
	obd, _ := m.Select("obd")
	file := filepath.Join(t.TempDir(), "plain-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := data.Fetcher{Attempts: 1}.Fetch(context.Background(), file, obd[:1])
	if err == nil || !strings.Contains(err.Error(), "not a directory") || strings.Contains(err.Error(), "network failure") {
		t.Errorf("err = %v, want the local cause and no network failure", err)
	}
}

// A 5xx status is retried with backoff; a 4xx is not.
func TestFetchRetries(t *testing.T) {
	files := datafixture.Files(1)
	m := serve(t, files)
	obd, _ := m.Select("obd")
	good := datafixture.Handler(files)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		good.ServeHTTP(w, r)
	}))
	defer srv.Close()
	f := obd[0]
	u, err := url.Parse(f.URLs[0])
	if err != nil {
		t.Fatal(err)
	}
	f.URLs = []string{srv.URL + u.Path}
	if err := (data.Fetcher{Backoff: time.Millisecond}).Fetch(context.Background(), t.TempDir(), []data.File{f}); err != nil || hits.Load() != 2 {
		t.Errorf("503 then 200: err = %v, %d requests", err, hits.Load())
	}
	if err := (data.Fetcher{Attempts: -1}).Fetch(context.Background(), t.TempDir(), nil); err == nil {
		t.Error("negative attempts accepted")
	}
}

// Offline, every file is tried, and the error says it is a network failure
// and names the offline routes: -manifest, or the files' paths, URLs and
// SHA-256s to copy into the directory (issue 40, Low).
func TestFetchOfflineSummary(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	l.Close() // nothing listens there now: connection refused
	m := serve(t, datafixture.Files(1))
	all, _ := m.Select("all")
	for i := range all {
		for j, u := range all[i].URLs {
			all[i].URLs[j] = dead + u[strings.LastIndex(u, "/"):]
		}
	}
	dir := t.TempDir()
	var log bytes.Buffer
	err = data.Fetcher{Attempts: 1, Log: &log}.Fetch(context.Background(), dir, all)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if !strings.Contains(msg, fmt.Sprintf("%d of %d files failed", len(all), len(all))) || !strings.Contains(msg, "network failure") || !strings.Contains(msg, "-manifest") {
		t.Errorf("summary:\n%s", msg)
	}
	for _, f := range all {
		if !strings.Contains(msg, f.Path+"  sha256 "+f.SHA256+"  from "+f.URLs[0]) {
			t.Errorf("summary lacks %s's offline route:\n%s", f.Path, msg)
		}
	}
	if got := strings.Count(log.String(), "FAILED"); got != len(all) {
		t.Errorf("%d files tried, want %d:\n%s", got, len(all), log.String())
	}
}
