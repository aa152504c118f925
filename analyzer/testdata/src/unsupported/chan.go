package unsupported

//fencecheck:system
func channels() {
	done := make(chan bool) // want `unsupported in a fencecheck system: channels`
	go func() {
		done <- true
	}()
	<-done
}
