// Package datafixture makes small synthetic files in the upstream layouts of
// the public data sets (OBD small sample, UCI Shuttle and Mushroom) and a
// manifest pointing at them, so "dpb data fetch" is tested against a local
// HTTP server with no network. The files are synthetic: nothing here is real
// data, and nothing measured on them is a result.
package datafixture

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/data"
)

// Items is the number of OBD items in the fixture.
const Items = 5

// Files returns the fixture files keyed by their URL path on the server.
func Files(seed uint64) map[string][]byte {
	r := rand.New(rand.NewPCG(seed, 13))
	files := map[string][]byte{}
	var items strings.Builder
	items.WriteString(",item_id,item_feature_0,item_feature_1,item_feature_2,item_feature_3\n")
	for i := 0; i < Items; i++ {
		fmt.Fprintf(&items, "%d,%d,%g,c%d,x,d%d\n", i, i, r.Float64()-0.5, i%2, i%3)
	}
	for _, camp := range []string{"men", "women"} {
		var log strings.Builder
		log.WriteString(",timestamp,item_id,position,click,propensity_score,user_feature_0,user_feature_1,user_feature_2,user_feature_3")
		for a := 0; a < Items; a++ {
			fmt.Fprintf(&log, ",user-item_affinity_%d", a)
		}
		log.WriteString("\n")
		for t := 0; t < 600; t++ {
			it := r.IntN(Items)
			click := 0
			if r.Float64() < 0.05+float64(0.05*float64(it)) {
				click = 1
			}
			fmt.Fprintf(&log, "%d,2019-11-24 00:00:%02d+00:00,%d,%d,%d,%v,u%d,a,b,c", t, t%60, it, 1+t%3, click, 1/float64(Items), r.IntN(3))
			for a := 0; a < Items; a++ {
				fmt.Fprintf(&log, ",%d.0", r.IntN(2))
			}
			log.WriteString("\n")
		}
		for _, pol := range []string{"random", "bts"} {
			files["/obd/"+pol+"/"+camp+"/"+camp+".csv"] = []byte(log.String())
			files["/obd/"+pol+"/"+camp+"/item_context.csv"] = []byte(items.String())
		}
	}
	files["/obd/random/all/item_context.csv"] = []byte(items.String())
	shuttle := func(rows int) []byte {
		var b strings.Builder
		for i := 0; i < rows; i++ {
			c := 1 + r.IntN(7)
			for j := 0; j < 9; j++ {
				fmt.Fprintf(&b, "%d ", 10*c+r.IntN(40)-20)
			}
			fmt.Fprintf(&b, "%d\n", c)
		}
		return []byte(b.String())
	}
	files["/statlog/shuttle/shuttle.trn.Z"] = shuttle(1500) // plain text: the converter accepts both
	files["/statlog/shuttle/shuttle.tst"] = shuttle(500)
	var mush strings.Builder
	for i := 0; i < 400; i++ {
		cls := "ep"[r.IntN(2)]
		mush.WriteByte(cls)
		for j := 0; j < 22; j++ {
			mush.WriteByte(',')
			mush.WriteByte("abcdefg?"[(r.IntN(3)+int(cls))%8])
		}
		mush.WriteByte('\n')
	}
	files["/mushroom/agaricus-lepiota.data"] = []byte(mush.String())
	files["/mushroom/agaricus-lepiota.names"] = []byte("synthetic fixture\n")
	return files
}

// Manifest returns a manifest of [data.DefaultManifest]'s files served from
// base (e.g. an httptest server's URL) with the fixtures' checksums.
func Manifest(base string, files map[string][]byte) (data.Manifest, error) {
	m := data.DefaultManifest()
	for i := range m.Files {
		f := &m.Files[i]
		var bodies [][]byte
		for j, u := range f.URLs {
			p := u[max(strings.Index(u, "/obd/"), 0):]
			if !strings.Contains(u, "/obd/") {
				p = u[strings.LastIndex(u, "/machine-learning-databases/")+len("/machine-learning-databases"):]
			}
			b, ok := files[p]
			if !ok {
				return data.Manifest{}, fmt.Errorf("fixture %s missing", p)
			}
			f.URLs[j] = base + p
			bodies = append(bodies, b)
		}
		out := bodies[0]
		if f.Convert == "shuttle" {
			var buf strings.Builder
			if err := data.ConvertShuttle(&buf, data.NamedReader{Name: "trn", R: strings.NewReader(string(bodies[0]))},
				data.NamedReader{Name: "tst", R: strings.NewReader(string(bodies[1]))}); err != nil {
				return data.Manifest{}, err
			}
			out = []byte(buf.String())
		}
		sum := sha256.Sum256(out)
		f.SHA256, f.Size = hex.EncodeToString(sum[:]), int64(len(out))
	}
	return m, m.Validate()
}

// Handler serves files by URL path (404 otherwise).
func Handler(files map[string][]byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	})
}
