package simd

// symLowerRows sets v[i·d+j] = v[j·d+i] for j < i in the rows i ≥ from of
// the d×d row-major v.
func symLowerRows(v []float64, d, from int) {
	for i := max(from, 1); i < d; i++ {
		vi := v[i*d : i*d+i]
		for j := range vi {
			vi[j] = v[j*d+i]
		}
	}
}
