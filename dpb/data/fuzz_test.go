package data

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/ope"
)

// The loaders' fuzz targets: any file content gives a value or an error
// naming the file, never a panic; whatever loads is usable.

// memFiles serves the loaders' files from memory during fuzzing (file
// system writes would make each input ~100 times slower).
type memFiles map[string][]byte

func (m memFiles) open(path string) (io.ReadCloser, error) {
	b, ok := m[path]
	if !ok {
		return nil, &os.PathError{Op: "open", Path: path, Err: os.ErrNotExist}
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

// serveFromMemory makes the loaders read files from m until the test ends.
func serveFromMemory(f *testing.F, m memFiles) {
	old := openFile
	openFile = m.open
	f.Cleanup(func() { openFile = old })
}

// checkEvents checks every event of a loaded log: an arm in range, a reward
// and every context entry in [0, 1], a propensity in (0, 1].
func checkEvents(t *testing.T, l ope.Log) {
	r := &bandit.Round{K: l.Arms(), Dim: l.Dim(), Actions: make([]float64, l.Arms()*l.Dim())}
	for i := 0; i < l.Len(); i++ {
		a, y, pr := l.Event(r, i)
		if a < 0 || a >= l.Arms() || !(y >= 0 && y <= 1) || !(pr > 0 && pr <= 1) {
			t.Fatalf("event %d: (%d, %v, %v)", i, a, y, pr)
		}
		for _, v := range r.Actions {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("event %d: context %v outside [0, 1]", i, r.Actions)
			}
		}
	}
}

const (
	fuzzShuttle = `"V1","V2","V3","V4","V5","V6","V7","V8","V9","Class"
50,21,77,0,28,0,27,48,22,"Fpv.Close"
55,0,81,0,-6,11,25,88,64,"High"
40,-3,100,0,38,0,61,62,2,"Rad.Flow"
37,0,79,0,12,0,42,67,26,"Rad.Flow"
`
	fuzzMushroom = "p,x,s,n,t,p,f,c,n,k,e,e,s,s,w,w,p,w,o,p,k,s,u\ne,x,s,y,t,a,f,c,b,k,e,c,s,s,w,w,p,w,o,p,n,n,g\ne,b,s,w,t,l,f,c,b,n,e,c,s,s,w,w,p,w,o,p,n,n,m\n"
	fuzzItems    = ",item_id,item_feature_0,item_feature_1,item_feature_2,item_feature_3\n0,0,0.5,a,b,c\n1,1,-0.5,a,b,d\n"
	fuzzOBD      = ",timestamp,item_id,position,click,propensity_score,user_feature_0,user_feature_1,user_feature_2,user_feature_3,user-item_affinity_0,user-item_affinity_1\n0,ts,1,1,0,0.5,u,v,w,x,0.0,1.0\n1,ts,0,2,1,0.5,u,v,w,x,0,0\n"
)

func FuzzLoadShuttle(f *testing.F) {
	f.Add([]byte(fuzzShuttle))
	f.Add([]byte(`"V1","V2","V3","V4","V5","V6","V7","V8","V9","Class"` + "\n1,2,3,4,5,6,7,8,NaN,\"x\"\n"))
	f.Add([]byte(""))
	files := memFiles{}
	serveFromMemory(f, files)
	f.Fuzz(func(t *testing.T, b []byte) {
		p := "/mem/shuttle.csv"
		files[p] = b
		ds, err := LoadShuttle(p)
		if err != nil {
			if !strings.Contains(err.Error(), p) && !strings.Contains(err.Error(), "shuttle") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if ds.Rows() == 0 || len(ds.X) != ds.Rows()*ds.P() || len(ds.Classes) == 0 {
			t.Fatalf("inconsistent data set: %d rows, %d values, %d features", ds.Rows(), len(ds.X), ds.P())
		}
		// Whatever loads either becomes a log or is refused with an error.
		if l, err := NewSupervisedLog(ds, SupervisedLogConfig{Dim: 3, MaxEvents: 50}, bandit.Stream(1, 1)); err == nil {
			checkEvents(t, l)
		}
	})
}

func FuzzLoadMushroom(f *testing.F) {
	f.Add([]byte(fuzzMushroom))
	f.Add([]byte("x,?,?\n"))
	files := memFiles{}
	serveFromMemory(f, files)
	f.Fuzz(func(t *testing.T, b []byte) {
		p := "/mem/agaricus-lepiota.data"
		files[p] = b
		ds, err := LoadMushroom(p)
		if err != nil {
			return
		}
		if ds.Rows() == 0 || len(ds.X) != ds.Rows()*ds.P() {
			t.Fatalf("inconsistent data set")
		}
		for _, v := range ds.X {
			if v != 0 && v != 1 {
				t.Fatalf("one-hot value %v", v)
			}
		}
	})
}

func FuzzLoadOBD(f *testing.F) {
	f.Add([]byte(fuzzOBD), []byte(fuzzItems))
	f.Add([]byte(strings.Replace(fuzzOBD, "0.5,u", "NaN,u", 1)), []byte(fuzzItems))
	files := memFiles{}
	serveFromMemory(f, files)
	f.Fuzz(func(t *testing.T, log, items []byte) {
		files["/mem/item_context.csv"] = items
		p := "/mem/log.csv"
		files[p] = log
		l, err := LoadOBD(p)
		if err != nil {
			return
		}
		checkEvents(t, l)
	})
}

func FuzzConvertShuttle(f *testing.F) {
	f.Add([]byte("50 21 77 0 28 0 27 48 22 2\n55 0 81 0 -6 11 25 88 64 4\n"))
	f.Add([]byte("1 2 3 4 5 6 7 8 9 8\n"))
	files := memFiles{}
	serveFromMemory(f, files)
	f.Fuzz(func(t *testing.T, b []byte) {
		var out bytes.Buffer
		if err := ConvertShuttle(&out, NamedReader{Name: "in", R: bytes.NewReader(b)}); err != nil {
			return
		}
		// What converts loads.
		p := "/mem/shuttle.csv"
		files[p] = out.Bytes()
		if _, err := LoadShuttle(p); err != nil {
			t.Fatalf("converted output does not load: %v\n%s", err, out.String())
		}
	})
}

func FuzzUnlzw(f *testing.F) {
	if z, err := os.ReadFile("testdata/sample.trn.Z"); err == nil {
		f.Add(z)
	}
	f.Add([]byte{0x1f, 0x9d, 0x90, 0x41, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := Unlzw(bytes.NewReader(b))
		if err == nil && len(out) > maxUnlzw {
			t.Fatalf("%d bytes out", len(out))
		}
	})
}

func FuzzReadManifest(f *testing.F) {
	f.Add([]byte(`{"files": [{"set": "uci", "path": "uci/x", "urls": ["https://e/x"], "sha256": "` + strings.Repeat("ab", 32) + `", "size": 3}]}`))
	f.Add([]byte(`{"files": [{"set": "obd", "path": "../x"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ReadManifest(bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, file := range m.Files {
			p := filepath.Clean(filepath.Join("/base", file.Path))
			if !strings.HasPrefix(p, "/base/") {
				t.Fatalf("accepted path %q escapes the data directory", file.Path)
			}
		}
	})
}

// FuzzLoadCSVLog: any CSV log gives a log or an error, never a panic (a
// name given twice used to index out of range); whatever loads has K within
// the bound and events usable by OPE.
func FuzzLoadCSVLog(f *testing.F) {
	for _, s := range []string{
		"action,reward,propensity,x0,x1\n1,1,0.25,0.5,-2\n0,0,0.75,1.5,3\n",
		"action,reward,propensity,x0,x0\n0,1,0.5,1,2\n",
		"action,reward,propensity,x0,,\n1,1,0.5,3,,\n",
		"\ufeffid,x0,action,reward,propensity\n7,0.5,2,1,0.25\n",
	} {
		f.Add([]byte(s), 0)
	}
	files := memFiles{}
	serveFromMemory(f, files)
	f.Fuzz(func(t *testing.T, b []byte, arms int) {
		files["log.csv"] = b
		l, err := LoadCSVLog("log.csv", CSVLogConfig{Arms: arms % 8})
		if err != nil {
			if !strings.Contains(err.Error(), "log.csv") && !strings.Contains(err.Error(), "arms") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		k, d := l.Arms(), l.ContextDim()
		if k < 1 || k > DefaultMaxArms || d < 1 || l.Dim() != k*d || l.Len() < 1 {
			t.Fatalf("arms %d, d %d, dim %d, len %d", k, d, l.Dim(), l.Len())
		}
		r := &bandit.Round{K: k, Dim: k * d, Actions: make([]float64, k*k*d)}
		for i := 0; i < l.Len(); i++ {
			a, y, p := l.Event(r, i)
			if a < 0 || a >= k || math.IsNaN(y) || math.IsInf(y, 0) || !(p > 0 && p <= 1) {
				t.Fatalf("event %d: (%d, %v, %v)", i, a, y, p)
			}
		}
	})
}
