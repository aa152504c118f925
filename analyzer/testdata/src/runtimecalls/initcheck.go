package runtimecalls

// maxWorkers is checked by the package's initialisation, which panics when
// it is out of range: it is not, so the systems start.
var maxWorkers = 4

func init() {
	if maxWorkers < 1 || maxWorkers > 8 {
		panic("maxWorkers out of range")
	}
}
