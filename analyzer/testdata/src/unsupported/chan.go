package unsupported

type pair struct{ a, b int }

//fencecheck:system
func channels() {
	done := make(chan pair) // want `unsupported in a fencecheck system: a channel of unsupported.pair`
	go func() {
		done <- pair{1, 2}
	}()
	<-done
}
