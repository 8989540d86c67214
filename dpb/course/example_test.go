package course_test

import (
	"encoding/json"
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/course"
)

// From a solution notebook to the student version: Analyse finds the
// solution region (here a prediction, a number the reader writes), checks
// that a later %test cell grades it and that a wrong answer is kept for the
// test to reject, and Student replaces the region by a stub that compiles.
func ExampleStudent() {
	code := func(id, src string, dpb any) map[string]any {
		md := map[string]any{}
		if dpb != nil {
			md["dpb"] = dpb
		}
		return map[string]any{"cell_type": "code", "id": id, "metadata": md, "outputs": []any{}, "execution_count": nil, "source": src}
	}
	raw, err := json.Marshal(map[string]any{
		"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{},
		"cells": []any{
			code("predict", "var (\n\t// BEGIN SOLUTION\n\tanswerLevels = 11.0\n\t// END SOLUTION\n)", map[string]any{"wrong_answer": "var answerLevels = 10.0"}),
			code("grade", "%test\nfunc TestLevels(t *testing.T) {\n\tnb.Answer(t, \"tree levels for T = 1024\", answerLevels, float64(counter.TreeLevels(1024)), 0)\n}", nil),
		},
	})
	if err != nil {
		panic(err)
	}
	nb, err := course.Parse(raw)
	if err != nil {
		panic(err)
	}
	exs, err := course.Analyse(nb)
	if err != nil {
		panic(err)
	}
	fmt.Println("exercises:", len(exs), "names:", exs[0].Names, "graded by:", exs[0].Tests)
	fmt.Println(course.Student(nb, exs).Cells[0].Source())
	// Output:
	// exercises: 1 names: [answerLevels] graded by: [TestLevels]
	// var (
	// 	answerLevels = math.NaN() // your answer
	// )
}
