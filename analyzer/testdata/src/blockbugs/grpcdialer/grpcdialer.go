// Package grpcdialer is written in the style of gRPC-Go's transport
// dialing with "happy eyeballs": every resolved address is dialled at
// once and the first connection wins. The bug is a send with no receiver:
// the dialers report on an unbuffered channel and the caller receives only
// the first report, so the slower dialer blocks forever (a leak).
package grpcdialer

// dialer connects to the addresses of one target.
type dialer struct {
	addrs [2]int
}

// dialAddr connects to addr and reports it on results.
func (d *dialer) dialAddr(i int, results chan<- int) {
	results <- d.addrs[i] // want `^leak: dialAddr\(\d\) blocks forever in results <- d\.addrs\[i\] after system happyEyeballs returns$`
}

// dialFirst dials every address and returns the first that connects.
func (d *dialer) dialFirst(results chan int) int {
	for i := 0; i < 2; i++ {
		go d.dialAddr(i, results)
	}
	return <-results
}

// happyEyeballs dials two addresses with an unbuffered results channel.
//
//fencecheck:system
func happyEyeballs() {
	d := &dialer{addrs: [2]int{4, 6}}
	results := make(chan int)
	if addr := d.dialFirst(results); addr != 4 && addr != 6 {
		panic("connected to an unknown address")
	}
}

// happyEyeballsFixed gives the channel room for every dialer's report.
//
//fencecheck:system
func happyEyeballsFixed() {
	d := &dialer{addrs: [2]int{4, 6}}
	results := make(chan int, 2)
	if addr := d.dialFirst(results); addr != 4 && addr != 6 {
		panic("connected to an unknown address")
	}
}
