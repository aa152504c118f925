package unsupported

// A struct element with a slice in it.
type batch struct {
	id    int
	items []int
}

//fencecheck:system
func batches() {
	b := make(chan batch, 1) // want `unsupported in a fencecheck system: a channel of unsupported\.batch, whose elements hold a value of type \[\]int \(items\)`
	b <- batch{1, nil}
	go func() { <-b }()
}
