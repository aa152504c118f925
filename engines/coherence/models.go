package coherence

import "github.com/fencecheck/fencecheck/model"

// isPSO reports whether m keeps a buffer per process and variable.
func isPSO(m model.Model) bool { return false }
