package analyzer

// The package's tests analyse the systems of several packages at once, in
// parallel tests of one process, and the memory limit measures that
// process's heap: each system's 2048 MiB by default would be every
// running analysis's together, and a loaded machine, whose analyses
// overlap longer, would stop some at their first state. The tests that
// check the limit set it themselves.
func init() { defaultMemoryLimit = 8 << 10 }
