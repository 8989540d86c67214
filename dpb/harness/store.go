package harness

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dpbandits/dpbandits/dpb/internal/atomicfile"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

// Store is a directory of finished jobs that many processes, on one machine
// or many nodes of a shared filesystem, read and write at once. Every job is
// one small text file written atomically (see package atomicfile), so a job
// is either absent or complete; two processes that compute the same job write
// the same bytes and the last rename wins.
//
// Layout, chosen so that `ls` and `cat` answer "what is done":
//
//	DIR/<label>-<hash>/key.json        what the hash covers, pretty-printed
//	DIR/<label>-<hash>/r000012-s003    rep 12, series 3: a header line and one value per line
//	DIR/<label>-<hash>/reps-000035     empty: a run of 35 repetitions used the list
//
// Every file carries a SHA-256 that is checked on reading: key.json the
// hash of its key, a job file that of everything but the sum itself: its
// header line up to the sum and its value lines (at the end of the header
// line, "sha256=…"). A truncated or altered file is an error naming the
// file, never a different result.
//
// <hash> is the first 16 hex digits of the SHA-256 of the job list's key:
// the experiment's configuration (with its seed), the series and points of
// the job list's shape, the stream version (dpb.StreamVersion) and the store format. Results of
// two configurations or two stream versions therefore live in different
// directories and can never mix. The number of repetitions is not in the
// key: a repetition's results depend on its index alone (its streams come
// from the seed and the index), so a run with more repetitions reuses the
// stored ones and computes only the new ones.
type Store struct {
	dir string
}

// StoreFormat is the store's format version, recorded in every key.json.
// Format 3 keys each repetition on its own (the run count is not in the
// key); the stores before it (no "format" in key.json) had the run count in
// the key, and are refused by [OpenStore] and [ExistingStore].
const StoreFormat = 3

// checkFormat refuses a store holding job lists of another format, naming
// them; a key.json that does not parse is left to the reader that opens it
// (which reports it damaged).
func checkFormat(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var old []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		raw, err := readRegular(filepath.Join(dir, e.Name(), "key.json"), maxSmallFile)
		if err != nil {
			continue // not a job list (e.g. Slurm's logs), or reported by its reader
		}
		var doc struct {
			Key struct {
				Format int `json:"format"`
			} `json:"key"`
		}
		if json.Unmarshal(raw, &doc) != nil || doc.Key.Format == StoreFormat {
			continue
		}
		old = append(old, e.Name())
	}
	if len(old) == 0 {
		return nil
	}
	more := ""
	if len(old) > 3 {
		old, more = old[:3], fmt.Sprintf(" and %d more", len(old)-3)
	}
	return fmt.Errorf("harness: store %s holds job lists of an older format (%s%s): their keys include the run count, "+
		"while this dpb keys each repetition on its own (store format %d), so it cannot reuse them; "+
		"use a new -store directory (or remove those directories) and run again to recompute",
		dir, strings.Join(old, ", "), more, StoreFormat)
}

// ExistingStore opens the store at dir for reading (a merge): dir must
// exist; nothing is created. A store of another format is refused.
func ExistingStore(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("harness: empty store directory")
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("harness: store %s: %w (nothing to merge; run the shards with -store %s first)", dir, err, dir)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("harness: store %s is not a directory", dir)
	}
	if err := checkFormat(dir); err != nil {
		return nil, err
	}
	return &Store{dir: dir}, nil
}

// OpenStore opens (creating if needed) the store at dir. A store of another
// format is refused.
func OpenStore(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("harness: empty store directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := checkFormat(dir); err != nil {
		return nil, err
	}
	return &Store{dir: dir}, nil
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// Shape is the shape of one job list: Reps × Series jobs of Points values.
type Shape struct {
	Reps   int `json:"reps"`
	Series int `json:"series"`
	Points int `json:"points"`
}

// Jobs is the number of jobs.
func (sh Shape) Jobs() int { return sh.Reps * sh.Series }

// Job returns job i of the list in its fixed, repetition-major order.
func (sh Shape) Job(i int) Job { return Job{Rep: i / sh.Series, Series: i % sh.Series} }

// storeKey is what a bin's hash covers (and what key.json shows).
type storeKey struct {
	Format        int             `json:"format"`
	Label         string          `json:"label"`
	StreamVersion int             `json:"stream_version"`
	Shape         keyShape        `json:"shape"`
	Config        json.RawMessage `json:"config"`
	// Build is simd.FusionBuild(): empty (and so left out of the hash, which
	// keeps the keys of default builds) except for builds whose compiler
	// fuses multiply-adds, whose results may differ in the last bits.
	Build string `json:"build,omitempty"`
}

// keyShape is the part of a Shape in the key: not the repetitions, which
// the key leaves out so that runs of any length share their repetitions.
type keyShape struct {
	Series int `json:"series"`
	Points int `json:"points"`
}

// runCount returns the path of a member named "reps" (any case, at any
// depth) with a value other than 0, null or false in the configuration
// JSON: the run count, which a key must leave out.
func runCount(v any, path string) string {
	switch v := v.(type) {
	case map[string]any:
		names := make([]string, 0, len(v))
		for k := range v {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if strings.EqualFold(k, "reps") {
				switch x := v[k].(type) {
				case nil, bool:
				case float64:
					if x != 0 {
						return path + "." + k
					}
				default:
					return path + "." + k
				}
			}
			if p := runCount(v[k], path+"."+k); p != "" {
				return p
			}
		}
	case []any:
		for i, x := range v {
			if p := runCount(x, fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	}
	return ""
}

// Bin is the store directory of one job list.
type Bin struct {
	dir     string
	hash    string
	shape   Shape
	label   string
	version int
}

var labelOK = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*$`)

// Bin opens the directory of the job list named label (lower-case letters,
// digits, dots and dashes, for humans) with the given shape, whose results
// are determined by config (JSON-encodable; every field that changes a
// result must be encoded, and nothing else such as worker counts or the
// number of repetitions: a config with a non-zero "reps" member is refused,
// since a repetition's results must not depend on the run count).
func (s *Store) Bin(label string, config any, shape Shape) (*Bin, error) {
	return s.bin(label, config, shape, true)
}

// ExistingBin is [Store.Bin] for a reader: it creates nothing, and reports
// false when the job list has no directory in the store (no job of it done).
func (s *Store) ExistingBin(label string, config any, shape Shape) (*Bin, bool, error) {
	b, err := s.bin(label, config, shape, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return b, err == nil, err
}

func (s *Store) bin(label string, config any, shape Shape, create bool) (*Bin, error) {
	if !labelOK.MatchString(label) {
		return nil, fmt.Errorf("harness: store label %q: want lower-case letters, digits, '.' and '-'", label)
	}
	if shape.Reps < 1 || shape.Series < 1 || shape.Points < 0 {
		return nil, fmt.Errorf("harness: bad job list shape %+v", shape)
	}
	cj, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("harness: store key of %s: %w", label, err)
	}
	var tree any
	if err := json.Unmarshal(cj, &tree); err != nil {
		return nil, fmt.Errorf("harness: store key of %s: %w", label, err)
	}
	if p := runCount(tree, "config"); p != "" {
		return nil, fmt.Errorf("harness: store key of %s holds the run count (%s): the store keys each repetition on its own; leave the repetitions out of the key", label, p)
	}
	key := storeKey{Format: StoreFormat, Label: label, StreamVersion: snap.StreamVersion,
		Shape: keyShape{Series: shape.Series, Points: shape.Points}, Config: cj, Build: simd.FusionBuild()}
	kj, err := json.Marshal(key)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(kj)
	hash := hex.EncodeToString(sum[:])
	b := &Bin{dir: filepath.Join(s.dir, label+"-"+hash[:16]), hash: hash, shape: shape, label: label, version: snap.StreamVersion}
	if !create {
		if _, err := os.Stat(b.dir); err != nil {
			return nil, err
		}
	} else if err := os.MkdirAll(b.dir, 0o755); err != nil {
		return nil, err
	}
	kp := filepath.Join(b.dir, "key.json")
	if old, err := readRegular(kp, maxSmallFile); err == nil {
		k, _, err := readKey(kp, old)
		if err != nil {
			return nil, err
		}
		if k.SHA256 != hash {
			return nil, fmt.Errorf("harness: %s belongs to another job list (sha256 %q, want %s): a 64-bit hash prefix collision or a damaged store", kp, k.SHA256, hash)
		}
		return b, b.markRuns(create)
	} else if !errors.Is(err, fs.ErrNotExist) || !create {
		return nil, err
	}
	doc, err := json.MarshalIndent(keyDoc{hash, kj}, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteBytes(kp, append(doc, '\n'), 0o644); err != nil {
		return nil, err
	}
	return b, b.markRuns(create)
}

// markRuns records, for "dpb store", that a run of b.shape.Reps
// repetitions used the bin: an empty file "reps-NNNNNN" (the key has no run
// count, so the listing of missing jobs runs to the largest recorded). A
// reader (create false) records nothing.
func (b *Bin) markRuns(create bool) error {
	if !create {
		return nil
	}
	p := filepath.Join(b.dir, fmt.Sprintf("reps-%06d", b.shape.Reps))
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	return atomicfile.WriteBytes(p, nil, 0o644)
}

// keyDoc is the content of key.json.
type keyDoc struct {
	SHA256 string          `json:"sha256"`
	Key    json.RawMessage `json:"key"`
}

// maxJobs bounds the jobs of one job list read from a key.json (a damaged
// "reps": 4e12 would otherwise make the listing of missing jobs run out of
// memory).
const maxJobs = 1 << 26

// MaxSeries is the most series a job list can have (a job file name holds
// sNNN).
const MaxSeries = 1000

// readKey parses the key.json at path (content raw) and checks it: the
// SHA-256 of its key (in compact form, as hashed when written) must be the
// one it records, and the shape must be a valid job list.
func readKey(path string, raw []byte) (keyDoc, storeKey, error) {
	var doc keyDoc
	var key storeKey
	bad := func(why string) (keyDoc, storeKey, error) {
		return doc, key, fmt.Errorf("harness: %s: %s: a damaged store (remove the directory to recompute its jobs)", path, why)
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return bad("not a job list key: " + err.Error())
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, doc.Key); err != nil || len(doc.Key) == 0 {
		return bad("no key")
	}
	sum := sha256.Sum256(compact.Bytes())
	if got := hex.EncodeToString(sum[:]); got != doc.SHA256 {
		return bad(fmt.Sprintf("the key's SHA-256 is %s, the file records %q", got, doc.SHA256))
	}
	if err := json.Unmarshal(doc.Key, &key); err != nil {
		return bad("key: " + err.Error())
	}
	if key.Format != StoreFormat {
		return doc, key, fmt.Errorf("harness: %s: store format %d, this dpb reads format %d (each repetition keyed on its own): recompute into a new store", path, key.Format, StoreFormat)
	}
	sh := key.Shape
	if sh.Series < 1 || sh.Points < 0 || sh.Series > MaxSeries || sh.Points > maxJobs {
		return bad(fmt.Sprintf("shape %+v: want 1 <= series <= %d and 0 <= points <= %d", sh, MaxSeries, maxJobs))
	}
	return doc, key, nil
}

// Dir returns the bin's directory.
func (b *Bin) Dir() string { return b.dir }

// Shape returns the bin's job list shape.
func (b *Bin) Shape() Shape { return b.shape }

func (b *Bin) path(j Job) string {
	return filepath.Join(b.dir, fmt.Sprintf("r%06d-s%03d", j.Rep, j.Series))
}

func (b *Bin) header(j Job) string {
	return fmt.Sprintf("dpb-job key=%s rep=%d series=%d points=%d", b.hash[:16], j.Rep, j.Series, b.shape.Points)
}

// Save writes job j's values (len = Points) atomically. The header line
// records the kernel that computed them and ends with the SHA-256 of the
// file without that field: the header line up to " sha256=", a newline and
// the value lines ([jobSum]), so no byte of the file but the sum itself is
// outside it.
func (b *Bin) Save(j Job, vals []float64) error {
	if len(vals) != b.shape.Points {
		return fmt.Errorf("harness: job %v has %d values, want %d", j, len(vals), b.shape.Points)
	}
	body := make([]byte, 0, 24*len(vals))
	for _, v := range vals {
		// 'g' with precision -1 round-trips every Float64, NaN and ±Inf included.
		body = strconv.AppendFloat(body, v, 'g', -1, 64)
		body = append(body, '\n')
	}
	head := fmt.Sprintf("%s kernel=%s", b.header(j), simd.Kernel())
	sum := jobSum(head, body)
	return atomicfile.WriteFile(b.path(j), 0o644, func(w io.Writer) error {
		if _, err := fmt.Fprintf(w, "%s sha256=%s\n", head, sum); err != nil {
			return err
		}
		_, err := w.Write(body)
		return err
	})
}

// jobSum is the hex SHA-256 of a job file without its checksum field: the
// header line up to " sha256=" (head), a newline, then the value lines.
func jobSum(head string, body []byte) string {
	h := sha256.New()
	io.WriteString(h, head)
	h.Write([]byte{'\n'})
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// maxJobFile bounds the size of a job file read (a job of P values takes
// at most about 25 bytes a value).
func (b *Bin) maxJobFile() int64 { return 1<<12 + 32*int64(b.shape.Points) }

// Load reads job j into out (len = Points). It reports false when the job is
// not in the store; a job file that does not match its name, shape or
// checksum is an error naming the file (never silently recomputed or used:
// it would mean a damaged store).
func (b *Bin) Load(j Job, out []float64) (bool, error) {
	if len(out) != b.shape.Points {
		return false, fmt.Errorf("harness: loading job %v into %d values, want %d", j, len(out), b.shape.Points)
	}
	f, err := openRegular(b.path(j))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	bad := func(why string) (bool, error) {
		return false, fmt.Errorf("harness: store file %s: %s: the file is damaged (truncated or altered); delete it to recompute the job", b.path(j), why)
	}
	raw, err := io.ReadAll(io.LimitReader(f, b.maxJobFile()+1))
	if err != nil {
		return false, fmt.Errorf("harness: store file %s: %w", b.path(j), err)
	}
	if int64(len(raw)) > b.maxJobFile() {
		return bad(fmt.Sprintf("more than %d bytes", b.maxJobFile()))
	}
	head, body, ok := bytes.Cut(raw, []byte{'\n'})
	if !ok || !strings.HasPrefix(string(head), b.header(j)+" ") {
		return bad("header does not match " + b.header(j))
	}
	covered, want, ok := strings.Cut(string(head), " sha256=")
	if !ok || want == "" || strings.Contains(want, " ") {
		return bad("no sha256= at the end of the header line (a file written before job files carried checksums, or an altered header)")
	}
	if !strings.HasPrefix(covered, b.header(j)+" kernel=") || strings.Count(covered, " ") != strings.Count(b.header(j), " ")+1 {
		return bad("the header line is not " + b.header(j) + " kernel=KERNEL sha256=SUM")
	}
	if sum := jobSum(covered, body); sum != want {
		if old := sha256.Sum256(body); hex.EncodeToString(old[:]) == want {
			return bad("its checksum covers the values only (written before the header line was covered too, or the header altered since)")
		}
		return bad(fmt.Sprintf("the SHA-256 of the header and values is %s, the header records %s", sum, want))
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for i := range out {
		if !sc.Scan() {
			return bad(fmt.Sprintf("%d values, want %d", i, len(out)))
		}
		v, err := strconv.ParseFloat(sc.Text(), 64)
		if err != nil {
			return bad(err.Error())
		}
		out[i] = v
	}
	if sc.Scan() {
		return bad(fmt.Sprintf("more than %d values", len(out)))
	}
	return true, sc.Err()
}

// Verify reads every job file of the bin (and its key.json) and returns one
// error per damaged file, naming it; nil when all are sound.
func (b *Bin) Verify() []error {
	var errs []error
	kp := filepath.Join(b.dir, "key.json")
	if raw, err := readRegular(kp, maxSmallFile); err != nil {
		errs = append(errs, err)
	} else if doc, _, err := readKey(kp, raw); err != nil {
		errs = append(errs, err)
	} else if doc.SHA256 != b.hash {
		errs = append(errs, fmt.Errorf("harness: %s: sha256 %s, want %s", kp, doc.SHA256, b.hash))
	}
	done, err := b.Done()
	if err != nil {
		return append(errs, err)
	}
	out := make([]float64, b.shape.Points)
	for _, j := range done {
		if _, err := b.Load(j, out); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// CleanTemp removes the temporary files that killed writers left in the bin
// (atomicfile's ".…tmp-…" files) last modified before olderThan ago, so as
// not to remove a live writer's file; it returns the names removed.
func (b *Bin) CleanTemp(olderThan time.Duration) ([]string, error) {
	ents, err := os.ReadDir(b.dir)
	if err != nil {
		return nil, err
	}
	var gone []string
	for _, e := range ents {
		if !atomicfile.IsTemp(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil || time.Since(info.ModTime()) < olderThan {
			continue
		}
		p := filepath.Join(b.dir, e.Name())
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return gone, err
		}
		gone = append(gone, p)
	}
	return gone, nil
}

// Done lists the jobs present in the bin, in job-list order.
func (b *Bin) Done() ([]Job, error) {
	ents, err := os.ReadDir(b.dir)
	if err != nil {
		return nil, err
	}
	var jobs []Job
	for _, e := range ents {
		var j Job
		if atomicfile.IsTemp(e.Name()) {
			continue
		}
		if n, _ := fmt.Sscanf(e.Name(), "r%06d-s%03d", &j.Rep, &j.Series); n == 2 && j.Rep < b.shape.Reps && j.Series < b.shape.Series {
			jobs = append(jobs, j)
		}
	}
	sort.Slice(jobs, func(a, c int) bool {
		return jobs[a].Rep < jobs[c].Rep || jobs[a].Rep == jobs[c].Rep && jobs[a].Series < jobs[c].Series
	})
	return jobs, nil
}

// Missing lists the jobs of the list not in the bin, in job-list order.
func (b *Bin) Missing() ([]Job, error) {
	done, err := b.Done()
	if err != nil {
		return nil, err
	}
	have := make(map[Job]bool, len(done))
	for _, j := range done {
		have[j] = true
	}
	var miss []Job
	for i := range b.shape.Jobs() {
		if j := b.shape.Job(i); !have[j] {
			miss = append(miss, j)
		}
	}
	return miss, nil
}

// Bins opens every job list directory of the store (each described by its
// key.json), sorted by name, so a reader can list what is done and what is
// missing without knowing the experiments' configurations. A job list's key
// has no run count, so each bin's Shape runs to the largest run count a run
// opened it with (or the highest repetition stored), and Missing lists the
// jobs below it not stored.
func (s *Store) Bins() ([]*Bin, error) {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, err
	}
	var bins []*Bin
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(s.dir, e.Name())
		raw, err := readRegular(filepath.Join(dir, "key.json"), maxSmallFile)
		if errors.Is(err, fs.ErrNotExist) {
			continue // not a job list (e.g. Slurm's logs)
		}
		if err != nil {
			return nil, err
		}
		doc, key, err := readKey(filepath.Join(dir, "key.json"), raw)
		if err != nil {
			return nil, err
		}
		// The key has no run count: the bin's list runs to the largest
		// run count recorded (reps-NNNNNN) or the highest repetition stored
		// (at most maxJobs jobs).
		maxReps := maxJobs / key.Shape.Series
		b := &Bin{dir: dir, hash: doc.SHA256, shape: Shape{Reps: maxReps, Series: key.Shape.Series, Points: key.Shape.Points},
			label: key.Label, version: key.StreamVersion}
		done, err := b.Done()
		if err != nil {
			return nil, err
		}
		b.shape.Reps = 0
		if len(done) > 0 {
			b.shape.Reps = done[len(done)-1].Rep + 1
		}
		marks, err := filepath.Glob(filepath.Join(dir, "reps-*"))
		if err != nil {
			return nil, err
		}
		for _, m := range marks {
			var r int
			if n, _ := fmt.Sscanf(filepath.Base(m), "reps-%06d", &r); n == 1 && r > b.shape.Reps && r <= maxReps {
				b.shape.Reps = r
			}
		}
		bins = append(bins, b)
	}
	return bins, nil
}

// Label returns the bin's label and StreamVersion the stream version its
// jobs were computed with.
func (b *Bin) Label() string { return b.label }

// StreamVersion is the stream version (dpb.StreamVersion) of the bin's jobs.
func (b *Bin) StreamVersion() int { return b.version }
