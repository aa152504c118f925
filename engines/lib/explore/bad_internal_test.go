package explore

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// TestBadIndex checks the search's bad-state test against the model's on
// the states of random walks through the bundled models and the scale
// models, under TSO.
func TestBadIndex(t *testing.T) {
	var files []string
	for _, dir := range []string{"models", "scale"} {
		fs, err := filepath.Glob(filepath.Join("..", "..", "..", "testdata", dir, "*.fcm"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	r := rand.New(rand.NewPCG(3, 4))
	bad := 0
	for _, file := range files {
		p, err := modelfile.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		p.Index()
		x := newBadIndex(p, nil)
		var roots []model.State
		if err := p.Initial(func(s model.State) { roots = append(roots, s) }); err != nil {
			t.Fatal(err)
		}
		for walk := range 50 {
			st := roots[walk%len(roots)]
			for range 200 {
				if got, want := x.isBad(st), p.IsBad(st); got != want {
					t.Fatalf("%s: isBad = %v, IsBad = %v at %v", file, got, want, st.Locs)
				} else if got {
					bad++
				}
				var next []model.State
				p.Successors(st, model.TSO, 3, func(_ model.Step, ns model.State) { next = append(next, ns) })
				if len(next) == 0 {
					break
				}
				st = next[r.IntN(len(next))]
			}
		}
	}
	if bad == 0 {
		t.Error("no walk met a bad state: the test compares nothing that matters")
	}
}
