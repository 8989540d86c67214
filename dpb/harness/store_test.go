package harness

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dpbandits/dpbandits/dpb/internal/simd"
)

type testKey struct {
	Seed uint64 `json:"seed"`
	N    int    `json:"n"`
}

func TestStoreRoundTrip(t *testing.T) {
	st, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sh := Shape{Reps: 3, Series: 2, Points: 4}
	b, err := st.Bin("t-exp", testKey{Seed: 7, N: 10}, sh)
	if err != nil {
		t.Fatal(err)
	}
	vals := []float64{0.1, -2.5e-300, math.Inf(1), math.NaN()}
	if err := b.Save(Job{Rep: 1, Series: 1}, vals); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, 4)
	ok, err := b.Load(Job{Rep: 1, Series: 1}, got)
	if !ok || err != nil {
		t.Fatalf("Load = %v, %v", ok, err)
	}
	for i := range vals {
		if math.Float64bits(got[i]) != math.Float64bits(vals[i]) && !(math.IsNaN(got[i]) && math.IsNaN(vals[i])) {
			t.Errorf("value %d: got %v, want %v (bit for bit)", i, got[i], vals[i])
		}
	}
	if ok, err := b.Load(Job{Rep: 0, Series: 0}, got); ok || err != nil {
		t.Errorf("absent job: Load = %v, %v; want false, nil", ok, err)
	}
	done, _ := b.Done()
	miss, _ := b.Missing()
	if len(done) != 1 || done[0] != (Job{Rep: 1, Series: 1}) || len(miss) != 5 {
		t.Errorf("done %v, missing %v", done, miss)
	}
	// The same key reopens the same directory, whatever the number of
	// repetitions (each is keyed on its own); another seed, series count,
	// point count or label does not.
	for _, reps := range []int{3, 1, 5} {
		b2, err := st.Bin("t-exp", testKey{Seed: 7, N: 10}, Shape{reps, 2, 4})
		if err != nil || b2.Dir() != b.Dir() {
			t.Fatalf("reopen with %d reps: %v, %s vs %s", reps, err, b2.Dir(), b.Dir())
		}
	}
	for _, o := range []struct {
		label string
		key   testKey
		sh    Shape
	}{{"t-exp", testKey{Seed: 8, N: 10}, sh}, {"t-exp", testKey{Seed: 7, N: 10}, Shape{3, 3, 4}}, {"t-exp", testKey{Seed: 7, N: 10}, Shape{3, 2, 5}}, {"t-other", testKey{Seed: 7, N: 10}, sh}} {
		b3, err := st.Bin(o.label, o.key, o.sh)
		if err != nil || b3.Dir() == b.Dir() {
			t.Errorf("%+v shares the directory %s (err %v)", o, b.Dir(), err)
		}
	}
	key, _ := os.ReadFile(filepath.Join(b.Dir(), "key.json"))
	if !strings.Contains(string(key), `"stream_version"`) || !strings.Contains(string(key), `"seed": 7`) {
		t.Errorf("key.json does not show the key:\n%s", key)
	}
}

// A damaged or foreign job file is an error, never silently used.
func TestStoreRejectsDamagedJob(t *testing.T) {
	st, _ := OpenStore(t.TempDir())
	b, err := st.Bin("t-exp", testKey{Seed: 1}, Shape{1, 1, 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Save(Job{}, []float64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	p := b.path(Job{})
	good, _ := os.ReadFile(p)
	for name, content := range map[string]string{
		"truncated":  string(good[:len(good)-2]),
		"extra":      string(good) + "4\n",
		"bad header": strings.Replace(string(good), "rep=0", "rep=1", 1),
		"not number": strings.Replace(string(good), "\n2\n", "\nx\n", 1),
	} {
		os.WriteFile(p, []byte(content), 0o644)
		if _, err := b.Load(Job{}, make([]float64, 3)); err == nil {
			t.Errorf("%s job file loaded without error", name)
		}
	}
}

// Many writers of one bin (as shards on a shared filesystem) leave every job
// complete and no temporary file.
func TestStoreConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	sh := Shape{Reps: 20, Series: 2, Points: 50}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, _ := OpenStore(dir)
			b, err := st.Bin("t-exp", testKey{Seed: 3}, sh)
			if err != nil {
				t.Error(err)
				return
			}
			for i := range sh.Jobs() {
				j := sh.Job((i + w*5) % sh.Jobs()) // overlapping orders: every job written several times
				v := make([]float64, sh.Points)
				for k := range v {
					v[k] = float64(j.Rep*1000 + j.Series*100 + k)
				}
				if err := b.Save(j, v); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	st, _ := OpenStore(dir)
	b, _ := st.Bin("t-exp", testKey{Seed: 3}, sh)
	if miss, _ := b.Missing(); len(miss) != 0 {
		t.Fatalf("missing %v", miss)
	}
	v := make([]float64, sh.Points)
	for i := range sh.Jobs() {
		j := sh.Job(i)
		if ok, err := b.Load(j, v); !ok || err != nil || v[sh.Points-1] != float64(j.Rep*1000+j.Series*100+sh.Points-1) {
			t.Fatalf("job %v: %v %v %v", j, ok, err, v[sh.Points-1])
		}
	}
	ents, _ := os.ReadDir(b.Dir())
	if len(ents) != sh.Jobs()+2 {
		t.Errorf("%d entries, want %d jobs + key.json + reps-000020", len(ents), sh.Jobs())
	}
}

func TestShardPartition(t *testing.T) {
	for _, total := range []int{1, 2, 7, 70, 101} {
		for n := 1; n <= 9; n++ {
			next := 0
			for i := range n {
				lo, hi := Shard{I: i, N: n}.Range(total)
				if lo != next || hi < lo {
					t.Fatalf("total %d, shard %d/%d: [%d, %d) after %d", total, i, n, lo, hi, next)
				}
				next = hi
			}
			if next != total {
				t.Fatalf("total %d, %d shards cover %d", total, n, next)
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	slurm := env(map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"})
	k8s := env(map[string]string{"JOB_COMPLETION_INDEX": "2"})
	none := env(nil)
	for _, c := range []struct {
		s    string
		env  func(string) string
		want Shard
		ok   bool
	}{
		{"0/3", none, Shard{0, 3}, true},
		{"2/3", none, Shard{2, 3}, true},
		{"3/3", none, Shard{}, false},
		{"-1/3", none, Shard{}, false},
		{"1", none, Shard{}, false},
		{"auto", slurm, Shard{3, 4}, true},
		{"auto", none, Shard{}, false},
		{"auto", k8s, Shard{}, false}, // no count: needs auto/N
		{"auto/5", k8s, Shard{2, 5}, true},
		{"auto/5", slurm, Shard{3, 5}, true},
		{"auto/2", k8s, Shard{}, false}, // index 2 out of range
		{"auto", env(map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_COUNT": "3"}), Shard{1, 3}, true},
	} {
		got, err := ParseShard(c.s, c.env)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, ok %v", c.s, got, err, c.want, c.ok)
		}
	}
}

// The default build keys its bins as before FusionBuild existed (no "build"
// field, so the hashes of existing stores stay valid); a fusing build's key
// differs, so its results never mix with the default's.
func TestStoreKeyBuild(t *testing.T) {
	base := storeKey{Label: "x", StreamVersion: 2, Shape: keyShape{Series: 1}, Config: json.RawMessage(`{}`)}
	a, _ := json.Marshal(base)
	if strings.Contains(string(a), "build") {
		t.Errorf("an empty Build is written: %s", a)
	}
	fused := base
	fused.Build = "amd64.v3"
	b, _ := json.Marshal(fused)
	if string(a) == string(b) {
		t.Error("a fusing build has the default build's key")
	}
	if runtime.GOARCH == "amd64" && simd.FusionBuild() != "" && !strings.HasPrefix(simd.FusionBuild(), "amd64.v") {
		t.Errorf("FusionBuild() = %q on amd64", simd.FusionBuild())
	}
}

// A job file cut short at a value ("4146.5" → "4146") or with one digit
// changed is refused with an error naming the file, never loaded as another
// value (issue 40, item 2).
func TestStoreChecksum(t *testing.T) {
	st, _ := OpenStore(t.TempDir())
	b, err := st.Bin("t-exp", testKey{Seed: 1}, Shape{1, 1, 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Save(Job{}, []float64{1, 2, 4146.5}); err != nil {
		t.Fatal(err)
	}
	p := b.path(Job{})
	good, _ := os.ReadFile(p)
	if !strings.Contains(strings.SplitN(string(good), "\n", 2)[0], " sha256=") {
		t.Fatalf("no checksum on the header line: %q", good)
	}
	for name, content := range map[string]string{
		"cut value":   strings.Replace(string(good), "4146.5\n", "4146\n", 1),
		"digit":       strings.Replace(string(good), "\n2\n", "\n3\n", 1),
		"no checksum": regexpSHA.ReplaceAllString(string(good), ""),
		// The header's kernel tag is covered by the checksum too (issue 56).
		"kernel tag": regexpKernel.ReplaceAllString(string(good), " kernel=other"),
	} {
		if content == string(good) {
			t.Fatalf("%s: no change made in %q", name, good)
		}
		os.WriteFile(p, []byte(content), 0o644)
		_, err := b.Load(Job{}, make([]float64, 3))
		if err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err = %v, want an error naming %s", name, err, p)
		}
		if errs := b.Verify(); len(errs) != 1 {
			t.Errorf("%s: Verify = %v, want one error", name, errs)
		}
	}
	os.WriteFile(p, good, 0o644)
	if errs := b.Verify(); errs != nil {
		t.Errorf("Verify of a sound bin: %v", errs)
	}
}

var (
	regexpSHA    = regexp.MustCompile(` sha256=[0-9a-f]+`)
	regexpKernel = regexp.MustCompile(` kernel=[a-z0-9]+`)
)

// A key.json whose key does not match its SHA-256 (edited, or a damaged
// "series": 4e12 that would make listing missing jobs run out of memory) is
// refused, naming the file.
func TestStoreDamagedKey(t *testing.T) {
	dir := t.TempDir()
	st, _ := OpenStore(dir)
	b, err := st.Bin("t-exp", testKey{Seed: 1}, Shape{2, 1, 3})
	if err != nil {
		t.Fatal(err)
	}
	kp := filepath.Join(b.Dir(), "key.json")
	good, _ := os.ReadFile(kp)
	for name, content := range map[string]string{
		"series":      strings.Replace(string(good), `"series": 1`, `"series": 4000000000000`, 1),
		"series 4e12": strings.Replace(string(good), `"series": 1`, `"series": 4e12`, 1),
		"seed":        strings.Replace(string(good), `"seed": 1`, `"seed": 2`, 1),
		"garbage":     "{",
	} {
		if content == string(good) {
			t.Fatalf("%s: no change made in %s", name, good)
		}
		os.WriteFile(kp, []byte(content), 0o644)
		if _, err := st.Bins(); err == nil || !strings.Contains(err.Error(), kp) {
			t.Errorf("%s: Bins err = %v", name, err)
		}
		if _, err := st.Bin("t-exp", testKey{Seed: 1}, Shape{2, 1, 3}); err == nil {
			t.Errorf("%s: Bin reopened a damaged key", name)
		}
	}
	os.WriteFile(kp, good, 0o644)
	if bins, err := st.Bins(); err != nil || len(bins) != 1 {
		t.Errorf("sound key: %v, %v", bins, err)
	}
}

// CleanTemp removes a killed writer's temporary file once it is old enough.
func TestStoreCleanTemp(t *testing.T) {
	st, _ := OpenStore(t.TempDir())
	b, _ := st.Bin("t-exp", testKey{Seed: 1}, Shape{1, 1, 1})
	tmp := filepath.Join(b.Dir(), ".r000000-s000.tmp-123")
	os.WriteFile(tmp, []byte("dpb-job"), 0o644)
	if gone, err := b.CleanTemp(time.Hour); err != nil || len(gone) != 0 {
		t.Errorf("fresh temp file: removed %v, %v", gone, err)
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(tmp, old, old)
	if gone, err := b.CleanTemp(time.Hour); err != nil || len(gone) != 1 {
		t.Errorf("old temp file: removed %v, %v", gone, err)
	}
	if _, err := os.Stat(tmp); err == nil {
		t.Error("temp file still there")
	}
}

// FuzzStoreFiles: any content of a job file or of key.json gives a value
// or an error, never a panic; a job file loads only with its checksum, and
// then as the values it holds.
//
// Each execution rewrites the same two files, so the store lives in memory
// (memDir): on a disk, the kernel's flusher starts writing a file back every
// few seconds, and the next execution's truncation (os.WriteFile's O_TRUNC)
// then waits for that write to reach the disk. On a shared VM's disk that
// wait took seconds: both workers sat in the kernel's truncate, and the
// target ran 0 executions a second for 12 s at a time.
func FuzzStoreFiles(f *testing.F) {
	dir := memDir(f)
	st, _ := OpenStore(dir)
	b, err := st.Bin("t-exp", testKey{Seed: 1}, Shape{2, 1, 3})
	if err != nil {
		f.Fatal(err)
	}
	b.Save(Job{}, []float64{1, 2, 4146.5})
	job, _ := os.ReadFile(b.path(Job{}))
	kp := filepath.Join(b.Dir(), "key.json")
	key, _ := os.ReadFile(kp)
	f.Add(job, key)
	f.Add(job[:len(job)-2], []byte(strings.Replace(string(key), `"reps": 2`, `"reps": 4e12`, 1)))
	f.Fuzz(func(t *testing.T, job, key []byte) {
		os.WriteFile(b.path(Job{}), job, 0o644)
		os.WriteFile(kp, key, 0o644)
		out := make([]float64, 3)
		if ok, err := b.Load(Job{}, out); ok && err == nil && !regexpSHA.Match(job) {
			t.Fatalf("loaded %v from a job file without checksum", out)
		}
		bins, err := st.Bins()
		if err != nil {
			return
		}
		for _, bin := range bins {
			if bin.Shape().Jobs() > maxJobs {
				t.Fatalf("shape %+v", bin.Shape())
			}
			bin.Missing()
			bin.Verify()
		}
	})
}

// memDir returns a new directory on a memory file system (/dev/shm), removed
// after the test, or t.TempDir() where there is none (the test then logs it).
func memDir(t testing.TB) string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "dpb-fuzz-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	t.Log("no /dev/shm: the store is on disk, where rewriting a file can wait for its write-back")
	return t.TempDir()
}

// FuzzParseShard: any -shard text and any Slurm or Kubernetes variables
// give a shard 0 <= I < N <= MaxShards or an error, never a panic; the
// shards' ranges of any job count partition it.
func FuzzParseShard(f *testing.F) {
	f.Add("auto", "3", "4", "", "")
	f.Add("auto/5", "", "", "", "2")
	f.Add("auto", "5", "3", "4", "")
	f.Add("1/3", "", "", "", "")
	f.Add("auto", "9223372036854775807", "9223372036854775807", "-9223372036854775808", "")
	f.Fuzz(func(t *testing.T, s, id, count, min, index string) {
		env := map[string]string{"SLURM_ARRAY_TASK_ID": id, "SLURM_ARRAY_TASK_COUNT": count, "SLURM_ARRAY_TASK_MIN": min, "JOB_COMPLETION_INDEX": index}
		sh, err := ParseShard(s, func(k string) string { return env[k] })
		if err != nil {
			return
		}
		if sh.I < 0 || sh.I >= sh.N || sh.N > MaxShards {
			t.Fatalf("ParseShard(%q) = %v", s, sh)
		}
		for _, total := range []int{0, 1, 7, maxJobs} {
			lo, hi := sh.Range(total)
			if lo < 0 || lo > hi || hi > total {
				t.Fatalf("%v of %d jobs: [%d, %d)", sh, total, lo, hi)
			}
			if sh.I == 0 && lo != 0 || sh.I == sh.N-1 && hi != total {
				t.Fatalf("%v of %d jobs: [%d, %d) leaves jobs out", sh, total, lo, hi)
			}
		}
	})
}

// A huge shard count is refused, and Range never overflows (issue 40,
// found by FuzzParseShard's seeds: I·J overflowed for N near 2^63).
func TestShardHugeN(t *testing.T) {
	if sh, err := ParseShard("4611686018427387904/9223372036854775807", nil); err == nil {
		t.Errorf("ParseShard accepted %v", sh)
	}
	sh := Shard{I: 1 << 61, N: 1<<62 + 1}
	if lo, hi := sh.Range(1000); lo < 0 || lo > hi || hi > 1000 {
		t.Errorf("%v of 1000 jobs: [%d, %d)", sh, lo, hi)
	}
}
